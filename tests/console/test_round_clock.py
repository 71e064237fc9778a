"""A round with a clock (blitz) says in the console how long it has left:
the status above the hand carries core's line ("⏱ Round ends in 3
minutes"), in the player's language; a round without a clock has none."""

from __future__ import annotations

import pytest

from tests.console.helpers import PROMPT, clean, spawn
from unobot.chat.i18n import gettext_for, ngettext_for

ARGS = ("--store", "memory", "--seed", "4", "--players", "2", "--rounds", "1")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_status_says_how_long_the_round_has_left(lang: str) -> None:
    child = spawn(*ARGS, "--rule", "blitz.minutes=3", "--lang", lang)
    child.expect(PROMPT)  # the first screen: the table's status, the hand, the prompt
    shown = clean(child.before)
    assert gettext_for(lang)("Your hand") in shown, shown
    line = "⏱ " + ngettext_for(lang)("Round ends in {n} minute", "Round ends in {n} minutes", 3).format(n=3)
    assert line in shown, shown
    child.close(force=True)


def test_a_round_without_a_clock_says_nothing_of_one() -> None:
    child = spawn(*ARGS)
    child.expect(PROMPT)
    shown = clean(child.before)
    assert "Your hand" in shown and "⏱" not in shown, shown
    child.close(force=True)
