"""Random colour: when a wild lands, its colour is drawn at random instead
of chosen; the colour its player names is ignored.

A wild is played naming no colour (`wild_colours` leaves none worth
naming), so no front-end asks one it would ignore.

Decision: the same goes for the colour of a Wild starting card, drawn at
the deal (the first player is not asked to name it), and every colour is
equally likely (the game's seeded generator draws it, so a game
replays exactly).
"""

from collections.abc import Generator

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
        draw_colour(state, move.player, events)
        return True

    def wild_colours(self, state: GameState, player: int, card: Card) -> tuple[str, ...]:
        # The colour is drawn: none is worth naming (one named anyway is accepted).
        return ()

    @hookimpl(wrapper=True)
    def first_card(self, state: GameState, card: Card, events: list[Event]) -> Generator[None, bool, bool]:
        # A wrapper: whichever rule turns the starting card up, a Wild left
        # waiting for its colour gets it drawn now, so the first player is
        # never asked to name a colour this rule would ignore.
        handled = yield
        if state.color is None and state.discard and state.discard[-1].is_wild:
            draw_colour(state, state.turn, events)
        return handled


def draw_colour(state: GameState, player: int, events: list[Event]) -> None:
    """The wild's colour, drawn with the game's seeded generator (one card
    per colour, shuffled), so a game replays exactly."""
    cards = [Card.get(c, "0") for c in COLORS]
    shuffle(state, cards)
    color = cards[0].color
    state.color = color
    events.append(Event(RANDOM_COLOUR, player, color=color))
    events.append(Event(COLOR_CHOSEN, player, color=color))
