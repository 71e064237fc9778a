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
    assert _("Rules in play: {variant}").format(variant=variant_title("official", lang)) in out and "target=100" in out
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
    assert "2-10" in text and "0.4" in text and "strong" in text and "500" in text
    assert " ".join(_("players at the table, 2-10, you included (with --auto all AI); default 4").split()) in text
    assert text.startswith(_("usage: ") + "unobot play") and _("options") + ":" in text  # argparse's words too
    assert _("show this help and leave") in text
    if lang == "es":
        assert "usage" not in text and "show this help" not in text
    code, out = _run("--auto", "--store", "memory", "--players", "10", "--rounds", "1", "--delay", "0", "--seed", "1",
                     "--lang", lang, timeout=180)
    assert code == 0, out[-2000:]  # the range the help gives holds with --auto too
    assert _("A demo game: {players} play on their own.").split(":")[0] in out


@pytest.mark.parametrize("lang", LANGS)
def test_option_errors_say_what_to_fix(lang: str) -> None:
    """Bad options stop at once with what to fix, never a traceback: bounds on
    rule options, on/off values checked, the console's spelling in hints."""
    _ = gettext_for(lang)
    for args, parts in (
        (("--rule", "deck.hand_size=200"), ("hand_size", "from 1 to 30", "not 200")),
        (("--rule", "deck.hand_size=0"), ("hand_size", "from 1 to 30", "not 0")),
        (("--rule", "jump-in=maybe"), ("true or false", "--rule jump-in=false", "not 'maybe'")),
        (("--rule", "jump-in=0"), ("true or false", "not '0'")),
        (("--rule", "no-bluffing"), ("conflicts with 'challenge'", "--rule challenge=false")),
        (("--players", "11"), (_("--players must be between 2 and {n}.").format(n=10),)),
        (("--rounds", "0"), (_("--rounds must be 1 or more."),)),
    ):
        code, out = _run("--store", "memory", "--auto", "--lang", lang, *args)
        text = " ".join(out.split())
        assert code == 2, (args, text)
        assert text.startswith(_("error:")) and "Traceback" not in text, text
        assert all(part in text for part in parts), (args, text)


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
