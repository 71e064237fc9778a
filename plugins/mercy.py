"""Mercy: a player who holds `limit` cards or more (25 by default) is out
of the round at once; their cards go under the draw pile. When one player
is left, that player wins the round.

Decisions: the count is checked after every move (a penalty, a draw, a
swap of hands); a total pending on the player lapses; under `elimination`
a player knocked out by mercy is the one who leaves the match; the
hands mercy took count at the round's end as if their players still held
them, whatever rule counts the round (added to the count before any factor
multiplies the round's points): the winner scores them under the official
count, their own player is charged them under progressive scoring (so
being knocked out never lowers a total), the winning team scores an
opponent's and not a partner's; playing
for places, a knocked-out player takes no place, and when one player is
left the first player out wins the round.
"""

from unobot import (
    N_,
    Event,
    GameState,
    Move,
    Rule,
    dataclass,
    end_round,
    hookimpl,
    option,
    parse_card,
)
from unobot.events import TURN

MERCY_OUT = "mercy_out"
#: state.ext key: the seats knocked out by mercy this round, in order.
KEY = "mercy"
#: state.ext key: the points of the hands mercy took this round (read from
#: games saved before TAKEN was kept: those points go to the winner).
POINTS = "mercy_points"
#: state.ext key: the hands mercy took this round, [[seat, [card text, ...]], ...].
TAKEN = "mercy_taken"


class Mercy(Rule):
    name = "mercy"
    title = {"en": "Mercy rule", "es": "Regla de la piedad"}
    event_texts = {MERCY_OUT: N_("{player} holds {n} cards and is out of the round (mercy rule).")}

    @dataclass(frozen=True)
    class Options:
        limit: int = option(25, min=2, max=200, title="Knock-out at", help="cards that knock a player out of the round")

    @hookimpl
    def after_move(self, state: GameState, move: Move, events: list[Event]) -> None:
        if state.phase != "play":
            return
        limit = self.options.limit
        hands = state.hands
        for seat in range(len(hands)):  # every move: no list of the active seats made
            if len(hands[seat]) >= limit and seat not in state.out and state.phase == "play":
                knock_out(state, seat, events)

    @hookimpl
    def score_add(self, state: GameState, points: dict[int, int]) -> dict[int, int] | None:
        # The adding step of the round's points (`unobot.round_points`): a
        # factor (double-score) multiplies these too, whatever the hook order.
        taken = state.ext.get(TAKEN)
        if not taken:
            extra = state.ext.get(POINTS, 0)
            if not extra or state.winner not in points:
                return None  # a rule that keeps no points for the winner (elimination) gets none
            return {state.winner: extra}
        # Ask the rule that counts what it would count were the hands still
        # held (on a copy: a count may note things, as elimination does), and
        # add the difference: right for any count, without naming one.
        held = state.clone()
        for seat, texts in taken:
            held.hands[seat] = [*held.hands[seat], *(parse_card(t) for t in texts)]
        counted = state.rules.score(held) or {}
        extra = {seat: counted.get(seat, 0) - points.get(seat, 0) for seat in {*counted, *points}}
        return {seat: pts for seat, pts in extra.items() if pts} or None


def knock_out(state: GameState, seat: int, events: list[Event]) -> None:
    hand = state.hands[seat]
    events.append(Event(MERCY_OUT, seat, n=len(hand)))
    state.draw_pile[0:0] = hand
    state.hands[seat] = []
    state.ext = {**state.ext, KEY: [*state.ext.get(KEY, []), seat],
                 TAKEN: [*state.ext.get(TAKEN, []), [seat, [c.text for c in hand]]]}
    state.out.append(seat)
    state.uno &= ~(1 << seat)
    if state.exposed == seat:
        state.exposed = -1
    active = state.active()
    if state.turn == seat:
        state.pending = 0
        state.pending_rank = ""
        state.turn = state.rules.next_turn(state, seat, 0)
        state.drawn = None
        state.draws = 0
        if len(active) > 1:
            events.append(Event(TURN, state.turn))
    if len(active) == 1:
        # Playing for places (one-winner), the first player out has won.
        places = state.ext.get("places") or active
        end_round(state, places[0], events)
