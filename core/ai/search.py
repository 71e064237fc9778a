"""`expert`: determinized Monte Carlo search over the hidden hands.

Why this shape: UNO hides most cards, so a search tree over the true state
would peek. Instead each rollout deals the cards the seat has not seen (a
canonical multiset: the same however they really lie) to the others, as
many as each holds, keeping away from a seat the cards it was seen to
lack (a colour, a rank, a wild), and the rest to the draw pile; then the candidate move is applied in
that world and the game is played out by a quick policy through the
engine's own legal moves (plugin moves and cards included). The candidates
share the rollouts as a bandit (UCB1), so the budget goes to the moves that
are close. The candidates are `hard`'s best few plays (each wild with its
best colours); talk (UNO, catch) and challenges are `hard`'s, which
already weigh what is known.

With more than two players still in the round `expert` plays as `hard`
(see `SEARCH_PLAYERS`). The budget is a time per move (`game.ai_seconds` in config.yaml) and, for
tests and benchmarks that need the same answer every run, a number of
rollouts.
"""

from __future__ import annotations

import math
import random
import time

from ..cards import Card
from ..engine import apply, legal_moves
from ..errors import MoveError
from ..moves import CATCH, CHALLENGE, DRAW, PASS, UNO, Move
from ..state import PLAYING, GameState
from .heuristics import Counting, best_colour, cards_of, is_play, system_kinds
from .knowledge import TableMemory, unseen

#: Plies a rollout plays before it is scored by the hands' sizes.
DEPTH = 16
#: The searching seat plays its rollouts a little better than at random.
SMART_SELF = False
#: The most candidate moves the search weighs (`hard`; `expert` more).
CANDIDATES = 3
EXPERT_CANDIDATES = 5
#: The most players still in the round for which `expert` searches; with
#: more it plays as `hard`.
SEARCH_PLAYERS = 2
#: The fewest worlds before a timed search may stop early (`settled`), and
#: how sure it must be.
SETTLE = 24
SURE = 2.5
#: `hard`'s search: this many rollouts a move, over the same worlds.
HARD_ROLLOUTS = 48
#: The prior's weight, in rollouts, and the lead it gives `hard`'s choice.
PRIOR = 6
LEAD = 0.05


def default_seconds() -> float:
    """The configured time per move (`game.ai_seconds`), read once."""
    found = _BUDGET.get("seconds")
    if found is None:
        try:
            from ..config import load_config

            found = float(load_config(check_variant=False).game.ai_seconds)
        except Exception:  # a broken config stops the bot elsewhere, with its reason
            found = 0.2
        _BUDGET["seconds"] = found
    return found


_BUDGET: dict[str, float] = {}


