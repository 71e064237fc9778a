"""Variants: YAML files that name the rules a game enables and their options.

    name: party
    extends: official
    title: {en: Party, es: Fiesta}
    rules:
      stacking: {draw_four_on_draw_two: true}
      seven-o: {}
      challenge: false

`extends` merges onto a parent: a rule's options merge key by key, `false`
turns a rule off, `{}` / `true` / nothing turns it on with its defaults.
Base rules (the ones every game shares) are on unless turned off.

A broken variant is refused with a `VariantError` that names the file, the
line and what is allowed; never a traceback. Overrides (a chat's house
rules, a scenario's `rules:`) go through the same merge and checks.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .chat.i18n import N_, Joined, Msg, catalogue_text, gettext_for
from .registry import available_rules
from .rule import OptionError, Rule, build_options
from .ruleset import RuleSet


def _shipped_dir() -> Path:
    """The folder of the shipped variants: `variants/` in a clone, the
    package `unobot.variant_files` when installed from a wheel."""
    from . import variant_files

    return Path(variant_files.__file__).resolve().parent


VARIANTS_DIR = _shipped_dir()


class VariantError(ValueError):
    """A variant (or overrides) that cannot be used, with where and how to fix it.

    The message and the fix are kept as `Msg`s (an English template and its
    parameters): `text(lang)` renders the whole error for one reader (a
    Spanish player at the console), while `str()`, `message` and `fix` stay
    English (logs, an admin's terminal)."""

    def __init__(self, source: str, line: int | None, message: str | Msg, fix: str | Msg = "", *,
                 kind: str = "", rules: tuple[str, ...] = ()) -> None:
        self.source = source
        self.line = line
        #: What kind of error, for callers that answer it their own way: "conflict"
        #: and "requires" (rules = the rule that says so, the other), "option"
        #: (rules = the rule), "unknown_rule", "missing" (a saved game's rule no
        #: longer installed; rules = the rule); "" for the rest.
        self.kind = kind
        self.rules = rules
        self.msg = message if isinstance(message, Msg) else Msg.plain(message)
        self.fix_msg = fix if isinstance(fix, Msg) else Msg.plain(fix) if fix else None
        super().__init__(self.text())

    @property
    def message(self) -> str:
        """What is wrong, in English."""
        return self.msg.text()

    @property
    def fix(self) -> str:
        """How to fix it, in English ("" when there is nothing to say)."""
        return self.fix_msg.text() if self.fix_msg else ""

    @property
    def where(self) -> str:
        """`file:line`, or the file (or `--rule`, `overrides`) alone."""
        return f"{self.source}:{self.line}" if self.line else self.source

    def text(self, lang: str | None = None, *, fix: bool = True) -> str:
        """`where: message` and, on its own line, the fix, in `lang` (None: English)."""
        out = f"{self.where}: {self.msg.text(lang)}"
        if fix and self.fix_msg:
            label = gettext_for(lang)(FIX) if lang else FIX
            out += f"\n  {label} {self.fix_msg.text(lang)}"
        return out


#: The label of an error's second line, the fix.
FIX = N_("fix:")


@dataclass
class Variant:
    name: str
    source: str
    title: dict[str, str] = field(default_factory=dict)
    description: dict[str, str] = field(default_factory=dict)
    #: rule name -> raw options dict (enabled) or False (turned off)
    rules: dict[str, dict[str, Any] | bool] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    parent: str | None = None
    #: Rules asked first on a hook they share, in this order (`order:`).
    order: list[str] = field(default_factory=list)
    #: The line of `extends` in the file (an unknown parent is reported there).
    parent_line: int | None = None
    #: The catalogue of the plugin package the file is in, (domain, locale
    #: folder), where `unobot i18n extract PACKAGE` put its title and
    #: description; None for a file in no such package (`package_catalogue`).
    catalogue: tuple[str, str] | None = None

    def label(self, lang: str = "en") -> str:
        """The title in `lang`: the file's own entry, else its English title
        through unobot's catalogue or its package's, else the variant's name."""
        return self._text(self.title, lang) or self.name

    def describe(self, lang: str = "en") -> str:
        """The description in `lang`, the same way (empty when the file has none)."""
        return self._text(self.description, lang)

    def _text(self, texts: dict[str, str], lang: str) -> str:
        if lang in texts:
            return texts[lang]
        english = texts.get("en", "")
        if not english or lang == "en":
            return english
        said = gettext_for(lang)(english)
        if said == english and self.catalogue is not None:
            said = catalogue_text(*self.catalogue, english, lang)
        return said


# -- YAML with line numbers ---------------------------------------------------

#: libyaml's parser where PyYAML has it (ten times faster: a bot reads its
#: config and default variant at every start), the pure-Python one otherwise.
_FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _to_python(node: yaml.Node, lines: dict[tuple[str, ...], int], path: tuple[str, ...],
               loader: yaml.SafeLoader) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _to_python(key_node, {}, (), loader)
            out[key] = _to_python(value_node, lines, (*path, str(key)), loader)
            lines[(*path, str(key))] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_to_python(v, lines, (*path, str(i)), loader) for i, v in enumerate(node.value)]
    return loader.construct_object(node)


