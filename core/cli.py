"""The `unobot` command.

Core commands: `variants`, `scenario`, `simulate`. Adapters add theirs
(`play`, `telegram`, ...) through the `unobot.commands` entry-point group:
each entry is a function `register(subparsers)` that adds a sub-parser and
sets `func` on it. So core never imports an adapter. Help texts are
registered in English and said in the reader's language when shown
(`unobot.cli_text`, which also has argparse's own words translated).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from importlib.metadata import EntryPoint, PackageNotFoundError, distribution, entry_points
from typing import Any

from . import plain_text
from .chat.i18n import N_, Msg
from .cli_text import (
    argparse_language,
    cli_gettext,
    config_error_line,
    reader_of,
    translate_parsers,
)

# Why the rest is imported inside the commands: `unobot --help` and each
# adapter's start must not pay for YAML, the rule registry and the variants.

COMMANDS_GROUP = "unobot.commands"
LANG_HELP = N_("the language to list in (default: from LANG and LC_ALL, else game.default_language)")


def parse_rule_overrides(items: list[str]) -> dict[str, Any]:
    """`--rule stacking.optional=false --rule seven-o` -> overrides dict.

    A bare NAME turns a rule on, NAME=false turns it off, NAME.OPTION=VALUE
    sets an option (VALUE is read as YAML: true, 15, other_side; what YAML
    cannot read is taken as text, for the option's check to refuse). A value
    that is neither on nor off for a whole rule is a VariantError (an unknown
    rule is said to be one first), translated by its `text(lang)`.
    """
    import yaml

    from .chat.i18n import N_, Msg
    from .registry import available_rules
    from .variants import COMMAND_LINE, VariantError, unknown_rule

    out: dict[str, Any] = {}
    for item in items:
        key, _, raw = item.partition("=")
        try:
            value = yaml.safe_load(raw) if raw else True
        except yaml.YAMLError:
            value = raw
        rule, _, option = key.partition(".")
        if option:
            current = out.get(rule)
            current = dict(current) if isinstance(current, dict) else {}
            current[option] = value
            out[rule] = current
        elif value is False:
            out[rule] = False
        elif value is True or isinstance(value, dict):
            out[rule] = value if isinstance(value, dict) else {}
        elif rule not in available_rules():
            raise unknown_rule(rule, COMMAND_LINE)
        else:  # `jump-in=maybe`, `jump-in=0`: not an on/off value
            raise VariantError(f"{COMMAND_LINE} {item}",
                               None, Msg(N_("a rule is turned on or off with true or false, not {value}"),
                                         value=repr(raw)),
                               Msg(N_("`--rule {rule}` turns it on, `--rule {rule}=false` turns it off"),
                                   rule=rule))
    return out


def configured() -> bool:
    """Read config.yaml (or $UNOBOT_CONFIG) for the commands that name variants.

    Why: its `variants.path` is where an operator's own variants are found
    (`variants.set_configured_path`, applied as the file is read), and
    `unobot variants` is how they check one; a command that never read the
    file said "unknown variant" of a variant the bot plays. A broken file is
    said in its one line (file, line, fix), as every other command says it:
    False, and the command exits 2."""
    return configured_language() is not None


def configured_language() -> str | None:
    """`configured`, giving the configured `game.default_language` (None: a broken file, said)."""
    from .config import ConfigError, load_config

    try:
        return load_config(check_variant=False).game.default_language
    except ConfigError as exc:
        print(config_error_line(exc), file=sys.stderr)
        return None


def language_arg(value: str) -> str:
    """An argparse type for `--lang`: a language unobot speaks (`es`, `es-MX`,
    `pt_BR`), else refused with the list."""
    from .chat.i18n import LANGUAGES, known

    found = known(value)
    if found is None:
        _ = cli_gettext()
        raise argparse.ArgumentTypeError(_("unknown language {value}; known: {languages}").format(
            value=repr(value), languages=", ".join(LANGUAGES)))
    return found


def reader_lang(asked: str | None, default: str) -> str:
    """The language a listing speaks, as the console picks it: `--lang`, else
    the locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE), else the configured
    `game.default_language`."""
    from .chat.i18n import env_lang, normalize

    return normalize(asked or env_lang() or default)


def tcp_port(text: str) -> int:
    """An argparse type for the servers' `--port` (`unobot web`, `telegram`): 0 to 65535
    (0: any free port, as everywhere; the server says which it got).

    Why: a plain `int` let `--port 99999` through, which `unobot web` met as an
    OverflowError traceback from asyncio's bind (and the C library's
    getaddrinfo quietly takes as port 34463); config.yaml's ports are checked,
    the command line's were not. Here, beside the other shared argument
    readers, because `unobot --help` imports no adapter module but the commands'."""
    _ = cli_gettext()
    try:
        port: int | None = int(text)
    except ValueError:
        port = None
    if port is None or not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(_("{value} is not a TCP port (0-65535)").format(
            value=repr(text) if port is None else port))
    return port


