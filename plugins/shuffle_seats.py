"""Shuffle seats: at the start of every round the order of play is
shuffled. Players keep their places in the chat; the round is played in
the new order (shown at the deal), and a 0 under seven-o passes hands in
that order too.

Decision: the first player is the one after the dealer in the new order;
a Reverse reverses the new order.
"""

import random

from unobot import N_, Event, GameState, Rule, hookimpl
from unobot.events import HANDS_ROTATED

SEATS_SHUFFLED = "seats_shuffled"
KEY = "seats"


_ORDERS: dict[tuple[int, int, int], list[int]] = {}


def seat_order(state: GameState) -> list[int]:
    """The round's order of play: a shuffle of the seats drawn from the
    game's seed and the round number, so a game (or a scenario with a
    `seed`) replays exactly."""
    key = (state.seed, state.round, len(state.players))
    order = _ORDERS.get(key)
    if order is None:
        if len(_ORDERS) > 10_000:
            _ORDERS.clear()
        order = list(range(len(state.players)))
        random.Random(f"unobot/seats/{state.seed}/{state.round}").shuffle(order)
        _ORDERS[key] = order
    return order


class ShuffleSeats(Rule):
    name = "shuffle-seats"
    title = {"en": "Shuffled seats", "es": "Asientos barajados"}
    event_texts = {SEATS_SHUFFLED: N_("The order of play is shuffled for this round.")}

    @hookimpl
    def round_start(self, state: GameState, previous: GameState | None, events: list[Event]) -> None:
        state.ext = {**state.ext, KEY: seat_order(state)}
        events.append(Event(SEATS_SHUFFLED))

    @hookimpl(tryfirst=True)
    def next_turn(self, state: GameState, player: int, skip: int) -> int | None:
        order = state.ext.get(KEY) or seat_order(state)
        n = len(order)
        d = state.direction
        out = state.out
        i = order.index(player)
        seat = player
        for _ in range(skip + 1):
            for _ in range(n):
                i = (i + d) % n
                seat = order[i]
                if seat not in out:
                    break
        return seat

    @hookimpl(tryfirst=True)
    def on_rotate(self, state: GameState, player: int, events: list[Event]) -> bool | None:
        order = state.ext.get(KEY) or seat_order(state)
        seats = [s for s in order if s not in state.out]
        if state.direction < 0:
            seats.reverse()
        old = [state.hands[s] for s in seats]
        for i, seat in enumerate(seats):
            state.hands[seat] = old[i - 1]
        state.uno = 0
        state.exposed = -1
        events.append(Event(HANDS_ROTATED, player))
        return True