def load_yaml_with_lines(text: str, source: str) -> tuple[Any, dict[tuple[str, ...], int]]:
    """Parse YAML; return the data and a map from key paths to line numbers."""
    try:
        try:
            node = yaml.compose(text, Loader=_FAST_LOADER)
        except yaml.YAMLError:
            node = yaml.compose(text, Loader=yaml.SafeLoader)  # the error as PyYAML words it
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise VariantError(source, line, Msg(N_("this is not valid YAML: {problem}"), problem=problem),
                           Msg(N_("check the indentation and the `key: value` form near that line"))) from None
    if node is None:
        return None, {}
    lines: dict[tuple[str, ...], int] = {}
    loader = yaml.SafeLoader("")  # one per document: it keeps every node it builds
    try:
        data = _to_python(node, lines, (), loader)
    except yaml.YAMLError as exc:
        raise VariantError(source, node.start_mark.line + 1,
                           Msg(N_("unreadable YAML value: {problem}"), problem=str(exc))) from None
    finally:
        loader.dispose()
    return data, lines


# -- finding and reading variants ---------------------------------------------

#: Folders added by configuration (`variants.path` in config.yaml), searched
#: before the plugins' and the shipped ones.
CONFIGURED: list[Path] = []
#: The entry-point group through which a plugin package publishes variants:
#: `my-variants = "my_package.variants"`, a module (or package) whose folder
#: holds the YAML files.
VARIANTS_GROUP = "unobot.variants"
NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
#: Variant files larger than this are refused unread (a variant is a page of YAML).
MAX_BYTES = 64 * 1024


def set_configured_path(folders: list[str | Path]) -> None:
    """The `variants.path` folders of config.yaml (the core config calls this)."""
    CONFIGURED[:] = [Path(f) for f in folders]
    _variant_cache.clear()
    _ruleset_cache.clear()


@cache
def _plugin_folders() -> tuple[Path, ...]:
    from importlib import import_module
    from importlib.metadata import entry_points

    found = []
    for ep in entry_points(group=VARIANTS_GROUP):
        try:
            module = import_module(ep.value.split(":")[0])
            file = getattr(module, "__file__", None)
            if file:
                found.append(Path(file).resolve().parent)
        except Exception as exc:  # a broken plugin package must not break the bot
            import logging

            logging.getLogger(__name__).warning("variants of %s failed to load: %r", ep.name, exc)
    return tuple(found)


def search_path() -> list[Path]:
    extra = [Path(p) for p in os.environ.get("UNOBOT_VARIANTS_PATH", "").split(os.pathsep) if p]
    return [*extra, *CONFIGURED, *_plugin_folders(), VARIANTS_DIR]


def variant_names() -> list[str]:
    names: set[str] = set()
    for folder in search_path():
        if folder.is_dir():
            names.update(p.stem for p in folder.glob("*.yaml") if NAME_RE.fullmatch(p.stem))
    return sorted(names)


def known_variant(name: str) -> str:
    """`name` if it is the name of a variant the bot knows, else VariantError.

    What a chat may ask for: a name from the search path, never a path (a
    chat must not make the bot read files of its choosing)."""
    if not isinstance(name, str) or not NAME_RE.fullmatch(name) or name not in variant_names():
        shown = name[:40] + ("…" if len(name) > 40 else "") if isinstance(name, str) else repr(name)
        raise VariantError(shown, None, Msg(N_("unknown variant {name}"), name=repr(shown)),
                           Msg(N_("known variants: {names}"), names=", ".join(variant_names())))
    return name