def fixed_port(text: str) -> int:
    """An argparse type for a `--port` others must find where they were told
    (`unobot telegram`'s webhook: Telegram, or the reverse proxy in front of
    it, posts to one fixed port): 1 to 65535.

    Why 0 is refused here and not taken as "the configured port" (what
    `args.port or configured` did without a word): 0 means "any free port"
    everywhere else (`unobot web --port 0` serves on one and prints it), and
    a webhook on a port chosen at random would never receive an update."""
    port = tcp_port(text)
    if port == 0:
        _ = cli_gettext()
        raise argparse.ArgumentTypeError(_("0 (any free port) cannot be used here: the webhook must listen on the "
                                           "port its public URL or reverse proxy sends to (1-65535)"))
    return port


# -- variants -----------------------------------------------------------------

def cmd_variants(args: argparse.Namespace) -> int:
    from .chat.i18n import gettext_for
    from .chat.rules_listing import variant_lines
    from .registry import available_rules, broken_rules
    from .variants import VariantError, load_variant, resolve, variant_names

    default = configured_language()
    if default is None:
        return 2
    lang = reader_lang(args.lang, default)  # a player sent here by `unobot play --help` reads their language
    if not args.name:
        _ = gettext_for(lang)
        for name in variant_names():
            try:
                v = load_variant(name)
                desc = v.describe(lang)
                print(f"{name:16} {v.label(lang)}" + (f" - {desc}" if desc else ""))
            except VariantError as exc:  # in the list's language, as the variants around it
                print(f"{name:16} " + _("cannot be loaded: {error}").format(error=exc.text(lang)))
        for name, why in broken_rules().items():
            print(_("(the rule plugin {name} failed to load: {error})").format(name=name, error=why),
                  file=sys.stderr)
        return 0
    try:
        resolved = resolve(args.name)
        variant = load_variant(args.name)
        parent = load_variant(variant.parent) if variant.parent else None
    except VariantError as exc:
        _ = gettext_for(lang)
        print(f"{_('error:')} {exc.text(lang)}", file=sys.stderr)  # all in the reader's words
        return 2
    if args.json:
        print(json.dumps({"name": resolved.name, "rules": resolved.rules}, indent=2))
        return 0
    for line in variant_lines(resolved.name, variant.label(lang), variant.parent,
                              parent.label(lang) if parent is not None else None, resolved.rules,
                              resolved.replaced, available_rules(), lang):
        print(line)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from .chat.rules_listing import rules_lines
    from .registry import available_rules

    default = configured_language()
    if default is None:
        return 2
    for line in rules_lines(available_rules(), reader_lang(args.lang, default)):
        print(line)
    return 0


# -- a plugin's translations -------------------------------------------------------

