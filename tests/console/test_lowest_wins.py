"""A console match under a rule that ranks the lowest score best
(progressive-scoring), in English and Spanish, through a pty: the intro and
the final scores' caption say how the match ends (reaching the target ends
it, the lowest total wins, not "first to N points wins"), and the final
scores list the winner first, then the others lowest total first."""

from __future__ import annotations

import re

import pexpect
import pytest

from tests.console.helpers import clean, spawn
from unobot.chat.i18n import gettext_for

ARGS = ("--auto", "--store", "memory", "--delay", "0", "--seed", "4", "--players", "3",
        "--rule", "progressive-scoring.target=60")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_lowest_wins_match_says_so_and_lists_the_lowest_first(lang: str) -> None:
    _ = gettext_for(lang)
    child = spawn(*ARGS, "--lang", lang)
    child.expect(pexpect.EOF, timeout=180)
    text = re.sub(r"[│╭╮╰╯─┬┴├┤┼]", " ", clean(child.before))
    text = " ".join(text.split())  # the caption wraps in the table's width
    ends = _("The match ends when someone reaches {n} points; the lowest total wins.").format(n=60)
    assert text.count(ends) >= 2, text[-1500:]  # the intro and the final scores' caption
    assert _("First to {n} points wins the match.").format(n=60) not in text
    final = text[text.rindex(_("Final scores")):]
    scores = [int(x) for x in re.findall(r"\b[123] \S+ \((?:AI|IA)\) (\d+) \d+", final)]
    assert len(scores) == 3 and scores == sorted(scores), final
