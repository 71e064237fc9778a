"""A plugin's move that puts no card down owes no UNO, under every UNO rule.

Why: RULES.md §6 says UNO is owed only by a player whose own play left
them one card. Strict UNO opened a catch after any move but its own list
of non-plays, so a third party's cardless swap that handed its player a
one-card hand (written with its own event, not `hands`' swap) let the
next player catch them for a card they never played; the UNO call did not.
"""

from __future__ import annotations

import pytest

from tests.test_ai_plugin_value import SwapHands
from unobot import Event, GameState, Move, advance, hookimpl, testing


class OwnSwap(SwapHands):
    """The same swap, told with an event of its own (as a third party's would be)."""

    name = "own-swap-for-a-test"
    event_texts = {"own_swapped": "{player} swaps hands with {other}."}

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != "swap" or move.target is None:
            return None
        hands = state.hands
        hands[move.player], hands[move.target] = hands[move.target], hands[move.player]
        events.append(Event("own_swapped", move.player, other=move.target))
        advance(state)
        return True


@pytest.mark.parametrize("rules", [{}, {"strict-uno": {}}], ids=["uno-call", "strict-uno"])
def test_a_cardless_plugin_move_down_to_one_card_opens_no_catch(rules: dict[str, object]) -> None:
    with testing.installed(OwnSwap):
        t = testing.table({"players": ["ana", "ben", "cat"], "rules": {OwnSwap.name: {}, **rules},
                           "setup": {"hands": {"ana": "R5 G5 B3", "ben": "Y4", "cat": "B7 Y8 R9"},
                                     "discard": "R9", "draw": "R1 R2 R3"}})
        t.play("ana", "swap ben")
        assert t.hand("ana") == ["Y4"]
        assert not [m for m in t.legal("ben") if m.startswith("catch")]
        t.refused("ben", "catch ana", "nothing_to_catch")


def test_strict_uno_still_opens_a_catch_after_a_play_down_to_one_card() -> None:
    t = testing.table({"players": ["ana", "ben", "cat"], "rules": {"strict-uno": {}},
                       "setup": {"hands": {"ana": "R5 G5", "ben": "Y4 R6", "cat": "B7 Y8 R9"},
                                 "discard": "R9", "draw": "R1 R2 R3"}})
    t.play("ana", "play R5")
    assert "catch ana" in t.legal("ben")