def cmd_i18n(args: argparse.Namespace) -> int:
    """`unobot i18n extract|compile|check PACKAGE_DIR --domain D`: a plugin's own
    catalogues under PACKAGE_DIR/locale (the folder its `Rule.locale` names);
    `unobot i18n check` alone checks unobot's own."""
    from pathlib import Path

    from .chat.catalogue import compile_catalogues, extract_catalogues, package_data_texts
    from .chat.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, env_lang, gettext_for

    # Said in the reader's locale (LC_ALL, LC_MESSAGES, LANG), else English: here
    # `--lang` names the catalogues to keep or check, not who reads the report.
    reader = env_lang() or "en"
    _ = gettext_for(reader)

    # Every language unobot speaks, unless --lang names some: a plugin whose
    # catalogues stop at English and Spanish shows its moves, cards and
    # events in English to a Russian or an Arabic table.
    wanted = args.lang or list(LANGUAGES)

    if args.action == "check":
        from .chat.i18n_check import check_folder

        if args.package:
            folder, domain = Path(args.package) / "locale", args.domain or Path(args.package).name
        else:
            folder, domain = LOCALE_DIR, DOMAIN
        reports = check_folder(folder, domain)
        if not reports:
            print(_("error:"), _("no {domain}.po under {folder}").format(domain=domain, folder=folder),
                  file=sys.stderr)
            return 2
        print(_("catalogue {domain} ({folder}): language  translated/total  faults").format(
            domain=domain, folder=folder))
        for report in reports:
            print("  " + report.line(reader))
            for why in report.swapped:  # few, and each needs reading: always said
                print("      " + _("swapped? {why}").format(why=why[:160]))
            if args.verbose:
                for kind in ("missing", "fuzzy", "fields", "plurals"):
                    for text in getattr(report, kind):
                        print(f"      {kind}: {text[:100]!r}")
        # English is the source text: a plugin needs no catalogue to be read in it.
        absent = [lang for lang in wanted if lang not in {r.lang for r in reports} and (args.lang or lang != "en")]
        for lang in absent:
            print(f"  {lang:6} " + _("no catalogue: `unobot i18n extract` makes one to translate"))
        # --lang names the languages check requires: a catalogue of another one
        # is listed, not held against the plugin (it may be a start, or stale).
        judged = [r for r in reports if not args.lang or r.lang in args.lang]
        return 0 if all(r.ok for r in judged) and not absent else 1
    if not args.package:
        print(_("error:"), _("name the plugin's package folder"), file=sys.stderr)
        return 2
    package = Path(args.package)
    if not package.is_dir():
        print(_("error:"), _("{folder} is not a folder").format(folder=package), file=sys.stderr)
        return 2
    domain = args.domain or package.name
    locale = package / "locale"
    if args.action == "extract":
        from .chat.catalogue_domains import other_domains_files

        # A rule of the package with a catalogue of its own keeps its texts there.
        skip = other_domains_files(package, domain)
        extra = package_data_texts(package, skip, variants=domain == package.name)
        written = extract_catalogues([(package, package.name)], locale, domain, wanted, domain,
                                     extra=extra, skip=skip)
        for po in written:
            print(_("updated {file}").format(file=po))
        print(_("now translate the empty msgstr entries, then `unobot i18n compile {package}`").format(
            package=package))
    else:
        for mo in compile_catalogues(locale, domain):
            print(_("compiled {file}").format(file=mo))
    return 0


# -- scenario -------------------------------------------------------------------

def cmd_scenario(args: argparse.Namespace) -> int:
    from .chat.i18n import gettext_for
    from .cli_text import reader_of
    from .scenario import collect, run_scenario, summary_line

    lang = reader_of(sys.argv[1:])  # the author's locale, else English
    paths = collect(args.paths)
    if not paths:
        _ = gettext_for(lang)
        print(_("no scenario files found"), file=sys.stderr)
        return 2
    passed = failed = 0
    for path in paths:
        result = run_scenario(path)
        if result.passed:
            passed += 1
            if not args.quiet:
                print(result.describe(lang))
        else:
            failed += 1
            print(result.describe(lang))
    print(summary_line(passed, failed, lang))
    return 1 if failed else 0


# -- simulate -------------------------------------------------------------------

def cmd_simulate(args: argparse.Namespace) -> int:
    from .ai import POLICIES
    from .chat.i18n import gettext_for
    from .cli_text import config_error_line, error_line
    from .simulate import InvariantError, simulate
    from .variants import VariantError, resolve

    if not configured():
        return 2
    try:
        overrides = parse_rule_overrides(args.rule)
        resolve(args.variant, overrides or None, "--rule")
    except VariantError as exc:  # an unknown variant or rule: where, what and the fix, in the reader's language
        print(config_error_line(exc), file=sys.stderr)
        return 2
    from .ai import new_player
    from .simulate import Policy, random_policy

    names = (args.level or args.policy).split(",")
    known = ["uniform", *POLICIES]
    unknown = [n for n in names if n not in known]
    if unknown:
        print(error_line(Msg(N_("unknown policy {name}; known: {known}"), name=repr(unknown[0]),
                             known=", ".join(known))), file=sys.stderr)
        return 2
    # "random" is uniform over legal moves unless --level names AI levels
    # (where it is the old name of easy); each seat a player of its own.
    players: dict[str, Policy] = {
        n: random_policy if n == "uniform" or (n == "random" and not args.level) else new_player(n, seconds=args.budget)
        for n in names}
    policies = [players[names[i % len(names)]] for i in range(args.players)]
    if args.budget is not None and not args.budget > 0:
        print(error_line(Msg(N_("--budget is a time in seconds above 0 (expert's time per move)"))), file=sys.stderr)
        return 2
    if args.store:
        return _simulate_store(args, overrides, names)
    from . import simulate_text as sim_text
    from .cli_text import reader_of

    lang = reader_of(sys.argv[1:])  # the operator's locale, else English
    progress = None
    bar: Any = None
    if sys.stdout.isatty() and not args.json:
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        task = bar.add_task(sim_text.progress_label(args.variant, args.players, lang), total=args.games)

        def progress(done: int) -> None:
            bar.update(task, completed=done)
    try:
        report = simulate(args.variant, args.players, args.games, args.seed, policies,
                          overrides or None, check=not args.no_check, progress=progress,
                          match=args.match, out_of_turn=args.out_of_turn)
    except InvariantError as exc:  # the engine's own fault: its English detail is for a bug report
        print(gettext_for(lang)(N_("INVARIANT VIOLATED: {problem}")).format(problem=exc), file=sys.stderr)
        return 1
    finally:
        if bar is not None:
            bar.stop()
    # The seats' policies as played: --level's when given (it overrides --policy).
    data = {"variant": args.variant, "players": args.players, "policy": args.level or args.policy,
            **report.as_dict()}
    if args.json:
        print(json.dumps(data))
    else:
        print(sim_text.report_line(report, data["moves_per_second"], lang, match=args.match))
    return 0


