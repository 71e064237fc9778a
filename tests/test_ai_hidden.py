"""No AI level knows a hidden card: its decision is the same when the cards
it cannot see (the others' hands, the draw pile) are dealt differently,
each seat keeping its count.

Positions come from real games of rich variants; each is asked twice of a
fresh player with the same random generator, once as it is and once with
the hidden cards shuffled among the hidden places.
"""

from __future__ import annotations

import random

import pytest

from unobot.ai import Expert, new_player
from unobot.engine import apply, legal_moves, new_game
from unobot.moves import Move
from unobot.state import PLAYING, GameState


def rearranged(state: GameState, player: int, rnd: random.Random) -> GameState:
    """The same position with the hidden cards dealt again (same counts)."""
    other = state.clone()
    hidden = [c for s, h in enumerate(state.hands) if s != player for c in h] + list(state.draw_pile)
    rnd.shuffle(hidden)
    for s, h in enumerate(state.hands):
        if s != player:
            other.hands[s] = hidden[:len(h)]
            hidden = hidden[len(h):]
    other.draw_pile = hidden
    return other


def positions(variant: str, players: int, seed: int, every: int = 3) -> list[GameState]:
    """Positions with a choice to make, from a few games."""
    rnd = random.Random(seed)
    normal = new_player("normal")
    found = []
    for game in range(4):
        state, _ = new_game(variant, [f"p{i}" for i in range(players)], seed=seed + game)
        n = 0
        while state.phase == PLAYING and n < 400:
            moves = legal_moves(state, state.turn)
            if n % every == 0 and sum(m.card is not None for m in moves) >= 2:
                found.append(state.clone())
            state, _ = apply(state, normal(state, state.turn, moves, rnd))
            n += 1
    return found


def decide(level: str, state: GameState, player: int, moves: list[Move]) -> Move:
    """A fresh player's choice, with the same random generator every time."""
    ai = Expert(rollouts=12) if level == "expert" else new_player(level)
    return ai(state, player, list(moves), random.Random(5))


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
@pytest.mark.parametrize(("variant", "players"), [("official", 2), ("party", 4), ("no-mercy", 3)])
def test_decision_ignores_hidden_cards(level: str, variant: str, players: int) -> None:
    shuffler = random.Random(99)
    checked = 0
    for state in positions(variant, players, seed=7)[:16]:
        player = state.turn
        moves = legal_moves(state, player)

        first = decide(level, state, player, moves)
        for _ in range(2):
            assert decide(level, rearranged(state, player, shuffler), player, moves) == first
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_who_plays_next_is_weighed_without_a_hidden_card(level: str) -> None:
    """Four seats, an opponent down to one or two cards: `hard` weighs how
    likely the seat it hands the turn to can follow (core/ai/heuristics.py,
    `handing_risk`), from the unseen cards and what that seat was seen to
    lack, never from its hand."""
    shuffler = random.Random(98)
    found = [s for s in positions("official", 4, seed=21, every=1)
             if any(len(h) <= 2 for p, h in enumerate(s.hands) if p != s.turn)]
    assert len(found) >= 8
    for state in found[:24]:
        player = state.turn
        moves = legal_moves(state, player)
        first = decide(level, state, player, moves)
        for _ in range(2):
            assert decide(level, rearranged(state, player, shuffler), player, moves) == first
