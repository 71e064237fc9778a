"""Going out (shared rule): the round ends when a player plays the last
card, any card. A last Draw Two / Wild Draw Four still makes the next player
draw, and those cards count in the score.

`places: true` plays on for places instead: a player who goes out leaves the
round and the others play on until one is left. The first player to go out
wins the round, even when a player who left (or was knocked out by a rule
such as mercy) was out before them.

A blocked round (nobody can play a card or get one: every hand at a hand
limit, or both piles empty, so the turn would pass round the table for
ever) ends at once. Decision (as a blitz clock ends a round):
the player holding the fewest points wins it and scores as if they had
gone out; a tie goes to fewer cards, then to the player who would move
first. Playing for places, the first player out wins it, as when one
player is left.
"""

from unobot import (
    N_,
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

ROUND_BLOCKED = "round_blocked"


class OneWinner(Rule):
    name = "one-winner"
    title = {"en": "Going out", "es": "Terminar la mano"}
    base = True
    event_texts = {ROUND_BLOCKED: N_("Nobody can play a card or draw one: the round is blocked.")}

    @dataclass(frozen=True)
    class Options:
        places: bool = option(False, title="Play on for places", help="play on for places after the first player goes out")

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

    @hookimpl(trylast=True)
    def round_blocked(self, state: GameState, events: list[Event]) -> bool:
        n = len(state.players)
        order = [(state.turn + i * state.direction) % n for i in range(n)]
        active = [seat for seat in order if seat not in state.out]
        places = state.ext.get("places", [])

        def key(seat: int) -> tuple[int, int]:
            hand = state.hands[seat]
            return (sum(card.value for card in hand), len(hand))

        winner = places[0] if places else min(active, key=key)
        events.append(Event(ROUND_BLOCKED, winner))
        if places:
            state.out.extend(active)
        end_round(state, winner, events)
        return True
