"""Empty draw pile (shared rule): the discard pile but its top card is
shuffled into a new draw pile; wilds lose their named colour (only the top
card keeps the colour in play). With nothing to reshuffle, nobody can draw.
"""

from unobot import Event, GameState, Rule, hookimpl, shuffle
from unobot.events import DECK_RESHUFFLED


class Reshuffle(Rule):
    name = "reshuffle"
    title = {"en": "Reshuffle", "es": "Rebarajar"}
    base = True

    @hookimpl(trylast=True)
    def on_deck_empty(self, state: GameState, events: list[Event]) -> bool:
        if len(state.discard) <= 1:
            return False
        top = state.discard[-1]
        pile = state.discard[:-1]
        shuffle(state, pile)
        state.draw_pile = pile
        state.discard = [top]
        events.append(Event(DECK_RESHUFFLED, n=len(pile)))
        return True
