"""A plugin's draw card stacks as the built-in ones do.

`stacking` and `value-stacking` named the built-in ranks (`+2`, `+4`), so a
third-party Draw Three (`CardKind(draw=3)`) was applied at once under
stacking: never held pending, never an answer to a +2. Now a draw card
stacks by what its kind declares (`CardKind.stacks`, `unobot.cards.stacks_as`):
fewer than 4 cards as a Draw Two, 4 or more as a Wild Draw Four, and a kind
may say it never stacks (`stacks=False`).
"""

from __future__ import annotations

from typing import Any

import pytest

from unobot import N_, CardKind, Rule
from unobot.testing import installed, table


class DrawThreeCards(Rule):
    """Draw cards of a plugin, defined here as a third party would."""

    name = "draw-three-for-a-test"
    cards = (
        CardKind("+3", draw=3, name=N_("Draw Three")),
        CardKind("+5", wild=True, draw=5, value=50, name=N_("Wild Draw Five")),
        CardKind("+1", draw=1, name=N_("Draw One"), stacks=False),
        CardKind("+8", wild=True, draw=8, value=50, name=N_("Wild Draw Eight"), stacks=False),
    )


def _table(rules: dict[str, Any], hands: dict[str, list[str]], top: str = "R3") -> Any:
    return table({
        "variant": "official",
        "rules": {"draw-three-for-a-test": {}, **rules},
        "players": ["ana", "ben", "cat"],
        "setup": {"hands": hands, "discard": [top], "draw": ["G1", "G2", "G4", "G5", "G6", "G7", "G8", "G9",
                                                          "Y1", "Y2", "Y4"], "turn": "ana"},
    })


@pytest.fixture(autouse=True)
def _cards() -> Any:
    with installed(DrawThreeCards):
        yield


def test_a_plugin_draw_three_stacks_on_a_draw_two_and_takes_one() -> None:
    t = _table({"stacking": {}}, {"ana": ["R+2", "R7"], "ben": ["G+3", "B8"], "cat": ["B+2", "Y9", "Y8"]})
    t.play("ana", "play R+2")
    assert "play G+3" in t.legal("ben")
    t.play("ben", "play G+3")
    t.expect(pending_draw=5, turn="cat")
    t.play("cat", "play B+2")  # a Draw Two on the plugin's Draw Three: both stack as +2
    t.expect(pending_draw=7, turn="ana")
    t.play("ana", "draw")
    t.expect(hand_size={"ana": 8}, turn="ben", pending_draw=0)


def test_a_plugin_wild_draw_five_stacks_as_a_wild_draw_four() -> None:
    rules = {"stacking": {"draw_two_on_draw_two": True, "draw_four_on_draw_two": True, "optional": True}}
    t = _table(rules, {"ana": ["R+3", "R7"], "ben": ["W+5", "B8"], "cat": ["B+2", "Y9", "Y8"]})
    t.play("ana", "play R+3")
    t.expect(pending_draw=3, turn="ben")  # held: ben may answer it
    t.play("ben", "play W+5 blue")
    # +4 on +4 and +2 on +4 are off: nothing answers a +4, so cat takes the 8 at once
    t.expect(pending_draw=0, hand_size={"cat": 11}, turn="ana")


def test_without_the_combination_a_plugin_wild_draw_five_does_not_answer_a_draw_two() -> None:
    t = _table({"stacking": {}}, {"ana": ["R+2", "R7"], "ben": ["W+5", "B8"], "cat": ["B9", "Y9"]})
    t.play("ana", "play R+2")
    t.refused("ben", "play W+5 blue")


def test_a_plugin_draw_card_that_does_not_stack_is_taken_at_once() -> None:
    t = _table({"stacking": {}}, {"ana": ["R+1", "R7"], "ben": ["G+1", "B+2", "B8"], "cat": ["B9", "Y9"]})
    t.play("ana", "play R+1")
    t.expect(pending_draw=0, hand_size={"ben": 4}, turn="cat")


def test_value_stacking_takes_a_plugin_draw_card_by_its_value() -> None:
    t = _table({"value-stacking": {}}, {"ana": ["R+2", "R7"], "ben": ["G+3", "B8"], "cat": ["B+2", "W+5", "Y8"]})
    t.play("ana", "play R+2")
    t.play("ben", "play G+3")
    t.refused("cat", "play B+2")  # worth less than the +3 on top
    t.play("cat", "play W+5 green")
    t.expect(pending_draw=10, turn="ana")


def test_value_stacking_never_stacks_a_card_that_says_it_does_not() -> None:
    t = _table({"value-stacking": {}}, {"ana": ["R+2", "R7"], "ben": ["W+8", "G+3", "B8"], "cat": ["B9", "Y8"]})
    t.play("ana", "play R+2")
    t.refused("ben", "play W+8 green")  # worth more, but its kind says it never stacks
    assert "play G+3" in t.legal("ben") and not any(m.startswith("play W+8") for m in t.legal("ben"))
