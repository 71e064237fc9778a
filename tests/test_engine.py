"""Engine behaviour beyond the scenario files: purity, codes, determinism."""

from __future__ import annotations

import pytest

from tests.rulekit import table
from unobot.engine import apply, legal_moves, new_game, next_round
from unobot.errors import MoveError
from unobot.moves import parse_move
from unobot.simulate import simulate
from unobot.state import GameState, StateFormatError


def test_apply_does_not_change_its_input() -> None:
    state = table()
    before = state.encode()
    apply(state, parse_move("play R5", 0, state.players))
    assert state.encode() == before


def test_refusal_codes() -> None:
    state = table()
    for text, who, code in [
        ("play R5", 1, "not_your_turn"),
        ("play B9", 0, "not_in_hand"),
        ("play G7", 0, "does_not_fit"),
        ("pass", 0, "must_draw_first"),
        ("challenge", 0, "no_challenge"),
        ("catch ben", 0, "nothing_to_catch"),
        ("uno", 0, "uno_not_now"),
    ]:
        with pytest.raises(MoveError) as info:
            apply(state, parse_move(text, who, state.players))
        assert info.value.code == code, text


def test_same_seed_same_game() -> None:
    a = simulate("official", 3, 5, seed=9)
    b = simulate("official", 3, 5, seed=9)
    assert (a.moves, a.wins) == (b.moves, b.wins)
    c = simulate("official", 3, 5, seed=10)
    assert (c.moves, c.wins) != (a.moves, a.wins)


def test_next_round_rotates_dealer_and_keeps_scores() -> None:
    state = table(hands={"ana": "R5", "ben": "B1 W", "cat": "Y1"})
    state, _ = apply(state, parse_move("play R5", 0, state.players))
    assert state.phase == "round_over" and state.scores[0] == 52
    nxt, events = next_round(state)
    assert nxt.round == 2 and nxt.scores == state.scores and nxt.phase == "play"
    assert nxt.dealer == (state.dealer + 1) % 3
    assert sum(len(h) for h in nxt.hands) == 21 and len(nxt.all_cards()) == 108


def test_future_schema_is_refused() -> None:
    state, _ = new_game("official", ["a", "b"], seed=1)
    d = state.to_dict()
    d["s"] = 99
    with pytest.raises(StateFormatError):
        GameState.from_dict(d)
    with pytest.raises(StateFormatError):
        GameState.decode(b"not json")
    with pytest.raises(StateFormatError):
        GameState.decode(b'{"s": 1}')


def test_simulation_finishes_games_for_every_variant() -> None:
    for variant in ("official", "reglas-de-uno", "party", "fast"):
        report = simulate(variant, 4, 20, seed=3)
        assert report.games == 20 and sum(report.wins) + report.unfinished == 20
        assert report.unfinished == 0


def test_legal_moves_empty_after_round() -> None:
    state = table(hands={"ana": "R5", "ben": "B1", "cat": "Y1"})
    state, _ = apply(state, parse_move("play R5", 0, state.players))
    assert legal_moves(state, 1) == []
    with pytest.raises(MoveError) as info:
        apply(state, parse_move("draw", 1, state.players))
    assert info.value.code == "round_over"


def test_a_jump_in_the_rules_refuse_is_not_offered() -> None:
    """RULES.md §6, out of turn too: jump-in offers a play only when the whole
    rule set accepts it. With no-action-finish, a last Reverse may not jump in
    (the simulator once picked it from the legal moves and had it refused)."""
    rules = {"jump-in": {"wilds": True, "onto_pending": True}, "no-action-finish": True}
    state = table(hands={"ana": "G5 G6", "ben": "Y1 Y2", "cat": "BR"}, discard="BR", turn="ana",
                  overrides=rules)
    assert not [m for m in legal_moves(state, 2) if m.kind == "play"]
    with pytest.raises(MoveError) as refused:
        apply(state, parse_move("play BR", 2, state.players))
    assert refused.value.code == "no_action_finish"
    # with a card to spare, the same jump-in is offered and accepted
    state = table(hands={"ana": "G5 G6", "ben": "Y1 Y2", "cat": "BR G1"}, discard="BR", turn="ana",
                  overrides=rules)
    jumps = [m for m in legal_moves(state, 2) if m.kind == "play"]
    assert [m.text for m in jumps] == ["play BR"]
    after, _ = apply(state, jumps[0])
    assert after.hands[2] == [parse_move("play G1", 2, state.players).card]