def find_variant(name: str) -> Path:
    if name.endswith((".yaml", ".yml")) or os.sep in name:
        path = Path(name)
        try:
            if path.is_file():
                return path
        except OSError:  # a name too long for the file system
            pass
        raise VariantError(name[:80], None, Msg(N_("no such variant file")),
                           Msg(N_("give an existing path or a variant name")))
    if not NAME_RE.fullmatch(name):
        raise VariantError(name[:80], None, Msg(N_("{name} is not a variant name"), name=repr(name[:40])),
                           Msg(N_("a variant name is lower-case letters, digits, - and _ (at most 64)")))
    for folder in search_path():
        path = folder / f"{name}.yaml"
        if path.is_file():
            return path
    known = variant_names()
    close = difflib.get_close_matches(name, known, n=1)
    raise VariantError(name, None, Msg(N_("unknown variant {name}"), name=repr(name)),
                       _known(N_("known variants: {names}"), known, close))


_variant_cache: dict[str, tuple[float, Variant]] = {}


def load_variant(name: str) -> Variant:
    """Read and check one variant file (not yet merged with its parent)."""
    path = find_variant(name)
    mtime = path.stat().st_mtime
    cached = _variant_cache.get(str(path))
    if cached and cached[0] == mtime:
        return cached[1]
    source = str(_display(path))
    if path.stat().st_size > MAX_BYTES:
        raise VariantError(source, None, Msg(N_("the file is larger than {n} KB"), n=MAX_BYTES // 1024),
                           Msg(N_("a variant names rules and options: keep it to a page of YAML")))
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        raise VariantError(source, line, Msg(N_("the file is not UTF-8 text")),
                           Msg(N_("save it as UTF-8 (any editor's default)"))) from None
    variant = parse_variant(text, source, default_name=path.stem)
    variant.catalogue = package_catalogue(path)
    _variant_cache[str(path)] = (mtime, variant)
    return variant


def package_catalogue(path: Path) -> tuple[str, str] | None:
    """The catalogue a variant file's title and description were extracted
    to: `unobot i18n extract PACKAGE` writes `PACKAGE/locale/<lang>/
    LC_MESSAGES/<package name>.po` for every variant file under PACKAGE, so
    the nearest folder above the file that holds a `locale/` folder, with its
    own name as the domain (None: none within three folders up).

    Why: a plugin's variant named in a language its file does not spell out
    was shown in English, although its catalogue had the translation."""
    for folder in list(path.resolve().parents)[:3]:
        if (folder / "locale").is_dir():
            return folder.name, str(folder / "locale")
    return None


def _display(path: Path) -> Path:
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path


_TOP_KEYS = {"name", "title", "description", "extends", "rules", "order"}


def parse_variant(text: str, source: str, default_name: str = "") -> Variant:
    data, lines = load_yaml_with_lines(text, source)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise VariantError(source, 1, Msg(N_("a variant is a mapping with `name`, `extends` and `rules`")),
                           Msg(N_("start the file with `name: my-variant`")))
    for key in data:
        if key not in _TOP_KEYS:
            raise VariantError(source, lines.get((str(key),)), Msg(N_("unknown key {key}"), key=repr(key)),
                               Msg(N_("allowed keys: {keys}"), keys=", ".join(sorted(_TOP_KEYS))))
    name = data.get("name") or default_name
    if not isinstance(name, str):
        raise VariantError(source, lines.get(("name",)), Msg(N_("`name` must be a text")),
                           Msg(N_("write `name: my-variant`")))
    parent = data.get("extends")
    if parent is not None and not isinstance(parent, str):
        raise VariantError(source, lines.get(("extends",)), Msg(N_("`extends` names one variant")),
                           Msg(N_("write `extends: official`")))
    title = _texts(data.get("title"), source, lines, "title")
    description = _texts(data.get("description"), source, lines, "description")
    raw_rules = data.get("rules") or {}
    rules, rule_lines = check_rules(raw_rules, source, lines, ("rules",))
    order = data.get("order") or []
    known = available_rules()
    if not isinstance(order, list) or not all(isinstance(o, str) for o in order):
        raise VariantError(source, lines.get(("order",)), Msg(N_("`order` lists rule names")),
                           Msg(N_("write `order: [my-rule, stacking]`: the first is asked first")))
    for i, rule in enumerate(order):
        if rule not in known:
            raise VariantError(source, lines.get(("order", str(i)), lines.get(("order",))),
                               Msg(N_("unknown rule {name} in `order`"), name=repr(rule)),
                               _known(N_("known rules: {names}"), sorted(known), difflib.get_close_matches(
                                   str(rule), list(known), n=1)))
    return Variant(name, source, title, description, rules, rule_lines, parent, list(order),
                   lines.get(("extends",)))


def variant_texts(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """A variant file's `title` and `description` ({lang: text} each), read
    without checking its rules.

    Why: `unobot i18n extract` collects a plugin's variant texts before the
    plugin is installed (the tutorial extracts in step 4 and installs in
    step 8), when its rules are still unknown names; a whole `load_variant`
    then failed and the texts were dropped from the catalogue without a
    word. Raises VariantError for a file that is no variant at all."""
    source = str(_display(path))
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        raise VariantError(source, None, Msg(N_("the file is not UTF-8 text")),
                           Msg(N_("save it as UTF-8 (any editor's default)"))) from None
    data, lines = load_yaml_with_lines(text, source)
    if not isinstance(data, dict):
        return {}, {}
    return (_texts(data.get("title"), source, lines, "title"),
            _texts(data.get("description"), source, lines, "description"))


def _texts(value: Any, source: str, lines: dict[tuple[str, ...], int], key: str) -> dict[str, str]:
    if value is None:
        return {}
    if isinstance(value, str):
        return {"en": value}
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return {str(k): v for k, v in value.items()}
    raise VariantError(source, lines.get((key,)),
                       Msg(N_("`{key}` must be a text or a map of language to text"), key=key),
                       Msg(N_("write `{key}: {{en: ..., es: ...}}`"), key=key))


def check_rules(raw: Any, source: str, lines: dict[tuple[str, ...], int],
                base: tuple[str, ...]) -> tuple[dict[str, dict[str, Any] | bool], dict[str, int]]:
    """Validate a `rules:` mapping: known rule names, known options of the right type."""
    if not isinstance(raw, dict):
        raise VariantError(source, lines.get(base), Msg(N_("`rules` must map rule names to options")),
                           Msg(N_("write `rules: {{stacking: {{optional: true}}}}`")))
    known = available_rules()
    out: dict[str, dict[str, Any] | bool] = {}
    where: dict[str, int] = {}
    for name, value in raw.items():
        line = lines.get((*base, str(name)))
        name = str(name)
        if name not in known:
            raise unknown_rule(name, source, line)
        if value is None or value is True:
            value = {}
        if value is False:
            out[name] = False
            where[name] = line or 0
            continue
        if not isinstance(value, dict):
            raise VariantError(source, line, Msg(N_("rule '{rule}' takes a mapping of options, true or false"),
                                                 rule=name),
                               Msg(N_("write `{rule}: {{}}` to turn it on, `{rule}: false` to turn it off"),
                                   rule=name))
        try:
            build_options(known[name], value)
        except OptionError as exc:
            raise VariantError(source, lines.get((*base, name, exc.option), line), exc.msg,
                               option_fix(known[name], exc.option), kind="option", rules=(name,)) from None
        out[name] = dict(value)
        where[name] = line or 0
    return out, where


def unknown_rule(name: str, source: str, line: int | None = None) -> VariantError:
    """The error for a rule name nobody installed (or whose plugin failed to
    load), with the closest known name and the list of them."""
    from .registry import broken_rules

    broken = broken_rules().get(name)
    if broken:
        return VariantError(source, line, Msg(N_("rule '{rule}' is not available: its plugin failed to load "
                                                 "({error})"), rule=name, error=broken),
                            Msg(N_("reinstall or fix the plugin, or turn the rule off")))
    known = available_rules()
    return VariantError(source, line, Msg(N_("unknown rule '{rule}'"), rule=name),
                        _known(N_("known rules: {names}"), sorted(known),
                               difflib.get_close_matches(name, list(known), n=1)),
                        kind="unknown_rule", rules=(name,))


def _known(msgid: str, names: list[str], close: list[str]) -> Msg:
    """`did you mean 'x'? known ...: a, b, c`."""
    listed = Msg(msgid, names=", ".join(names))
    if not close:
        return listed
    return Msg(N_("did you mean {name}? {known}"), name=repr(close[0]), known=listed)


def _as_typed(value: object) -> str:
    """A default as a person writes it in `--rule` or YAML: `true`, not Python's
    `True` (the hint said "true or false (default True)")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def option_fix(rule: type[Rule], given: str | None = None) -> Msg:
    """Every option of a rule with what it takes and its default: the fix of
    an option error; led by the closest option when `given` names none
    (`stacking.optinal`: did you mean 'optional'?), as an unknown rule is."""
    from .rule import option_specs

    specs = option_specs(rule)
    parts = [Msg(N_("{option}: {kind} (default {default})"), option=o.name, kind=o.describe_msg(),
                 default=_as_typed(o.default)) for o in specs]
    if not parts:
        return Msg(N_("rule '{rule}' has no options"), rule=rule.name)
    listed = Msg(N_("options of '{rule}': {options}"), rule=rule.name, options=Joined(parts, "; "))
    names = [o.name for o in specs]
    close = difflib.get_close_matches(given, names, n=1) if given is not None and given not in names else []
    return Msg(N_("did you mean {name}? {known}"), name=repr(close[0]), known=listed) if close else listed


# -- resolving ------------------------------------------------------------------

@dataclass
class Resolved:
    """A variant merged with its parents and overrides: rule -> options dict."""

    name: str
    rules: dict[str, dict[str, Any]]
    sources: dict[str, tuple[str, int]]
    order: list[str] = field(default_factory=list)
    #: Rules turned off because an enabled rule replaces them: {replaced: by}.
    replaced: dict[str, str] = field(default_factory=dict)


def merge_rules(into: dict[str, dict[str, Any] | bool], new: dict[str, dict[str, Any] | bool]) -> None:
    for name, value in new.items():
        if value is False:
            into[name] = False
        else:
            old = into.get(name)
            merged = dict(old) if isinstance(old, dict) else {}
            merged.update(value if isinstance(value, dict) else {})
            into[name] = merged


def resolve(name: str, overrides: dict[str, Any] | None = None,
            overrides_source: str = "overrides") -> Resolved:
    chain: list[Variant] = []
    seen: set[str] = set()
    current: str | None = name
    child: Variant | None = None
    while current is not None:
        try:
            variant = load_variant(current)
        except VariantError as exc:
            if child is None or exc.source != current:
                raise
            # The parent itself cannot be found: said at the `extends` line of
            # the file that names it (the parent's name alone says not where).
            raise VariantError(child.source, child.parent_line, exc.msg, exc.fix_msg or "") from None
        child = variant
        if variant.source in seen:
            raise VariantError(variant.source, None, Msg(N_("`extends` loops back on itself")),
                               Msg(N_("make the chain of `extends` end at a variant without one")))
        seen.add(variant.source)
        chain.append(variant)
        current = variant.parent
    merged: dict[str, dict[str, Any] | bool] = {}
    sources: dict[str, tuple[str, int]] = {}
    for variant in reversed(chain):
        merge_rules(merged, variant.rules)
        for rule, line in variant.lines.items():
            sources[rule] = (variant.source, line)
    if overrides:
        checked, lines = check_rules(overrides, overrides_source, {}, ())
        merge_rules(merged, checked)
        for rule in checked:
            sources[rule] = (overrides_source, lines.get(rule, 0))
    known = available_rules()
    final: dict[str, dict[str, Any]] = {}
    for rule_name, cls in known.items():
        value = merged.get(rule_name, {} if cls.base else False)
        if value is not False:
            final[rule_name] = value if isinstance(value, dict) else {}
    replaced: dict[str, str] = {}
    for rule_name in list(final):
        for other in known[rule_name].replaces:
            if other in final:
                replaced[other] = rule_name
    for other in replaced:
        final.pop(other, None)
    _check_relations(final, sources, known, overrides_source)
    order: list[str] = []
    for variant in chain:  # the nearest variant that states an order wins
        if variant.order:
            order = variant.order
            break
    return Resolved(chain[0].name, final, sources, [r for r in order if r in final], replaced)


#: The overrides source of `unobot play --rule` (and `simulate`): its hints are
#: spelled as the command line takes them, not as YAML.
COMMAND_LINE = "--rule"


def _check_relations(final: dict[str, dict[str, Any]], sources: dict[str, tuple[str, int]],
                     known: dict[str, type[Rule]], overrides_source: str) -> None:
    console = overrides_source == COMMAND_LINE
    for name in final:
        cls = known[name]
        source, line = sources.get(name, ("(base rules)", 0))
        for other in cls.conflicts:
            if other in final:
                # Reported where the person set one of them (their --rule rather than the
                # variant's file), and the rule they did not ask for offered to turn off.
                theirs = sources.get(other, ("(base rules)", 0))
                off = other
                if theirs[0] == overrides_source and source != overrides_source:
                    source, line, off = theirs[0], theirs[1], name
                raise VariantError(source, line or None,
                                   Msg(N_("rule '{rule}' conflicts with '{other}': they cannot both be on"),
                                       rule=name, other=other),
                                   Msg(N_("turn one off, e.g. `--rule {rule}=false`"), rule=off) if console
                                   else Msg(N_("turn one off, e.g. `{rule}: false`"), rule=off),
                                   kind="conflict", rules=(name, other))
        for other in cls.requires:
            if other not in final:
                # A rule nobody installed cannot be turned on: that advice
                # would only lead to "unknown rule" (a plugin's `requires` typo,
                # or the plugin that has it missing).
                fix = Msg(N_("reinstall or fix the plugin, or turn the rule off")) if other not in known \
                    else Msg(N_("turn it on: `--rule {rule}`"), rule=other) if console \
                    else Msg(N_("turn it on: `{rule}: {{}}`"), rule=other)
                raise VariantError(source, line or None,
                                   Msg(N_("rule '{rule}' needs rule '{other}'"), rule=name, other=other),
                                   fix, kind="requires", rules=(name, other))


_ruleset_cache: dict[tuple[str, str], RuleSet] = {}


def _key(overrides: dict[str, Any] | None) -> str:
    if not overrides:
        return ""
    import json

    return json.dumps(overrides, sort_keys=True)


def rules_for(variant: str, overrides: dict[str, Any] | None = None) -> RuleSet:
    """The compiled RuleSet of a variant with overrides (cached)."""
    key = (variant, _key(overrides))
    rules = _ruleset_cache.get(key)
    if rules is None:
        resolved = resolve(variant, overrides)
        known = available_rules()
        names = [n for n in resolved.rules if n not in resolved.order]
        names += list(reversed(resolved.order))  # pluggy asks the last registered first
        enabled = [(known[n], build_options(known[n], resolved.rules[n])) for n in names]
        rules = RuleSet(resolved.name, enabled)
        rules.resolved = resolved
        rules.spec = [[n, _non_default(known[n], resolved.rules[n])] for n in names]
        _ruleset_cache[key] = rules
    return rules


def _non_default(rule: type[Rule], options: dict[str, Any]) -> dict[str, Any]:
    """The options that differ from the rule's defaults (what a game saves)."""
    from .rule import option_specs

    defaults = {o.name: o.default for o in option_specs(rule)}
    return {k: v for k, v in options.items() if defaults.get(k, object()) != v}


_spec_cache: dict[str, RuleSet] = {}


def rules_from_spec(variant: str, spec: list[list[Any]]) -> RuleSet:
    """The RuleSet a game was started with, from the rules and options it
    saved (`RuleSet.spec`), whatever the variant's file says today: a game
    keeps its rules to its end. A rule that is no longer installed is a
    VariantError naming it."""
    import json

    key = json.dumps([variant, spec], sort_keys=True)
    rules = _spec_cache.get(key)
    if rules is None:
        known = available_rules()
        enabled = []
        for name, options in spec:
            if name not in known:
                from .registry import broken_rules

                why = broken_rules().get(name)
                raise VariantError(variant, None, Msg(N_("this game's rule '{rule}' is not available: its plugin "
                                                         "failed to load ({error})"), rule=name, error=why)
                                   if why else Msg(N_("this game's rule '{rule}' is not available"), rule=name),
                                   Msg(N_("install the plugin again, or stop the game")),
                                   kind="missing", rules=(name,))
            enabled.append((known[name], build_options(known[name], options)))
        rules = RuleSet(variant, enabled)
        rules.spec = spec
        if len(_spec_cache) > 256:
            _spec_cache.clear()
        _spec_cache[key] = rules
    return rules


def clear_caches() -> None:
    _spec_cache.clear()
    _ruleset_cache.clear()
    _variant_cache.clear()
