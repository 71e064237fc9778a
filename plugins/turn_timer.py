"""Turn timer (shared rule): how long a player has for a turn, and what
happens when it runs out: the pending penalty is taken, or the player draws
and passes (under rules where a turn must end with a card, the player draws
until a card can be played, and plays it). `seconds: 0` means no timer.
Adapters run the clock; the engine applies `core.engine.timeout`.
"""

from unobot import DRAW, PASS, PLAY, GameState, Move, Rule, dataclass, hookimpl, legal_moves, option


class TurnTimer(Rule):
    name = "turn-timer"
    title = {"en": "Turn timer", "es": "Tiempo por turno"}
    base = True

    @dataclass(frozen=True)
    class Options:
        seconds: int = option(0, min=0, max=86_400, help="seconds per turn (0: no timer)")
        kick_after: int = option(3, min=0, max=100, help="timeouts in a row before the player is removed (0: never)")

    @hookimpl(trylast=True)
    def turn_seconds(self, state: GameState) -> int | None:
        return self.options.seconds or None

    @hookimpl(trylast=True)
    def on_timeout(self, state: GameState, player: int) -> Move | None:
        moves = legal_moves(state, player)
        by_kind: dict[str, Move] = {}
        for move in moves:
            by_kind.setdefault(move.kind, move)
        if state.pending and DRAW in by_kind:
            return by_kind[DRAW]
        if PASS in by_kind:
            return by_kind[PASS]
        if state.draws and PLAY in by_kind:
            return by_kind[PLAY]
        return by_kind.get(DRAW) or by_kind.get(PLAY)
