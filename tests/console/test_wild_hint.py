"""The console's hint and `help` follow the table: a wild names a colour only
where the engine offers it naming one.

Before, under random colour (the engine offers a wild naming no colour:
`RuleSet.wild_colour_named`, `Rule.wild_colours`) the hint still said "a wild
with a colour (3 red)" and `help` "play a wild and choose its colour", and
"draw and play" promised "a wild takes the colour you hold most"."""

from __future__ import annotations

import pexpect
import pytest

from tests.console.helpers import clean, spawn
from unobot.chat.i18n import gettext_for

NAMED = "Play a card: its number (3), or its name (Red 5, R5); a wild with a colour (3 red)."
PLAIN = "Play a card: its number (3), or its name (Red 5, R5)."


def screens(*args: str) -> tuple[str, str]:
    """The first turn's screen and `help`'s, of a game of seed 3 (Tess holds a playable wild)."""
    child = spawn("--store", "memory", "--seed", "3", "--name", "Tess", *args)
    child.expect("› ")
    first = clean(child.before)
    child.sendline("help")
    child.expect("› ")
    helped = clean(child.before)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    return first, helped


@pytest.mark.parametrize("rule", ["random-colour", "auto-colour"])
def test_a_rule_that_colours_wilds_takes_the_colour_out_of_the_hint(rule: str) -> None:
    first, helped = screens("--rule", f"{rule}=on")
    assert PLAIN in first and NAMED not in first, first[-1500:]
    assert "choose its colour" not in helped and "the colour you hold most" not in helped, helped
    assert "play a wild: the rules in play give it its colour" in helped


def test_where_the_player_names_it_the_hint_says_so_in_their_language() -> None:
    first, helped = screens()
    assert NAMED in first, first[-1500:]
    assert "play a wild and choose its colour (or be asked)" in helped
    es_first, _helped = screens("--rule", "random-colour=on", "--lang", "es")
    assert gettext_for("es")(PLAIN) in es_first and gettext_for("es")(NAMED) not in es_first
