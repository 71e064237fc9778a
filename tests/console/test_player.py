"""The console as a player expects it (issue 14), in English and in Spanish, through a pty.

Each test drives `unobot play` as a person would and reads the screen; the
Spanish runs check that a whole game needs no English word.
"""

from __future__ import annotations

import contextlib
import re
import termios
import time
from pathlib import Path

import pexpect
import pytest

from tests.support.redis_server import RedisServer
from unobot.cards import parse_card
from unobot.chat.i18n import gettext_for, ngettext_for
from unobot.chat.render import card_name
from unobot.chat.views import variant_title
from unobot.registry import available_rules

from .helpers import Player, clean, spawn

LANGS = ("en", "es")
BASE = ("--store", "memory", "--delay", "0", "--name", "Tess")


def _first_move(child: pexpect.spawn, lang: str) -> Player:
    player = Player(child, lang=lang)
    _ = gettext_for(lang)
    while (label := player.prompt()) is not None and not label.startswith(_("Your move")):
        player.send("")
    assert label is not None, player.output
    return player


def _entries(hand: str) -> list[tuple[int, bool, str]]:
    """(number, playable, name) of each card the hand shows."""
    found = re.findall(r"(\d+) ([●○]) +\S+ +(.+?)(?: ×\d+)?(?= {2,}|\n|$)", hand)
    return [(int(n), mark == "●", name.strip()) for n, mark, name in found]


def _ask(child: pexpect.spawn, line: str) -> str:
    child.sendline(line)
    child.expect("› ")
    return clean(child.before)


def _quit(child: pexpect.spawn) -> None:
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()


@pytest.mark.parametrize("lang", LANGS)
def test_cards_typed_as_shown_and_short(lang: str) -> None:
    _ = gettext_for(lang)
    child = spawn(*BASE, "--seed", "3", "--lang", lang)
    player = _first_move(child, lang)
    shown = _entries(player.hand)
    assert [n for n, _p, _name in shown] == list(range(1, len(shown) + 1))
    names = [name for _n, _p, name in shown]
    # sorted by colour (red, yellow, green, blue), then rank, wilds last
    deck = [c + r for c in "RYGB" for r in (*"0123456789", "S", "R", "+2")] + ["W", "W+4"]
    cards = {card_name(parse_card(t), lang): parse_card(t) for t in deck}
    order = "RYGB"
    keys = [order.index(cards[n].color) if cards[n].color else 9 for n in names]
    assert keys == sorted(keys), names
    assert _("you can play it now") in player.hand and _("not now") in player.hand  # the marks explained
    # `²` is not a number for int(): refused with a word, no traceback
    out = _ask(child, "²")
    assert "Traceback" not in out and "²" in out
    # an unplayable card typed by its shown name: the engine's refusal, not "unknown command"
    blocked = next(name for _n, playable, name in shown if not playable)
    out = _ask(child, blocked)
    assert _("Unknown command {word!r}. Type help to see the commands.").split("{")[0] not in out
    assert _("That card does not fit the top card.") in out or "✗" in out
    # a playable card typed as shown is played
    card = next(name for _n, playable, name in shown if playable and not cards[name].is_wild)
    assert _("{player} played {card}.").format(player="Tess", card=card) in _ask(child, card)
    _quit(child)


@pytest.mark.parametrize("lang", LANGS)
def test_short_form_of_each_language(lang: str) -> None:
    _ = gettext_for(lang)
    child = spawn(*BASE, "--seed", "3", "--lang", lang)
    player = _first_move(child, lang)
    shown = _entries(player.hand)
    name = next(name for _n, playable, name in shown if playable)
    card = next(parse_card(t) for t in ("Y1", "G1", "GS", "G+2", "W+4") if card_name(parse_card(t), lang) == name)
    letter = {"en": {"R": "r", "Y": "y", "G": "g", "B": "b"}, "es": {"R": "r", "Y": "a", "G": "v", "B": "az"}}[lang]
    rank = {"S": "s", "R": "r" if lang == "en" else "c"}.get(card.rank, card.rank)
    short = "w+4" if card.is_wild else letter[card.color or "R"] + rank
    out = _ask(child, short)
    if card.is_wild:
        out = _ask(child, _("green"))
    assert _("{player} played {card}.").format(player="Tess", card=name) in out
    _quit(child)


