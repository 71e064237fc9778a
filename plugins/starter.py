"""First card (shared rule): the starting card's effect.

| starter | effect |
|---|---|
| number | none |
| Skip | the first player is skipped |
| Reverse | direction reverses; the dealer moves first (`reverse_first: dealer`), or the player on the dealer's other side (`other_side`, the seed document's reading) |
| Draw Two | the first player draws 2 and is skipped (or answers it, where stacking allows) |
| Wild | the first player names the colour by playing any card |
| Wild Draw Four | back into the deck, reshuffle, turn another |
"""

from typing import Literal

from unobot import Card, Event, GameState, Rule, dataclass, events, hookimpl, penalize, shuffle
from unobot.cards import REVERSE, SKIP


class Starter(Rule):
    name = "starter"
    title = {"en": "First card", "es": "Primera carta"}
    base = True

    @dataclass(frozen=True)
    class Options:
        reverse_first: Literal["dealer", "other_side"] = "dealer"
        redeal_wild_draw_four: bool = True

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
            return True  # colour None: the first player's card names it
        if card.rank == SKIP:
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
            penalize(state, card, events)
        return True


_ev = events