def _simulate_store(args: argparse.Namespace, overrides: dict[str, Any], policies: list[str]) -> int:
    factory = None
    for ep in entry_points(group="unobot.simulate_store"):
        factory = ep.load()
    if factory is None:
        from .cli_text import error_line

        print(error_line(Msg(N_("no store simulation is installed (adapters missing)"))), file=sys.stderr)
        return 2
    return int(factory(args, overrides, policies))


# -- main -----------------------------------------------------------------------

def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The `unobot` parser, with the commands that `argv` (the arguments after
    `unobot`) needs: all of them when it is None (see `command_entry_points`)."""
    parser = argparse.ArgumentParser(prog="unobot", description=N_("UNO, with rules as plugins."))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("variants", help=N_("list the variants, or show one resolved"))
    p.add_argument("name", nargs="?", help=N_("a variant to show with its rules resolved (default: list them all)"))
    p.add_argument("--json", action="store_true", help=N_("print JSON instead of text"))
    p.add_argument("--lang", type=language_arg, help=LANG_HELP)
    p.set_defaults(func=cmd_variants)

    p = sub.add_parser("rules", help=N_("list every rule plugin with its options"))
    p.add_argument("--lang", type=language_arg, help=LANG_HELP)
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("i18n", help=N_("check unobot's catalogues, or extract, compile or check a rule plugin's own"),
                       description=N_("Check unobot's catalogues, or extract, compile or check a rule plugin's "
                                      "own. The report is in your language (LC_ALL, LC_MESSAGES, LANG); each "
                                      "catalogue's line starts with its language code, translated/total and "
                                      "the share with “%” in every language, for scripts, and check exits 1 "
                                      "when one is not complete."))
    p.add_argument("action", choices=("extract", "compile", "check"))
    p.add_argument("package", metavar="PACKAGE_DIR", nargs="?",
                   help=N_("the plugin's package folder (check without it: unobot's own catalogues)"))
    p.add_argument("-v", "--verbose", action="store_true", help=N_("check: list every faulty entry"))
    p.add_argument("--domain", help=N_("gettext domain (default: the folder's name)"))
    p.add_argument("--lang", action="append",
                   help=N_("a language to keep a catalogue for, or that check requires (default: every language "
                        "unobot speaks)"))
    p.set_defaults(func=cmd_i18n)

    p = sub.add_parser("scenario", help=N_("run rule scenario files"),
                       description=N_("Run rule scenario files. The report is in your language (LC_ALL, "
                                      "LC_MESSAGES, LANG); each scenario's line starts “PASS” or “FAIL” and "
                                      "its file in every language, for scripts, and the exit status is 1 "
                                      "when one fails."))
    p.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    p.add_argument("-q", "--quiet", action="store_true", help=N_("print failures only"))
    p.add_argument("--lang", type=language_arg, help=N_("the language of the report (default: from LC_ALL, "
                                                        "LC_MESSAGES and LANG, else English)"))
    p.set_defaults(func=cmd_scenario)

    p = sub.add_parser("simulate", help=N_("play whole games with policies, checking invariants"),
                       description=N_("Play whole games with policies, checking invariants. The report is "
                                      "in your language (LC_ALL, LC_MESSAGES, LANG); --json prints it as "
                                      "one JSON line, the same in every language, for scripts. A broken "
                                      "invariant is a line starting “INVARIANT VIOLATED” and exit status 1."))
    p.add_argument("--variant", default="official", help=N_("the variant to play (default official; see `unobot variants`)"))
    p.add_argument("--players", type=int, default=4, help=N_("seats at the table (default 4)"))
    p.add_argument("--games", type=int, default=100, help=N_("how many games (default 100)"))
    p.add_argument("--seed", type=int, default=1, help=N_("the first game's seed: the same seed plays the same games"))
    p.add_argument("--policy", default="random",
                   help=N_("random (uniform over legal moves) or an AI level; a comma list gives one per seat"))
    p.add_argument("--level", help=N_("AI levels (easy, normal, hard, expert), a comma list for one per "
                                   "seat; overrides --policy"))
    p.add_argument("--rule", action="append", default=[], metavar="NAME[.OPTION]=VALUE",
                   help=N_("turn a rule on (NAME), off (NAME=false) or set one of its options; repeatable"))
    p.add_argument("--json", action="store_true", help=N_("end with one JSON line of results"))
    p.add_argument("--no-check", action="store_true", help=N_("skip the per-move invariant checks"))
    p.add_argument("--budget", type=float, metavar="SECONDS",
                   help=N_("expert's time to think per move (default: the config's game.ai_seconds, 0.2); "
                        "a smaller one plays whole expert matches sooner"))
    p.add_argument("--match", action="store_true",
                   help=N_("play whole matches (rounds until the variant's match winner), not single rounds"))
    p.add_argument("--out-of-turn", type=float, default=0.5, metavar="P",
                   help=N_("chance that a player whose turn it is not makes a move they may make "
                        "(UNO, catch, jump-in) (default 0.5; 0 turns it off)"))
    p.add_argument("--store", metavar="URL", help=N_("play through a store: a redis://, "
                   "redis+cluster:// ... URL, config (redis.url), embedded or memory"))
    p.add_argument("--workers", type=int, default=1, help=N_("processes playing through the store"))
    p.add_argument("--outage-window", type=float, metavar="SECONDS",
                   help=N_("with --store: how long a worker waits through an outage, or for a save to be "
                        "confirmed, before giving up (default 60)"))
    p.set_defaults(func=cmd_simulate)

    for ep in command_entry_points(argv, set(sub.choices)):
        try:
            ep.load()(sub)
        except Exception as exc:  # a broken adapter must not break the other commands
            from .cli_text import warning_line

            print(warning_line(Msg(N_("command {name} failed to load: {error}"), name=ep.name, error=repr(exc)),
                               argv), file=sys.stderr)
    return parser


def command_entry_points(argv: list[str] | None, core: set[str]) -> list[EntryPoint]:
    """The `unobot.commands` entry points that the command line `argv` needs.

    Why not always all: finding them reads a file of every installed package,
    and each loads its adapter's module; a bot pays both at every start. So a
    core command (`simulate`) needs none, a command of unobot's own adapters
    (`telegram`) needs its own entry only (one file read), and anything else
    (`--help`, a third party's command, a mistake to be told the choices)
    gets every installed package's.
    """
    wanted = argv[0] if argv and not argv[0].startswith("-") else None  # `unobot -h ...`: all
    if wanted in core:
        return []
    if wanted is not None:
        try:
            own = [ep for ep in distribution("unobot").entry_points
                   if ep.group == COMMANDS_GROUP and ep.name == wanted]
        except PackageNotFoundError:  # run from a source tree that is not installed
            own = []
        if own:
            return own
    return list(entry_points(group=COMMANDS_GROUP))


def main(argv: list[str] | None = None) -> int:
    import gc

    # Building the parser imports the modules of the commands it needs: objects
    # that live as long as the process, none of them garbage, so collecting
    # meanwhile is wasted time at every start (a bot command keeps collection
    # off until it is ready: unobot.adapters.startup).
    gc.disable()
    plain_text.install()  # a terminal that is not UTF-8 shows `*` for `●`, never a traceback
    try:
        args_list = sys.argv[1:] if argv is None else argv
        # Help and refusals in the reader's language (unobot.cli_text says how).
        with argparse_language(reader_of(args_list)):
            parser = build_parser(args_list or ["--help"])
            translate_parsers(parser)
            args = parser.parse_args(args_list)
            if not getattr(args, "func", None):
                parser.print_help()
                return 2
    finally:
        gc.enable()
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # `unobot rules | head`: the reader left, which is no error of ours
        return _reader_left()
    except KeyboardInterrupt:
        # Ctrl-C where a command has no stop of its own (a long `simulate`, a
        # bot still importing its libraries): the person asked for it, so no
        # traceback; 130 is how shells report a stop by SIGINT.
        print(file=sys.stderr)
        return 130


def _reader_left() -> int:
    """Point stdout at /dev/null, so that the flush at exit does not fail on
    the closed pipe again (the way the Python documentation advises)."""
    import os

    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 1


if __name__ == "__main__":
    sys.exit(main())
