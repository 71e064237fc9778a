"""Random colour: when a wild lands, its colour is drawn at random instead
of chosen; the colour its player names is ignored.

Decision: the same goes for the colour of a Wild starting card, and every
colour is equally likely (the game's seeded generator draws it, so a game
replays exactly).
"""

from unobot import N_, Card, Event, GameState, Move, Rule, hookimpl, shuffle
from unobot.cards import COLORS
from unobot.events import COLOR_CHOSEN

RANDOM_COLOUR = "random_colour"


class RandomColour(Rule):
    name = "random-colour"
    title = {"en": "Random wild colour", "es": "Color del comodín al azar"}
    conflicts = ("auto-colour",)
    event_texts = {RANDOM_COLOUR: N_("The wild's colour is drawn at random: {color}.")}

    @hookimpl(tryfirst=True)
    def on_wild(self, state: GameState, move: Move, color: str | None, events: list[Event]) -> bool:
        # One card per colour, shuffled with the game's seeded generator.
        cards = [Card.get(c, "0") for c in COLORS]
        shuffle(state, cards)
        color = cards[0].color
        state.color = color
        events.append(Event(RANDOM_COLOUR, move.player, color=color))
        events.append(Event(COLOR_CHOSEN, move.player, color=color))
        return True
