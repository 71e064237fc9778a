"""First card (shared rule): the starting card's effect.

| starter | effect |
|---|---|
| number | none |
| Skip | the first player is skipped |
| Reverse | direction reverses; the dealer moves first (`reverse_first: dealer`), or the player on the dealer's other side (`other_side`, the seed document's reading). With two players it acts as a Skip: the dealer moves first |
| Draw Two | the first player draws 2 and is skipped (or answers it, where stacking allows) |
| Wild | the first player names the colour (`color green`, a move of its own, before anything else), then plays or draws under it |
| Wild Draw Four | back into the deck, reshuffle, turn another |
"""

from typing import Literal

from unobot import (
    COLOR,
    Card,
    Event,
    GameState,
    Move,
    Rule,
    dataclass,
    events,
    hookimpl,
    option,
    penalize,
    shuffle,
)
from unobot.cards import REVERSE, SKIP


class Starter(Rule):
    name = "starter"
    title = {"en": "First card", "es": "Primera carta"}
    base = True
    checks = (COLOR,)

    @dataclass(frozen=True)
    class Options:
        reverse_first: Literal["dealer", "other_side"] = option(
            "dealer", title="First after a Reverse", help="who moves first after a Reverse starter: the dealer or the other side",
            words={"dealer": "the dealer", "other_side": "the player on the dealer's other side"})
        redeal_wild_draw_four: bool = option(True, title="Redeal a +4 starter", help="a Wild Draw Four starter goes back and another is turned")

    @hookimpl(trylast=True)
    def first_card(self, state: GameState, card: Card, events: list[Event]) -> bool:
        rules = state.rules
        guard = 0
        while card.is_wild and card.draw and self.options.redeal_wild_draw_four and guard < 50:
            guard += 1
            state.discard.pop()
            state.draw_pile.append(card)
            shuffle(state, state.draw_pile)
            events.append(Event(_ev.STARTER_RETURNED, card=card))
            card = state.draw_pile.pop()
            state.discard.append(card)
            events.append(Event(_ev.STARTER, card=card))
        state.color = card.color
        first = state.turn
        if card.is_wild and not card.draw:
            state.color = None  # the first player names it with a `color` move
            return True
        two = len(state.players) - len(state.out) == 2
        if card.rank == SKIP or (card.rank == REVERSE and two):
            # With two players a Reverse starter acts as a Skip (RULES.md §6).
            events.append(Event(_ev.TURN_SKIPPED, first))
            state.turn = rules.next_turn(state, first, 0)
        elif card.rank == REVERSE:
            state.direction = -state.direction
            events.append(Event(_ev.DIRECTION_REVERSED))
            if self.options.reverse_first == "dealer":
                state.turn = state.dealer
            else:
                state.turn = rules.next_turn(state, state.dealer, 0)
        elif card.draw:
            state.turn = state.dealer
            penalize(state, rules.next_turn(state, state.dealer, 0), card.draw, events, card=card)
        return True

    @hookimpl(trylast=True)
    def check_move(self, state: GameState, move: Move) -> bool | None:
        # The engine lets a `color` move through only while a Wild starter
        # waits for its colour, and only from the player to move.
        return True if move.kind == COLOR else None


_ev = events