@pytest.mark.parametrize("lang", LANGS)
def test_log_rules_and_draw_and_play(lang: str) -> None:
    _ = gettext_for(lang)
    child = spawn(*BASE, "--seed", "5", "--lang", lang, "--rule", "scoring.target=100")
    player = _first_move(child, lang)
    banner = player.output
    assert _("First to {n} points wins the match.").format(n=100) in banner  # the option, not 500
    out = _ask(child, _("log"))
    assert _("Recent moves:") in out and _("Round {n} begins.").format(n=1) in out
    out = _ask(child, _("rules"))
    assert _("Rules in play: {variant}").format(variant=variant_title("official", lang)) in out
    # The option in words, in the reader's language: its help and its value, never `target=100`.
    scoring = available_rules()["scoring"]
    assert f"{scoring.option_help('target', lang)}: 100" in " ".join(out.split()) and "target=" not in out
    help_out = _ask(child, _("help"))
    assert _("draw, and play it if it fits (a wild takes the colour you hold most)") in help_out
    out = _ask(child, _("dp"))
    assert _("{player} drew a card.").format(player="Tess") in out and _("You drew:") in out
    _quit(child)


@pytest.mark.parametrize("lang", LANGS)
def test_banner_honours_rounds_and_play_again(lang: str) -> None:
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    child = spawn(*BASE, "--seed", "2", "--lang", lang, "--rounds", "1", "--players", "2", "--ai", "random")
    player = Player(child, lang=lang)
    out = player.play()
    child.close()
    assert child.exitstatus == 0, out[-2000:]
    ends = ngettext("The match ends after {n} round.", "The match ends after {n} rounds.", 1).format(n=1)
    assert out.count(ends) >= 2  # the banner and the scores' caption
    assert _("First to {n} points wins the match.").format(n=500) not in out
    assert _("Play again?") in out  # answered no by the player
    if lang == "es":
        assert "(IA)" in out and "(AI)" not in out
        assert "Intro" in out and "Enter" not in out
        for english in ("Wild", "Skip", "Reverse", "Draw Two", "Your ", " draw ", "Press"):
            assert english not in out, english


