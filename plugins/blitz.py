"""Blitz: the round has a clock of `minutes`. When it runs out, the player
holding the fewest points in hand wins the round and scores as if they had
gone out.

The chat runs the clock (`round_seconds`) from the deal and applies the move
`time_up` when it rings (on the next action or turn timer after it); players
cannot send that move themselves (`system_moves`).
Decisions: a tie on points goes to the player with fewer cards, then to
the player who would move first from the player to move; a total pending
when time is up is not drawn.
"""

from unobot import N_, Event, GameState, Move, Rule, dataclass, end_round, hookimpl, option

TIME_UP = "time_up"


class Blitz(Rule):
    name = "blitz"
    checks = (TIME_UP,)
    move_symbols = {TIME_UP: "⏰"}
    title = {"en": "Blitz (a clock for the round)", "es": "Relámpago (reloj para la mano)"}
    move_kinds = {TIME_UP: N_("Time is up")}
    system_moves = (TIME_UP,)
    event_texts = {TIME_UP: N_("Time is up! {player} holds the fewest points and wins the round.")}

    @dataclass(frozen=True)
    class Options:
        minutes: int = option(5, min=1, max=120, title="Minutes per round", help="minutes the round lasts")

    @hookimpl
    def round_seconds(self, state: GameState) -> int:
        return self.options.minutes * 60

    @hookimpl
    def time_up(self, state: GameState) -> Move:
        return Move(TIME_UP, state.turn)

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | None:
        return True if move.kind == TIME_UP else None

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != TIME_UP:
            return None
        n = len(state.players)
        order = [(state.turn + i * state.direction) % n for i in range(n)]
        active = [s for s in order if s not in state.out]

        def key(seat: int) -> tuple[int, int]:
            hand = state.hands[seat]
            return (sum(c.value for c in hand), len(hand))

        winner = min(active, key=key)
        state.pending = 0
        state.pending_rank = ""
        events.append(Event(TIME_UP, winner))
        end_round(state, winner, events)
        return True
