"""Hand exchanges (shared rule): how a swap and a rotation move cards.

Used by rules such as seven-o. A swap exchanges two whole hands; a rotation
passes every hand to the next player in the direction of play. An exchange
clears the UNO calls of the hands it moves and closes any catch window: a
player handed a single card cannot be caught for it, and must say UNO again
before their next play down to one card.
"""

from unobot import Event, GameState, Rule, hookimpl
from unobot.events import HANDS_ROTATED, HANDS_SWAPPED


class Hands(Rule):
    name = "hands"
    title = {"en": "Hand exchanges", "es": "Intercambio de manos"}
    base = True

    @hookimpl(trylast=True)
    def on_swap(self, state: GameState, player: int, target: int, events: list[Event]) -> bool:
        hands = state.hands
        hands[player], hands[target] = hands[target], hands[player]
        state.uno &= ~((1 << player) | (1 << target))
        state.exposed = -1
        events.append(Event(HANDS_SWAPPED, player, other=target))
        return True

    @hookimpl(trylast=True)
    def on_rotate(self, state: GameState, player: int, events: list[Event]) -> bool:
        seats = state.active()
        if state.direction < 0:
            seats.reverse()
        old = [state.hands[s] for s in seats]
        for i, seat in enumerate(seats):
            state.hands[seat] = old[i - 1]  # the hand of the previous player in play order
        state.uno = 0
        state.exposed = -1
        events.append(Event(HANDS_ROTATED, player))
        return True