class Searching(Counting):
    """`hard`'s counting, and a search over the hidden hands for the play
    (the candidates: `hard`'s best few). `seconds` is a time per move,
    `rollouts` a count (the same answer every run: for `hard`, tests and
    benchmarks)."""

    name = "expert"
    #: The most candidate moves the search weighs.
    candidates = CANDIDATES

    def __init__(self, memory: TableMemory | None = None, seconds: float | None = None,
                 rollouts: int | None = None) -> None:
        super().__init__(memory)
        self.seconds = seconds
        self.rollouts = rollouts
        #: rollouts made and seconds spent, over every search (for benchmarks)
        self.made = 0
        self.spent = 0.0

    def choose(self, state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
        system = system_kinds(state)
        if system:
            moves = [m for m in moves if m.kind not in system] or moves
        if player != state.turn or any(m.kind in (UNO, CATCH, CHALLENGE) for m in moves):
            return super().choose(state, player, moves, rnd)
        free = self.free_move(state, player, moves)
        if free is not None:
            return free
        plays = [m for m in moves if is_play(m)]
        valued = self.valued_move(state, player, moves, plays)
        if valued is not None:
            return valued
        if len(plays) < 2 or self.keep_drawn(state, player, plays, moves) is not None:
            return super().choose(state, player, moves, rnd)
        scored = sorted(self.score_plays(state, player, plays), key=lambda p: -p[0])
        if scored[0][0] >= 1000.0:
            return scored[0][1]  # going out
        candidates = _distinct([m for _, m in scored])[:self.candidates]
        if len(candidates) < 2:
            return scored[0][1]
        if len(state.active()) > SEARCH_PLAYERS:
            # Measured (bench/ai.py's games): with four players a rollout's
            # outcome is mostly the others' luck, and the search did not beat
            # the counting's choice (24.8% and, playing every rollout to the
            # end, 27.0% against its 27%, 400 games each; then, dealing by
            # ranks and wilds too and playing to the end, 150 rollouts 28.0%
            # over 2,400 games against 27.0-27.2%, and on other deals 150 and
            # 600 rollouts 26.0% and 26.5% against its 28.0%, 800 games).
            return scored[0][1]
        return self.search(state, player, candidates, rnd)

    def search(self, state: GameState, player: int, candidates: list[Move], rnd: random.Random) -> Move:
        """Weigh the candidates over the same worlds: each world (a deal of
        the unseen cards and the rollout's dice) is played out once from
        every candidate, so the candidates' difference is measured, not the
        luck of their deals (common random numbers: far fewer rollouts for
        the same confidence than a deal of its own for each)."""
        seconds = self.seconds if self.seconds is not None else default_seconds()
        limit = self.rollouts
        start = time.perf_counter()
        deadline = start + seconds
        n = len(candidates)
        # A prior worth PRIOR worlds: `hard`'s first choice a little ahead,
        # so that a few noisy rollouts do not overturn good sense.
        base = 1.0 / max(2, len(state.active()))
        wins = [PRIOR * (base + (LEAD if k == 0 else 0.0)) for k in range(n)]
        pool = sorted(unseen(state, player).elements(), key=_card_order)
        local = random.Random(rnd.random())
        made = worlds = 0
        timed = limit is None or self.seconds is not None
        results: list[list[float]] = [[] for _ in range(n)]
        while True:
            if limit is not None and made >= limit:
                break
            if timed and worlds and time.perf_counter() >= deadline:
                break
            if timed and worlds >= SETTLE and not worlds % 8 and settled(results, wins):
                break
            world = self.deal(state, player, pool, local)
            dice = local.getstate()
            for i in range(n):
                local.setstate(dice)
                got = rollout(world.clone() if i < n - 1 else world, player, candidates[i], local)
                wins[i] += got
                results[i].append(got)
            made += n
            worlds += 1
        self.made += made
        self.spent += time.perf_counter() - start
        best = max(range(n), key=lambda k: (wins[k], -k))
        return candidates[best]

    def deal(self, state: GameState, player: int, pool: list[Card], rnd: random.Random) -> GameState:
        """One world consistent with what `player` saw: the unseen cards
        dealt to the others by their counts (keeping from each the cards it
        was seen to lack, while it can), the rest to the draw pile. The
        world's shuffles get a seed of their own: the real game's would say
        in what order the discard pile comes back."""
        world = state.clone()
        world.seed = int(rnd.random() * 2**31)
        cards = pool[:]
        pick = rnd.random
        for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates on random(): a third of shuffle()'s cost
            j = int(pick() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]
        seats = [s for s in range(len(state.hands)) if s != player]
        need = {s: len(state.hands[s]) for s in seats}
        hands: dict[int, list[Card]] = {s: [] for s in seats}
        memory = self.memory
        if not any(memory.knows_lack(s) for s in seats):
            at = 0
            for s in seats:
                world.hands[s] = cards[at:at + need[s]]
                at += need[s]
            world.draw_pile = cards[at:]
            return world
        rest: list[Card] = []
        may_hold = memory.may_hold
        for card in cards:
            for s in seats:
                if len(hands[s]) < need[s] and may_hold(s, card):
                    hands[s].append(card)
                    break
            else:
                rest.append(card)
        for s in seats:
            short = need[s] - len(hands[s])
            if short > 0:
                hands[s].extend(rest[-short:])
                del rest[-short:]
            world.hands[s] = hands[s]
        world.draw_pile = rest
        return world


class Hard(Searching):
    """`hard`: the counting, and a small fixed search (`HARD_ROLLOUTS`)
    over the hands the counting allows: cheap (some milliseconds a move)
    and the same answer every time for the same position and dice."""

    name = "hard"

    def __init__(self, memory: TableMemory | None = None) -> None:
        super().__init__(memory, rollouts=HARD_ROLLOUTS)


class Expert(Searching):
    """`expert`: the search under a time per move (`game.ai_seconds`), over
    more candidates than `hard`'s (measured against RLCard's agent at 150
    rollouts a move, 1,000 games: five candidates 61.3%, three 60.2%)."""

    name = "expert"
    candidates = EXPERT_CANDIDATES

    def budget(self, seconds: float | None) -> Expert:
        """The same player with another time per move (the chat's turn timer caps it)."""
        return Expert(self.memory, seconds, self.rollouts)


def settled(results: list[list[float]], wins: list[float]) -> bool:
    """Whether the search may stop before its time: the leader is ahead of
    every other candidate by more than `SURE` standard errors of their
    paired differences (the same worlds), or no world told them apart.
    Time is what a person waits for; a clear answer needs no more of it."""
    best = max(range(len(wins)), key=lambda k: (wins[k], -k))
    lead = results[best]
    worlds = len(lead)
    for k, other in enumerate(results):
        if k == best:
            continue
        diffs = [a - b for a, b in zip(lead, other)]
        mean = sum(diffs) / worlds
        var = sum((d - mean) ** 2 for d in diffs) / (worlds - 1)
        if var == 0.0 and mean == 0.0:
            continue  # the same in every world: either will do
        if mean <= SURE * math.sqrt(var / worlds):
            return False
    return True


def _card_order(card: Card) -> str:
    return card.text


def _distinct(moves: list[Move]) -> list[Move]:
    """Moves that differ in what they do (one of each card, colour, target)."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for m in moves:
        key = (m.kind, cards_of(m), m.color, m.target)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def rollout(world: GameState, player: int, first: Move, rnd: random.Random) -> float:
    """Apply `first` in `world`, play on quickly, and score it for `player`:
    1 for going out first, 0 for another seat, and when the depth runs out
    the share a hand's size gives (fewer cards, likelier to win)."""
    try:
        world, _ = apply(world, first, inplace=True)
    except MoveError:
        return 0.0
    pick = rnd.random
    for _ in range(DEPTH):
        if world.phase != PLAYING:
            break
        seat = world.turn
        moves = legal_moves(world, seat)
        if not moves:
            break
        move = quick(world, seat, moves, pick, seat == player and SMART_SELF)
        try:
            world, _ = apply(world, move, inplace=True)
        except MoveError:
            return 0.0
    if world.phase != PLAYING:
        return 1.0 if world.winner == player else 0.0
    weights = [math.exp(-0.45 * len(h)) if s not in world.out else 0.0 for s, h in enumerate(world.hands)]
    total = sum(weights)
    return weights[player] / total if total else 0.0


def quick(state: GameState, seat: int, moves: list[Move], pick: object, smart: bool = False) -> Move:
    """The rollouts' policy: cheap and sensible. UNO and catches first, a
    random card that is not a wild, a wild last (naming the colour held
    most), then draw or pass."""
    plain = []
    wild = None
    other = None
    for m in moves:
        kind = m.kind
        if kind in (UNO, CATCH):
            return m
        card = m.card
        if card is not None and is_play(m):
            if card.is_wild:
                if wild is None:
                    wild = m
            else:
                plain.append(m)
        elif kind in (DRAW, PASS) or other is None and kind != CHALLENGE:
            other = m
    if plain:
        if smart and len(plain) > 1:
            # the searching seat follows the colour it holds most, actions first
            counts: dict[str | None, int] = {}
            for c in state.hands[seat]:
                counts[c.color] = counts.get(c.color, 0) + 1
            return max(plain, key=lambda m: counts.get(m.card.color, 0) + (  # type: ignore[union-attr]
                2 if not m.card.is_number else 0) + pick())  # type: ignore[union-attr, operator]
        return plain[int(pick() * len(plain))]  # type: ignore[operator]
    if wild is not None:
        colour = best_colour(state.hands[seat], cards_of(wild))
        for m in moves:
            if m.card is wild.card and m.color == colour and m.kind == wild.kind:
                return m
        return wild
    return other if other is not None else moves[0]


def rollouts_per_second(variant: str = "official", players: int = 2, seconds: float = 2.0,
                        seed: int = 1) -> float:
    """How many rollouts `expert` makes a second from the positions of real
    games (for the README's figures)."""
    from ..engine import new_game

    expert = Expert(seconds=0.05)
    rnd = random.Random(seed)
    end = time.perf_counter() + seconds
    g = 0
    while time.perf_counter() < end:
        state, _ = new_game(variant, [f"p{i}" for i in range(players)], seed=seed * 1000 + g)
        g += 1
        while state.phase == PLAYING and time.perf_counter() < end:
            moves = legal_moves(state, state.turn)
            move = expert(state, state.turn, moves, rnd)
            state, _ = apply(state, move, inplace=True)
    return expert.made / expert.spent if expert.spent else 0.0


__all__ = ["Expert", "Hard", "Searching", "rollout", "quick", "default_seconds", "rollouts_per_second"]
