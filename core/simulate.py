"""Simulation: play whole rounds with every seat choosing among legal moves,
checking the engine's invariants as it goes.

Invariants checked after every move: no card created or lost, exactly one
player to move (a seat that is still in the round), the chosen move (from
`legal_moves`) was accepted. With `check_all=True` every legal move of the
position is applied too (slow; for tests).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .engine import apply, legal_moves, new_game
from .errors import MoveError
from .moves import Move
from .state import PLAYING, GameState

Policy = Callable[[GameState, int, list[Move], random.Random], Move]


class InvariantError(AssertionError):
    """The engine broke one of its own promises."""


def random_policy(state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
    """Uniform over legal moves, like RLCard's random agent."""
    return moves[rnd.randrange(len(moves))]


@dataclass
class Report:
    games: int = 0
    moves: int = 0
    seconds: float = 0.0
    wins: list[int] = field(default_factory=list)
    unfinished: int = 0

    @property
    def avg_moves(self) -> float:
        return self.moves / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games, "moves": self.moves, "seconds": round(self.seconds, 4),
            "wins": self.wins, "avg_moves": round(self.avg_moves, 2),
            "moves_per_second": round(self.moves / self.seconds, 1) if self.seconds else None,
            "unfinished": self.unfinished,
        }


def check_invariants(state: GameState, deck: Counter[Card], full: bool = True) -> None:
    """Cards conserved (the count always; every card when `full`), and one
    valid player to move while the round goes on."""
    count = sum(len(h) for h in state.hands) + len(state.draw_pile) + len(state.discard)
    if count != deck.total() or (full and Counter(state.all_cards()) != deck):
        raise InvariantError("cards were created or lost")
    if state.phase == PLAYING:
        if not 0 <= state.turn < len(state.players) or state.turn in state.out:
            raise InvariantError(f"no valid player to move (turn={state.turn}, out={state.out})")
        if state.pending < 0:
            raise InvariantError("negative pending draw")


def play_round(state: GameState, policies: list[Policy], rnd: random.Random, *,
               max_moves: int = 100_000, check: bool = True, check_all: bool = False
               ) -> tuple[GameState, int]:
    """Play until the round ends; return the final state and the moves made."""
    deck = Counter(state.all_cards()) if check else None
    n = 0
    while state.phase == PLAYING and n < max_moves:
        player = state.turn
        moves = legal_moves(state, player)
        if not moves:
            raise InvariantError(f"player {player} to move has no legal move")
        if check_all:
            for m in moves:
                try:
                    apply(state, m)
                except MoveError as exc:
                    raise InvariantError(f"legal move {m!r} refused: {exc.code}") from None
        move = policies[player](state, player, moves, rnd)
        try:
            state, _ = apply(state, move, inplace=not check_all)
        except MoveError as exc:
            raise InvariantError(f"legal move {move!r} refused: {exc.code}") from None
        n += 1
        if deck is not None:
            # Every card is compared every 16 moves and at the end; the count every move.
            check_invariants(state, deck, full=not n & 15 or state.phase != PLAYING)
    return state, n


def simulate(variant: str, players: int, games: int, seed: int,
             policies: list[Policy] | None = None, overrides: dict[str, Any] | None = None,
             check: bool = True, progress: Callable[[int], None] | None = None) -> Report:
    names = [f"p{i + 1}" for i in range(players)]
    policies = policies or [random_policy] * players
    rnd = random.Random(seed)
    report = Report(wins=[0] * players)
    for g in range(games):
        state, _ = new_game(variant, names, seed=seed * 1_000_003 + g, overrides=overrides,
                            dealer=g % players)
        t0 = time.perf_counter()
        state, n = play_round(state, policies, rnd, check=check)
        report.seconds += time.perf_counter() - t0
        report.games += 1
        report.moves += n
        if state.winner >= 0:
            report.wins[state.winner] += 1
        else:
            report.unfinished += 1
        if progress:
            progress(g + 1)
    return report
