"""Property tests (hypothesis) for every shipped variant: whatever the seed
and whichever legal moves are chosen, the engine keeps its promises."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unobot.cards import Card, official_deck
from unobot.engine import apply, legal_moves, new_game
from unobot.errors import CODES, MoveError
from unobot.moves import CATCH, CHALLENGE, DRAW, PASS, PLAY, UNO, Move
from unobot.registry import REFUSALS, declared
from unobot.state import PLAYING, GameState

VARIANTS = ["official", "reglas-de-uno", "party", "fast"]
ALL_CARDS = sorted(set(official_deck()), key=lambda c: c.text)


def candidate_moves(state: GameState, player: int) -> list[Move]:
    """A broad sample of moves, legal or not, for the refusal property."""
    out = [Move(k, player) for k in (DRAW, PASS, UNO, CHALLENGE)]
    out += [Move(CATCH, player, target=t) for t in range(len(state.players))]
    for card in ALL_CARDS[::3]:
        out.append(Move(PLAY, player, card, "R" if card.is_wild else None))
    return out


def play_some(variant: str, players: int, seed: int, choices: list[int]
              ) -> tuple[GameState, GameState, list[Move]]:
    names = [f"p{i}" for i in range(players)]
    start, _ = new_game(variant, names, seed=seed)
    state = start
    made: list[Move] = []
    for pick in choices:
        if state.phase != PLAYING:
            break
        moves = legal_moves(state, state.turn)
        assert moves, "the player to move always has a legal move"
        move = moves[pick % len(moves)]
        state, _ = apply(state, move)
        made.append(move)
    return start, state, made


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6),
       choices=st.lists(st.integers(0, 1000), min_size=1, max_size=150))
def test_invariants_hold(variant: str, players: int, seed: int, choices: list[int]) -> None:
    start, state, _ = play_some(variant, players, seed, choices)
    assert Counter(state.all_cards()) == Counter(start.all_cards())
    if state.phase == PLAYING:
        assert 0 <= state.turn < players and state.turn not in state.out
        assert state.pending >= 0


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 1000), max_size=60))
def test_legal_moves_accepted_and_others_refused_with_a_code(variant: str, seed: int, choices: list[int]) -> None:
    _, state, _ = play_some(variant, 3, seed, choices)
    if state.phase != PLAYING:
        return
    for player in range(3):
        legal = set(legal_moves(state, player))
        for move in legal:
            apply(state, move)  # must not raise
        before = state.encode()
        for move in candidate_moves(state, player):
            if move in legal:
                continue
            try:
                apply(state, move)
            except MoveError as exc:
                # the engine's codes, or one a rule declares with its text (`Rule.refusals`)
                assert exc.code in CODES or declared(REFUSALS, exc.code) is not None, exc.code
            else:
                # Accepted though not listed: only a wild with another colour may differ.
                assert move.kind == PLAY and move.card.is_wild, move
            assert state.encode() == before, "a refused move changed the state"


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 1000), max_size=120))
def test_replay_gives_the_same_state(variant: str, seed: int, choices: list[int]) -> None:
    start, state, made = play_some(variant, 4, seed, choices)
    again = GameState.decode(start.encode())
    for move in made:
        again, _ = apply(again, move)
    assert again.to_dict() == state.to_dict()


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 1000), max_size=120))
def test_serialization_round_trips(variant: str, seed: int, choices: list[int]) -> None:
    _, state, _ = play_some(variant, 4, seed, choices)
    data = state.encode()
    back = GameState.decode(data)
    assert back.to_dict() == state.to_dict()
    assert back.encode() == data
    if state.phase == PLAYING:
        assert legal_moves(back, back.turn) == legal_moves(state, state.turn)


def test_four_player_state_is_compact() -> None:
    state, _ = new_game("party", ["ana", "ben", "cat", "dan"], seed=1)
    assert len(state.encode()) < 1024
    assert isinstance(state.hands[0][0], Card)