@pytest.mark.parametrize("lang", LANGS)
def test_narrow_terminal_wraps_between_parts(lang: str) -> None:
    _ = gettext_for(lang)
    child = spawn(*BASE, "--seed", "3", "--lang", lang, size=(20, 60))
    player = _first_move(child, lang)
    out = _ask(child, _("draw"))
    screen = player.output + out
    assert all(len(line) <= 60 for line in screen.splitlines()), [ln for ln in screen.splitlines() if len(ln) > 60]
    first = re.search(re.escape(_("The first card is {card}.")).replace(r"\{card\}", "(.+?)"), screen)
    assert first is not None
    top = first.group(1)
    assert any(top in line and _("Top card:") in line for line in screen.splitlines())  # not split
    drawn = re.search(_("You drew:") + r" +\S+ +(.+)", out)
    assert drawn is not None and drawn.group(1).strip() in {card_name(parse_card(t), lang) for t in (
        *(c + r for c in "RYGB" for r in ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")),
        "W", "W+4")}
    _quit(child)


@pytest.mark.parametrize("lang", (*LANGS, "fr"))
def test_help_reads_in_a_40_column_terminal(lang: str) -> None:
    """`help` in 40 columns: the commands' column (30 wide, never wrapped)
    left four columns to the explanations, printed a word or half a word
    ("pla…") a line. Each explanation now reads whole, words kept together."""
    from unobot.chat.typed_help import move_rows
    from unobot.variants import rules_for

    _ = gettext_for(lang)
    child = spawn(*BASE, "--seed", "3", "--lang", lang, "--variant", "crazy", size=(30, 40))
    _first_move(child, lang)
    out = _ask(child, _("help"))
    lines = [" ".join(line.split()) for line in out.splitlines()]
    assert all(len(line) <= 40 for line in out.splitlines())
    assert "…" not in out, out
    for _word, what in move_rows(lang, rules_for("crazy")):  # crazy's: no challenge rule, no challenge row
        start = " ".join(what.split()[:3])  # its first words on one line, not one a line
        assert any(line.startswith(start) for line in lines), (start, out)
    _quit(child)


@pytest.mark.parametrize("lang", (*LANGS, "fr"))
def test_rules_keep_their_indent_in_a_40_column_terminal(lang: str) -> None:
    """`rules` in 40 columns: an option's words that wrapped came back to the
    first column ("attente: oui" among the rules' titles). Every line but the
    title, the legend and the match's length is indented."""
    from unobot.chat.match_text import match_length

    _ = gettext_for(lang)
    child = spawn(*BASE, "--seed", "3", "--lang", lang, "--variant", "crazy", "--rounds", "1", size=(30, 40))
    _first_move(child, lang)
    out = _ask(child, _("rules"))
    body = [line.rstrip() for line in out.splitlines()[1:-1] if line.strip()]  # the line typed, the prompt
    unindented = [line for line in body if not line.startswith("  ")]
    title = _("Rules in play: {variant}").split("{variant}")[0]
    assert len(unindented) == 3 and unindented[0].startswith(title), unindented
    assert unindented[1:] == [_("+ house rule   · shared rule"), match_length(lang, rounds=1)], unindented
    assert all(len(line) <= 40 for line in out.splitlines())
    hint = _("To play with other rules, start a new game: {command} --variant NAME, "
             "--rule NAME=false or --rule NAME.OPTION=VALUE (unobot variants and unobot rules list them).")
    assert " ".join(hint.format(command="unobot play").split()) in " ".join(out.split())  # how to change them
    _quit(child)


@pytest.mark.parametrize("lang", LANGS)
def test_typing_while_the_others_move_is_not_echoed(lang: str) -> None:
    _ = gettext_for(lang)
    # Seeded: three AI players move after my card, a second apart. Typing once
    # the first of them has moved leaves two seconds of pauses to type into,
    # however late this process gets to it.
    child = spawn("--store", "memory", "--delay", "1", "--name", "Tess", "--seed", "3", "--lang", lang)
    player = _first_move(child, lang)
    name = next(name for _n, playable, name in _entries(player.hand) if playable)
    child.sendline(name)
    child.expect(r"\((AI|IA)\)", timeout=60)  # the first AI move's line, after the first pause
    child.send("zzzz")  # typed while the AI players move
    child.expect(_("Your move"), timeout=60)
    assert "zzzz" not in clean(child.before)
    child.expect("› ")
    out = _ask(child, _("table"))
    assert "zzzz" not in out and _("Unknown command {word!r}. Type help to see the commands.").split("{")[0] not in out
    _quit(child)


@pytest.mark.parametrize("lang", LANGS)
def test_auto_has_a_pace_by_default(lang: str) -> None:
    """Under --auto the AI players' moves come one by one, 0.4 s apart. What
    is timed is only what the program printed after everything it had
    printed so far was read: a test process that reads late (a loaded
    machine) sees more lines at once, never a shorter pace."""
    _ = gettext_for(lang)
    child = spawn("--store", "memory", "--auto", "--seed", "1", "--players", "2", "--lang", lang)
    child.expect(re.escape(_("Round {n} begins.").format(n=1)), timeout=60)
    played = re.escape(_("{player} played {card}.").split("{player}")[1].split("{card}")[0])
    with contextlib.suppress(pexpect.TIMEOUT):  # read all that is there now (kept for expect)
        while True:
            child.buffer = child.buffer + child.read_nonblocking(100_000, timeout=0)
    start = time.monotonic()
    for _i in range(len(re.findall(played, clean(child.buffer))) + 4):
        child.expect(played, timeout=60)
    # the last three of those four were each printed after a pause that began after `start`
    assert time.monotonic() - start >= 3 * 0.4 * 0.9
    child.sendline("")
    child.close(force=True)


@pytest.mark.parametrize("lang", LANGS)
def test_typing_shows_at_a_prompt_only_and_the_terminal_is_given_back(lang: str) -> None:
    """Typing is not shown while the others move, and the terminal shows it
    again when the program ends, by quit or by Ctrl-C in the middle of the
    others' moves."""
    _ = gettext_for(lang)

    def echo(child: pexpect.spawn) -> bool:  # the pty's settings, as the program left them
        return bool(termios.tcgetattr(child.child_fd)[3] & termios.ECHO)

    child = spawn(*BASE, "--seed", "3", "--lang", lang)
    _first_move(child, lang)  # (at a prompt readline echoes what is typed itself)
    child.sendline("q")
    child.expect(pexpect.EOF, timeout=60)
    assert echo(child)
    child.close()
    child = spawn("--store", "memory", "--auto", "--delay", "1", "--seed", "1", "--players", "2", "--lang", lang)
    child.expect(re.escape(_("Round {n} begins.").format(n=1)), timeout=60)
    assert not echo(child)  # the others move: what I type is not shown
    child.sendintr()
    child.expect(pexpect.EOF, timeout=60)
    assert echo(child) and "Traceback" not in child.before
    child.close()
    assert child.exitstatus in (0, 130)  # saved and left, wherever the Ctrl-C landed


def _run(*args: str, timeout: float = 60, **extra_env: str) -> tuple[int, str]:
    """`unobot play ARGS` in a pty to its end: the exit status and the screen."""
    child = spawn(*args, **extra_env)
    child.expect(pexpect.EOF, timeout=timeout)
    child.close()
    assert child.exitstatus is not None
    return child.exitstatus, clean(child.before)


@pytest.mark.parametrize("lang", LANGS)
def test_help_shows_ranges_and_defaults(lang: str) -> None:
    code, out = _run("--help", LANG="es_ES.UTF-8" if lang == "es" else "C")
    text = " ".join(out.split())
    _ = gettext_for(lang)
    assert code == 0
    assert "2-10" in text and "0.4" in text and "expert" in text
    # --rounds' default is the variant's own end (fast plays to 200, elimination has no target)
    assert " ".join(_("stop after N rounds (default: play the whole match, as the variant ends it)").split()) in text
    assert " ".join(_("players at the table, 2-10, you included (with --auto all AI); default 4").split()) in text
    assert text.startswith(_("usage: ") + "unobot play") and _("options") + ":" in text  # argparse's words too
    assert _("show this help and leave") in text
    if lang == "es":
        assert "usage" not in text and "show this help" not in text
    code, out = _run("--auto", "--store", "memory", "--players", "10", "--rounds", "1", "--delay", "0", "--seed", "1",
                     "--lang", lang, timeout=180)
    assert code == 0, out[-2000:]  # the range the help gives holds with --auto too
    assert _("A demo game: {players} play on their own.").split(":")[0] in out


#: Bad options and what the console says about them, word for word in each language.
OPTION_ERRORS: tuple[tuple[tuple[str, ...], dict[str, tuple[str, ...]]], ...] = (
    (("--rule", "deck.hand_size=200"), {
        "en": ("--rule: option 'hand_size' of rule 'deck' must be a whole number from 1 to 30, not 200",
               "fix: options of 'deck': hand_size: a whole number from 1 to 30 (default 7); decks:"),
        "es": ("--rule: la opción 'hand_size' de la regla 'deck' debe ser un número entero del 1 al 30, no 200",
               "solución: opciones de 'deck': hand_size: un número entero del 1 al 30 (por defecto 7); decks:")}),
    (("--rule", "deck.hand_size=0"), {
        "en": ("must be a whole number from 1 to 30, not 0",),
        "es": ("debe ser un número entero del 1 al 30, no 0",)}),
    (("--rule", "jump-in=maybe"), {
        "en": ("--rule jump-in=maybe: a rule is turned on or off with true or false, not 'maybe'",
               "fix: `--rule jump-in` turns it on, `--rule jump-in=false` turns it off"),
        "es": ("--rule jump-in=maybe: una regla se activa o desactiva con true o false, no con 'maybe'",
               "solución: `--rule jump-in` la activa, `--rule jump-in=false` la desactiva")}),
    (("--rule", "jump-in=0"), {
        "en": ("true or false, not '0'",),
        "es": ("true o false, no con '0'",)}),
    (("--rule", "nonsense=1"), {  # an unknown rule is said to be one, whatever its value
        "en": ("--rule: unknown rule 'nonsense'", "fix: known rules: auto-colour,"),
        "es": ("--rule: regla desconocida: 'nonsense'", "solución: reglas conocidas: auto-colour,")}),
    (("--rule", "stackng"), {
        "en": ("unknown rule 'stackng'", "fix: did you mean 'stacking'? known rules:"),
        "es": ("regla desconocida: 'stackng'", "solución: ¿querías decir 'stacking'? reglas conocidas:")}),
    (("--rule", "stacking.optional=maybe"), {
        "en": ("option 'optional' of rule 'stacking' must be true or false, not 'maybe'",),
        "es": ("la opción 'optional' de la regla 'stacking' debe ser true o false, no 'maybe'",)}),
    (("--rule", "deck.nope=1"), {
        "en": ("rule 'deck' has no option 'nope' (its options: hand_size, decks)",),
        "es": ("la regla 'deck' no tiene la opción 'nope' (sus opciones: hand_size, decks)",)}),
    (("--rule", "challenge", "--rule", "no-bluffing"), {  # hints in the console's spelling, not YAML
        "en": ("--rule: rule 'no-bluffing' conflicts with 'challenge': they cannot both be on",
               "fix: turn one off, e.g. `--rule challenge=false`"),
        "es": ("--rule: la regla 'no-bluffing' es incompatible con 'challenge': no pueden estar activas a la vez",
               "solución: desactiva una, p. ej. `--rule challenge=false`")}),
    (("--variant", "reglas-de-uno", "--rule", "challenge"), {  # the variant's rule is the one to turn off
        "en": ("--rule: rule 'no-bluffing' conflicts with 'challenge'", "`--rule no-bluffing=false`"),
        "es": ("--rule: la regla 'no-bluffing' es incompatible con 'challenge'", "`--rule no-bluffing=false`")}),
    (("--variant", "nope"), {
        "en": ("nope: unknown variant 'nope'", "fix: known variants:"),
        "es": ("nope: variante desconocida: 'nope'", "solución: variantes conocidas:")}),
    (("--players", "11"), {
        "en": ("--players must be between 2 and 10.",),
        "es": ("--players debe estar entre 2 y 10.",)}),
    (("--rounds", "0"), {
        "en": ("--rounds must be 1 or more.",),
        "es": ("--rounds debe ser 1 o más.",)}),
)
#: English that must not reach a Spanish player's screen in these errors.
ENGLISH = ("fix:", "must be", "unknown", "rule '", "option '", "known rules", "conflicts", "turn one off",
           "turns it", "did you mean", "usage", "argument", "invalid")


@pytest.mark.parametrize("lang", LANGS)
def test_option_errors_say_what_to_fix(lang: str) -> None:
    """Bad options stop at once with what to fix, in the player's language,
    never a traceback: bounds on rule options, on/off values checked, unknown
    rules and variants, conflicts with the console's spelling in the hint."""
    _ = gettext_for(lang)
    for args, parts in OPTION_ERRORS:
        code, out = _run("--store", "memory", "--auto", "--lang", lang, *args)
        text = " ".join(out.split())
        assert code == 2, (args, text)
        assert text.startswith(_("error:")) and "Traceback" not in text, text
        for part in parts[lang]:
            assert part in text, (args, part, text)
        if lang == "es":
            assert not [w for w in ENGLISH if w in text], (args, text)
    # LANG alone chooses the language too
    code, out = _run("--store", "memory", "--auto", "--rule", "jump-in=maybe", LANG="es_ES.UTF-8")
    assert code == 2 and "una regla se activa o desactiva con true o false" in " ".join(out.split())


#: argparse's own refusals: the usage line and the message, in the player's language.
ARGPARSE_ERRORS: tuple[tuple[tuple[str, ...], dict[str, str]], ...] = (
    (("--players", "abc"), {"en": "unobot play: error: argument --players: 'abc' is not a whole number",
                            "es": "unobot play: error: argumento --players: 'abc' no es un número entero"}),
    (("--delay", "soon"), {"en": "argument --delay: 'soon' is not a number",
                           "es": "argumento --delay: 'soon' no es un número"}),
    (("--players",), {"en": "unobot play: error: argument --players: expected one argument",
                      "es": "unobot play: error: argumento --players: falta su valor"}),
    (("--bogus", "x"), {"en": "unobot play: error: unrecognized arguments: --bogus x",
                        "es": "unobot play: error: argumentos no reconocidos: --bogus x"}),
    (("--ai", "genius"), {"en": "argument --ai: 'genius' is not an AI level (easy, normal, hard, expert)",
                          "es": "argumento --ai: 'genius' no es un nivel de la IA (fácil, normal, difícil, experto)"}),
)


@pytest.mark.parametrize("lang", LANGS)
def test_argparse_refusals_in_the_players_language(lang: str) -> None:
    """What argparse itself says (a value that is not a number, an option
    without its value, an unknown option, a choice not offered) is in the
    language `--lang` asks for, wherever `--lang` stands, usage line included."""
    _ = gettext_for(lang)
    for args, message in ARGPARSE_ERRORS:
        # `--players --lang es` would take --lang for the missing value: that one --lang first only
        orders = [("--lang", lang, *args)] + ([(*args, "--lang", lang)] if len(args) > 1 else [])
        for order in orders:
            code, out = _run("--store", "memory", *order)
            text = " ".join(out.split())
            assert code == 2 and "Traceback" not in text, (order, text)
            assert text.startswith(_("usage: ") + "unobot play"), (order, text)
            assert message[lang] in text, (order, message[lang], text)
            if lang == "es":
                assert not [w for w in ("usage", "argument ", "invalid", "unrecognized", "expected", "choose")
                            if w in text], (order, text)
    code, out = _run("--players", "abc", LANG="es_ES.UTF-8")  # LANG alone, no --lang
    assert code == 2 and "argumento --players: 'abc' no es un número entero" in " ".join(out.split())


@pytest.mark.parametrize("lang", LANGS)
def test_resume_restores_language_and_rounds(lang: str, tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis").start()  # a server that cannot start fails the test
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    try:
        first = spawn("--store", server.url, "--seed", "5", "--delay", "0", "--name", "Tess", "--lang", lang,
                      "--rounds", "1")
        _first_move(first, lang)
        _quit(first)
        saved = " ".join(clean(first.before).split())  # the hint needs no --lang: resume restores it
        assert _("Game saved. Continue it with: {command} --resume").format(command="unobot play") in saved
        assert "--lang" not in saved
        second = spawn("--store", server.url, "--resume", "--delay", "0", "--name", "Tess")  # no --lang
        second.expect(re.escape(_("Welcome back: your game of {variant}, round {n}.").format(
            variant=variant_title("official", lang), n=1)))
        player = _first_move(second, lang)
        out = player.play(pending=_("Your move"))
        second.close()
        assert ngettext("After {n} round, {player} wins with {points} points!",
                        "After {n} rounds, {player} wins with {points} points!", 1).split("{")[0] in out
        # a saved game refused is said to be gone
        third = spawn("--store", server.url, "--seed", "5", "--delay", "0", "--name", "Tess", "--lang", lang)
        _first_move(third, lang)
        _quit(third)
        fourth = spawn("--store", server.url, "--seed", "5", "--delay", "0", "--name", "Tess", "--lang", lang)
        fourth.expect(re.escape(_("[Y/n]")))
        fourth.sendline("n")
        fourth.expect(re.escape(_("The saved game is deleted; a new one starts.")))
        fourth.expect("› ")
        _quit(fourth)
    finally:
        server.stop()
