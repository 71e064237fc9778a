"""Turn timer (shared rule): how long a player has for a turn, and what
happens when it runs out (RULES.md §6): the player names the colour of a
Wild starter if it is still unnamed (the colour they hold most), then takes
the pending total, or draws one card, and the turn passes, even under rules
where a turn must end with a card played. `seconds: 0` means no timer.
Adapters run the clock; the engine applies `core.engine.timeout`.
"""

from collections import Counter

from unobot import (
    COLOR,
    DRAW,
    PASS,
    GameState,
    Move,
    Rule,
    dataclass,
    hookimpl,
    legal_moves,
    option,
)


class TurnTimer(Rule):
    name = "turn-timer"
    title = {"en": "Turn timer", "es": "Tiempo por turno"}
    base = True

    @dataclass(frozen=True)
    class Options:
        seconds: int = option(0, min=0, max=86_400, title="Seconds per turn", help="seconds per turn (0: no timer)")
        kick_after: int = option(3, min=0, max=100, title="Timeouts before removal", help="timeouts in a row before the player is removed (0: never)")

    def seconds_per_turn(self) -> int | None:
        return self.options.seconds or None

    def timeouts_before_removal(self) -> int | None:
        return self.options.kick_after

    @hookimpl(trylast=True)
    def turn_seconds(self, state: GameState) -> int | None:
        return self.options.seconds or None

    @hookimpl(trylast=True)
    def on_timeout(self, state: GameState, player: int) -> Move | None:
        moves = legal_moves(state, player)
        by_kind: dict[str, Move] = {}
        for move in moves:
            by_kind.setdefault(move.kind, move)
        if COLOR in by_kind:
            held = Counter(c.color for c in state.hands[player] if c.color)
            return max((m for m in moves if m.kind == COLOR),
                       key=lambda m: held.get(m.color or "", 0))
        if state.pending and DRAW in by_kind:
            return by_kind[DRAW]
        if PASS in by_kind:
            return by_kind[PASS]
        if not state.draws and DRAW in by_kind:
            return by_kind[DRAW]
        return None  # the engine takes the total or draws one, and passes the turn
