"""A slip of the keyboard gets a "did you mean": the closest command, colour,
card name, plugin move or console word, when one clearly is; never played."""

from __future__ import annotations

import pexpect
import pytest

from unobot.adapters.console.input import parse_line
from unobot.cards import parse_card
from unobot.chat import commands as c
from unobot.chat.grammar import Refusal
from unobot.chat.i18n import gettext_for

from .helpers import PROMPT, clean, spawn

HAND = [parse_card(t) for t in ("R1", "Y7", "G2", "RS", "W")]


@pytest.mark.parametrize(("lang", "line", "meant"), [
    ("en", "drwa", "draw"),
    ("en", "chalenge", "challenge"),
    ("en", "yelow 7", "yellow 7"),
    ("en", "red sikp", "red skip"),
    ("en", "wlid green", "wild green"),
    ("en", "cacth Ada", "catch Ada"),
    ("en", "play yelow 7", "play yellow 7"),
    ("en", "hlep", "help"),            # the console's own words
    ("en", "qiut", "quit"),
    ("en", "toop week", "top week"),   # the records commands
    ("en", "knokc", "knock"),          # a plugin's move (the example plugin)
    ("es", "robr", "robar"),
    ("es", "amarilo 7", "amarillo 7"),
    ("es", "comodn verde", "comodín verde"),
    ("es", "desafar", "desafiar"),
    ("es", "ayda", "ayuda"),
    ("es", "clasificacon", "clasificación"),
])
def test_a_slip_is_answered_with_the_line_meant(lang: str, line: str, meant: str) -> None:
    said = parse_line(line, HAND, lang)
    assert isinstance(said, Refusal), said  # named, never played
    assert gettext_for(lang)("Did you mean {meant!r}?").format(meant=meant) in said.message, said.message


@pytest.mark.parametrize("line", ["fly away", "zzz", "grace", "yelow", "xy", "next"])  # next: no slip of exit
def test_no_guess_where_nothing_is_clearly_meant(line: str) -> None:
    said = parse_line(line, HAND, "en")
    assert isinstance(said, Refusal) and "Did you mean" not in said.message, said
    assert "help" in said.message


def test_the_console_says_it_at_the_prompt() -> None:
    child = spawn("--store", "memory", "--seed", "3")
    child.expect_exact(PROMPT)
    child.sendline("drwa")
    child.expect_exact(PROMPT)
    answer = clean(child.before)
    assert "Unknown command 'drwa'. Did you mean 'draw'?" in answer
    assert "drew" not in answer  # only said: nothing was drawn
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()


PLAYERS = ["Root", "Ada (AI)", "Ben"]
TARGETED = [parse_card(t) for t in ("R7", "W", "YDA", "BSA")]


@pytest.mark.parametrize(("lang", "line", "meant"), [
    ("en", "Blue Skip Everone", "Blue Skip everyone"),  # a plugin's card (the example plugin's Skip Everyone)
    ("en", "W grene", "W green"),
    ("es", "descarta todo amarilo", "descarta todo amarillo"),
])
def test_a_slip_read_as_a_player_nobody_is_gets_the_card_meant(lang: str, line: str, meant: str) -> None:
    """The words after a card that name no colour are its target: a slip there
    was sent, and the engine said only "No such player"."""
    said = parse_line(line, TARGETED, lang, None, PLAYERS)
    assert isinstance(said, Refusal) and said.code == "bad_player", said
    assert gettext_for(lang)("Did you mean {meant!r}?").format(meant=meant) in said.message


@pytest.mark.parametrize("line", ["R7 ben", "R7 ada", "R7 bne", "R7 zzz"])
def test_a_target_is_left_to_the_engine_unless_it_reads_as_a_slip(line: str) -> None:
    """A player named, even mistyped (`bne` is no slip of a colour on a Red 7):
    sent as typed, the engine finds the seat or says there is none."""
    said = parse_line(line, TARGETED, "en", None, PLAYERS)
    assert isinstance(said, c.Play) and said.card == "R7" and said.target == line.split()[1], said
