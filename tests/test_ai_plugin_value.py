"""The AI weighs what a rule's move does, not only the cards it puts down.

Why: a level saw a plugin's move as the cards leaving the hand. A move
without cards that swaps hands with a seat picked (7 cards for 2) was
never taken while a card fitted; a move that puts two cards down and makes
its player draw four was always taken over a plain card. Now the AI asks
the rules (`Rule.move_value`, in cards) and, for a rule's own kind of move
they say nothing about, how the move leaves the hand on a copy. Written as
an author would, with `unobot.testing` (`Table.ai`).
"""

from __future__ import annotations

import pytest

from unobot import (
    Card,
    CardKind,
    Event,
    GameState,
    Move,
    Rule,
    advance,
    draw_cards,
    hookimpl,
    testing,
)
from unobot.events import HANDS_SWAPPED

LEVELS = ("normal", "hard", "expert")
PLAYERS = ["ana", "ben", "cat"]


class SwapHands(Rule):
    """On your turn, instead of playing, swap hands with a player you pick."""

    name = "swap-hands-for-a-test"
    move_kinds = {"swap": "Swap hands"}

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        if player != state.turn or state.pending or state.drawn is not None:
            return None
        return [Move("swap", player, target=s) for s in state.active() if s != player]

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | None:
        if move.kind != "swap":
            return None
        return move.player == state.turn and move.target is not None and move.target != move.player

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != "swap" or move.target is None:
            return None
        hands = state.hands
        hands[move.player], hands[move.target] = hands[move.target], hands[move.player]
        events.append(Event(HANDS_SWAPPED, move.player, other=move.target))
        advance(state)
        return True


class HeavyDump(Rule):
    """Put two cards of the colour in play down at once, then draw four."""

    name = "heavy-dump-for-a-test"
    move_kinds = {"dump": "Dump two, draw four"}

    def _pair(self, state: GameState, player: int) -> list[object]:
        return [c for c in state.hands[player] if c.color == state.color][:2]

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        pair = self._pair(state, player)
        if player != state.turn or len(pair) < 2 or state.pending or state.drawn is not None:
            return None
        return [Move("dump", player, card=pair[0], cards=(pair[1],))]  # type: ignore[arg-type]

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | None:
        return (move.player == state.turn) if move.kind == "dump" else None

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != "dump" or move.card is None:
            return None
        hand = state.hands[move.player]
        for card in (move.card, *move.cards):
            hand.remove(card)
            state.discard.append(card)
        draw_cards(state, move.player, 4, events)
        advance(state)
        return True


class GreenIsGold(Rule):
    """A test rule that says a green card's play is worth `worth` cards."""

    name = "green-is-gold-for-a-test"
    worth = 5.0

    def move_value(self, state: GameState, move: Move) -> float | None:
        card = move.card
        return self.worth if move.kind == "play" and card is not None and card.color == "G" else None


def _table(rule: type[Rule], hands: dict[str, str], discard: str = "R9") -> testing.Table:
    return testing.table({"players": PLAYERS, "rules": {rule.name: {}},
                          "setup": {"hands": hands, "discard": discard,
                                    "draw": "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 B1 B2 B3 B4"}})


@pytest.mark.parametrize("level", LEVELS)
def test_a_cardless_swap_for_a_much_smaller_hand_is_taken_and_not_for_a_bigger_one(level: str) -> None:
    with testing.installed(SwapHands):
        t = _table(SwapHands, {"ana": "R5 G1 G2 B3 B4 Y6 Y7", "ben": "Y1 B2", "cat": "G7 G8 B9 Y3 Y4 B6"})
        assert "swap ben" in t.legal("ana")
        assert t.ai("ana", level) == "swap ben"
        t = _table(SwapHands, {"ana": "R5 G1 G2", "ben": "Y1 B2 B3 B5 Y6 G6", "cat": "G7 G8 B9 Y3 Y4 B6"})
        assert t.ai("ana", level) == "play R5"


@pytest.mark.parametrize("level", LEVELS)
def test_a_move_that_puts_two_cards_down_but_draws_four_is_left(level: str) -> None:
    with testing.installed(HeavyDump):
        t = _table(HeavyDump, {"ana": "R5 R6 G1 G2 B3", "ben": "Y1 B2 G5", "cat": "G7 G8 B9"})
        assert "dump R5 R6" in t.legal("ana")
        assert t.ai("ana", level).startswith("play R"), "the plain play: the dump costs two cards net"


@pytest.mark.parametrize("level", LEVELS)
def test_a_rules_move_value_steers_the_choice(level: str) -> None:
    with testing.installed(GreenIsGold):
        hands = {"ana": "R2 G9 B3 Y4 B6", "ben": "Y1 B2 G5", "cat": "G7 G8 B9"}
        t = _table(GreenIsGold, hands)
        assert t.ai("ana", level) == "play G9"
        GreenIsGold.worth = -5.0
        try:
            assert t.ai("ana", level) == "play R2"
        finally:
            GreenIsGold.worth = 5.0


def test_the_built_in_rules_say_what_their_moves_are_worth() -> None:
    """Discard All's other cards of its colour, a 7's swap, a multi-play's
    nothing beyond its cards: the rules answer, so the AI tries no copy."""
    from unobot.cards import parse_card

    t = testing.table({"players": PLAYERS, "variant": "no-mercy", "rules": {"seven-o": {}, "multi-play": {}},
                       "setup": {"hands": {"ana": "RDA R1 R2 G7 G3 G4", "ben": "Y1", "cat": "B1 B2 B3 B4 B5 B6 B7"},
                                 "discard": "R9", "draw": "Y2 Y3 Y4"}})
    rules = t.state.rules
    assert rules.move_value(t.state, Move("play", 0, card=parse_card("RDA"))) == 2.0
    assert rules.move_value(t.state, Move("play", 0, card=parse_card("G7"), target=1)) == 4.0
    assert rules.move_value(t.state, Move("play", 0, card=parse_card("G7"), target=2)) == -2.0
    assert rules.move_value(t.state, Move("multi", 0, card=parse_card("G3"), cards=(parse_card("G4"),))) == 0.0
    assert rules.move_value(t.state, Move("play", 0, card=parse_card("R1"))) is None


class Boomerang(Rule):
    """A card of a rule's own that comes back: its player draws three."""

    name = "boomerang-for-a-test"
    cards = (CardKind("BM", value=20, name="Boomerang"),)

    @hookimpl
    def on_play(self, state: GameState, move: Move, card: Card, events: list[Event]) -> bool | None:
        if card.rank != "BM":
            return None
        draw_cards(state, move.player, 3, events)
        advance(state)
        return True


@pytest.mark.parametrize("level", LEVELS)
def test_a_rules_card_that_costs_its_player_cards_is_kept(level: str) -> None:
    """A play of a rule's own card the rule says nothing about is tried on
    a copy: a card worth 20 points to dump, that makes its player draw
    three, was played over a plain 2."""
    with testing.installed(Boomerang):
        t = _table(Boomerang, {"ana": "RBM R2 G3 B4", "ben": "Y1 B2 G5", "cat": "G7 G8 B9"})
        assert "play RBM" in t.legal("ana")
        assert t.ai("ana", level) == "play R2"
