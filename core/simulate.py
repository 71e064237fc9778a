"""Simulation: play whole rounds (or whole matches) with every seat choosing
among legal moves, checking the engine's invariants as it goes.

Invariants checked: the player to move always has a legal move, the chosen
move (from `legal_moves`) is accepted, exactly one player is to move (a seat
still in the round), and no card is created or lost (the count of cards,
the seat to move and the pending total every move, every card every 64
moves and at the end of each round). With
`check_all=True` every legal move of the position is applied too (slow; for
tests).

Players whose turn it is not move too (`out_of_turn`, a probability per
chance): they say UNO, catch a player who forgot it, jump in, as their
policy chooses, so the rules that act out of turn are exercised.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .chat.uno_timing import carries_uno, with_uno
from .engine import apply, legal_moves, new_game, next_round
from .errors import MoveError
from .moves import UNO, Move
from .state import MATCH_OVER, PLAYING, ROUND_OVER, GameState

Policy = Callable[[GameState, int, list[Move], random.Random], Move]


class InvariantError(AssertionError):
    """The engine broke one of its own promises."""


def random_policy(state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
    """Uniform over legal moves, like RLCard's random agent. (`random()`
    scaled, not `randrange`: the same distribution over a few moves, for a
    third of the cost.)"""
    return moves[int(rnd.random() * len(moves))]


def eager_policy(state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
    """Random, but a play when there is one four times in five (rounds end
    in tens of moves, as people's do), and uniform over every move else, so
    draws, passes and out-of-turn moves are still made."""
    if rnd.random() < 0.8:
        plays = [m for m in moves if m.kind == "play"]
        if plays:
            return plays[rnd.randrange(len(plays))]
    return moves[rnd.randrange(len(moves))]


@dataclass
class Report:
    games: int = 0
    moves: int = 0
    seconds: float = 0.0
    wins: list[int] = field(default_factory=list)
    unfinished: int = 0
    rounds: int = 0
    match_wins: list[int] = field(default_factory=list)
    out_of_turn: int = 0

    @property
    def avg_moves(self) -> float:
        return self.moves / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games, "moves": self.moves, "seconds": round(self.seconds, 4),
            "wins": self.wins, "avg_moves": round(self.avg_moves, 2),
            "moves_per_second": round(self.moves / self.seconds, 1) if self.seconds else None,
            "unfinished": self.unfinished, "rounds": self.rounds, "match_wins": self.match_wins,
            "out_of_turn_moves": self.out_of_turn,
        }


def check_invariants(state: GameState, deck: Counter[Card], full: bool = True,
                     total: int | None = None) -> None:
    """Cards conserved (the count always; every card when `full`), and one
    valid player to move while the round goes on. `total` is the deck's
    size, when the caller knows it (a running check need not recount it)."""
    count = sum(map(len, state.hands)) + len(state.draw_pile) + len(state.discard)
    # dict's own == (in C) where Counter's walks both in Python: neither has zero counts
    if count != (deck.total() if total is None else total) or (
            full and not dict.__eq__(Counter(state.all_cards()), deck)):
        raise InvariantError("cards were created or lost")
    if state.phase == PLAYING:
        if not 0 <= state.turn < len(state.players) or state.turn in state.out:
            raise InvariantError(f"no valid player to move (turn={state.turn}, out={state.out})")
        if state.pending < 0:
            raise InvariantError("negative pending draw")


def _may_act_out_of_turn(state: GameState) -> bool:
    """Could anyone but the player to move have a move now? (Cheap: a rule
    that offers out-of-turn moves, such as jump-in, a catch window, a hand of
    one or two cards; under plain rules exactly when uno-call offers one: a
    catch window, or a hand of two cards that has not said UNO.)"""
    rules = state.rules
    if rules.out_of_turn_rules or state.exposed >= 0:
        return True
    if rules.plain_turn and not state.ext:  # out of turn, uno-call's offers are all (core/plain_turn.py)
        if not rules.plain_uno:
            return False
        uno = state.uno
        turn = state.turn
        for seat, hand in enumerate(state.hands):
            if len(hand) == 2 and seat != turn and not uno >> seat & 1:
                return True
        return False
    return min(map(len, state.hands)) <= 2  # a UNO call or a catch


def _leaves_one(state: GameState, move: Move, moves: list[Move]) -> bool:
    """Might `move` take its player from three cards or more down to one,
    with no UNO offered first (a multi-play, a Discard All)? Cheap, so
    `carries_uno`'s trial on a copy is made only then: by the cards it puts
    down and what the rules say it takes besides (`Rule.move_value`)."""
    hand = len(state.hands[move.player])
    left = hand - 1 - len(move.cards)
    if hand < 3 or any(m.kind == UNO for m in moves):
        return False
    rules = state.rules
    if left > 1 and rules.values_moves:
        left -= int(rules.move_value(state, move) or 0)
    return left <= 1


def _out_of_turn(state: GameState, policies: list[Policy], rnd: random.Random, chance: float,
                 report: Report | None, inplace: bool = False,
                 watchers: list[Callable[..., None]] | None = None) -> GameState:
    """Give each other seat, in random order, a chance to move out of turn."""
    seats = [s for s in state.active() if s != state.turn]
    first = int(rnd.random() * len(seats))  # who is quickest: a random seat, then round the table
    for seat in seats[first:] + seats[:first]:
        if state.phase != PLAYING:
            break
        if rnd.random() >= chance:
            continue
        moves = legal_moves(state, seat)
        if not moves:
            continue
        move = policies[seat](state, seat, moves, rnd)
        colour, pending = state.color, state.pending
        try:
            state, events = apply(state, move, inplace=inplace)
        except MoveError as exc:
            raise InvariantError(f"legal out-of-turn move {move!r} refused: {exc.code}") from None
        for watch in watchers or ():
            watch(state, move, events, colour, pending)
        if report is not None:
            report.out_of_turn += 1
    return state


def play_round(state: GameState, policies: list[Policy], rnd: random.Random, *,
               max_moves: int = 100_000, check: bool = True, check_all: bool = False,
               out_of_turn: float = 0.0, report: Report | None = None
               ) -> tuple[GameState, int]:
    """Play until the round ends; return the final state and the moves made."""
    deck = Counter(state.all_cards()) if check else None
    total = deck.total() if deck is not None else 0
    inplace = not check_all
    seats = len(state.players)
    listed, play, pick = legal_moves, apply, rnd.random  # locals: this loop runs 10^5 times a second
    uniform = all(p is random_policy for p in policies)
    # Players that learn from what they see (core/ai: who drew on which
    # colour, how challenges went) are shown every move, once each.
    watchers = list({id(p): p.observe for p in policies if hasattr(p, "observe")}.values())
    # Players that say UNO with a move leaving them one card (core/ai's levels), by seat.
    sayers = [getattr(p, "says_uno_with", None) for p in policies]
    n = 0
    while state.phase == PLAYING and n < max_moves:
        player = state.turn
        moves = listed(state, player)
        if not moves:
            raise InvariantError(f"player {player} to move has no legal move")
        if check_all:
            for m in moves:
                try:
                    apply(state, m)
                except MoveError as exc:
                    raise InvariantError(f"legal move {m!r} refused: {exc.code}") from None
        # random_policy inline (the same pick): simulate's default, once a move
        move = moves[int(pick() * len(moves))] if uniform else policies[player](state, player, moves, rnd)
        colour, pending = state.color, state.pending
        says = sayers[player] if move.card is not None else None
        try:
            if says is not None and _leaves_one(state, move, moves) and carries_uno(state, move) \
                    and says(state, player, moves, rnd):
                state, events, _made = with_uno(state, move)
            else:
                state, events = play(state, move, inplace=inplace)
        except MoveError as exc:
            raise InvariantError(f"legal move {move!r} refused: {exc.code}") from None
        n += 1
        for watch in watchers:
            watch(state, move, events, colour, pending)
        if out_of_turn and state.phase == PLAYING and _may_act_out_of_turn(state):
            state = _out_of_turn(state, policies, rnd, out_of_turn, report, inplace, watchers)
        # The count, the turn and the pending total every move (inline: this
        # runs a hundred thousand times a second); every card every 64 moves
        # and at the end of the round (below), or to say what broke.
        if deck is not None and (
                not n & 63 or sum(map(len, state.hands)) + len(state.draw_pile) + len(state.discard) != total
                or not 0 <= state.turn < seats or state.turn in state.out or state.pending < 0):
            check_invariants(state, deck, full=True, total=total)
    if deck is not None:
        check_invariants(state, deck, full=True, total=total)
    return state, n


def simulate(variant: str, players: int, games: int, seed: int,
             policies: list[Policy] | None = None, overrides: dict[str, Any] | None = None,
             check: bool = True, progress: Callable[[int], None] | None = None,
             match: bool = False, out_of_turn: float = 0.0, max_rounds: int = 200,
             max_moves: int = 100_000) -> Report:
    """Play `games` games (a round each, or a whole match each with `match`)."""
    names = [f"p{i + 1}" for i in range(players)]
    policies = policies or [random_policy] * players
    rnd = random.Random(seed)
    report = Report(wins=[0] * players, match_wins=[0] * players)
    for g in range(games):
        state, _ = new_game(variant, names, seed=seed * 1_000_003 + g, overrides=overrides,
                            dealer=g % players)
        t0 = time.perf_counter()
        for _ in range(max_rounds):
            state, n = play_round(state, policies, rnd, check=check, out_of_turn=out_of_turn,
                                  report=report, max_moves=max_moves)
            report.moves += n
            report.rounds += 1
            if state.winner >= 0:
                report.wins[state.winner] += 1
            else:
                report.unfinished += 1
                break
            if state.phase == MATCH_OVER:
                champion = state.rules.match_winner(state)
                if champion is not None:
                    report.match_wins[champion] += 1
                break
            if not match or state.phase != ROUND_OVER:
                break
            state, _ = next_round(state)
        report.seconds += time.perf_counter() - t0
        report.games += 1
        if progress:
            progress(g + 1)
    return report
