"""Going out (shared rule): the round ends when a player plays the last
card, any card. A last Draw Two / Wild Draw Four still makes the next player
draw, and those cards count in the score.

`places: true` plays on for places instead: a player who goes out leaves the
round and the others play on until one is left. The first player to go out
wins the round, even when a player who left (or was knocked out by a rule
such as mercy) was out before them.
"""

from unobot import (
    Event,
    GameState,
    Rule,
    advance,
    dataclass,
    end_round,
    hookimpl,
    option,
    take_pending,
)
from unobot.events import PLAYER_OUT


class OneWinner(Rule):
    name = "one-winner"
    title = {"en": "Going out", "es": "Terminar la mano"}
    base = True

    @dataclass(frozen=True)
    class Options:
        places: bool = option(False, help="play on for places after the first player goes out")

    @hookimpl(trylast=True)
    def on_go_out(self, state: GameState, player: int, events: list[Event]) -> bool:
        if state.pending:
            victim = state.turn
            take_pending(state, victim, events)
            if self.options.places and victim == state.turn:
                advance(state)
        state.out.append(player)
        # The seats that went out by playing their last card, in order (a
        # player who left or was knocked out is in `state.out` too).
        places = [*state.ext.get("places", []), player]
        state.ext = {**state.ext, "places": places}
        events.append(Event(PLAYER_OUT, player, n=len(places)))
        if not self.options.places:
            end_round(state, player, events)
            return True
        active = state.active()
        if len(active) <= 1:
            state.out.extend(active)
            end_round(state, places[0], events)
        elif state.turn == player:
            advance(state)
        return True
