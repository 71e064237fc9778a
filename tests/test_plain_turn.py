"""The plain turn (core/plain_turn.py): the engine's fast path gives exactly
what the hooks give.

Every position of many random games is listed and applied twice, once by a
rule set that takes the fast path and once by a copy of it that may not
(`plain_turn = False`, every turn through the hooks): the legal moves, the
events and the whole state after every move must be equal. And the path is
taken only when every rule that could have a say promised to have none.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

import pytest

from unobot import Event, GameState, Move, Rule, hookimpl
from unobot.engine import apply, legal_moves, new_game, timeout
from unobot.plain_turn import PLAIN_RULES, PlainMoves, is_plain
from unobot.ruleset import RuleSet
from unobot.state import PLAYING
from unobot.variants import rules_for

#: Rule sets on which the fast path stays on: official, with house rules that
#: touch none of the plain turn's hooks (scoring, places, seat order, rounds).
PLAIN_SETS: list[tuple[str, dict[str, Any] | None]] = [
    ("official", None),
    ("official", {"one-winner": {"places": True}}),
    ("official", {"progressive-scoring": True}),
    ("official", {"card-effects": {"two_player_reverse_skips": False}}),
    ("official", {"uno-call": {"penalty": 4}, "challenge": False}),
    ("official", {"uno-call": False}),
    # house rules whose hooks no plain turn asks (a clock, scores, match rules, a false UNO)
    ("official", {"blitz": True, "elimination": True}),
    ("official", {"false-uno": True, "double-score": True}),
    ("official", {"teams": True}),
    # must-play's only say in a plain turn (no draw while a card fits), and
    # RLCard's rules as bench/ plays them: no-bluffing refuses cards for a
    # whole hand at once (`keep_fitting`), which the slow side asks card by card
    ("official", {"must-play": True}),
    ("official", {"must-play": True, "no-bluffing": True, "challenge": False, "uno-call": False,
                  "card-effects": {"two_player_reverse_skips": False}}),
    ("official", {"no-bluffing": True, "challenge": False}),
    # force-play's only say (no pass after drawing a card that fits), alone
    # and in RLCard's rules, where RLCard plays a drawn card that fits
    ("official", {"force-play": True}),
    ("official", {"force-play": True, "must-play": True, "no-bluffing": True, "challenge": False,
                  "uno-call": False, "card-effects": {"two_player_reverse_skips": False}}),
]


def slow_copy(rules: RuleSet) -> RuleSet:
    """The same rule set with the fast path off: every turn through the hooks."""
    slow = copy.copy(rules)
    slow.plain_turn = False
    slow.cards_that_fit = slow._fitting  # card_fits asked card by card, through the hooks
    return slow


def with_rules(state: GameState, rules: RuleSet) -> GameState:
    twin = state.clone()
    twin.rules = rules
    return twin


def texts(moves: list[Move]) -> list[str]:
    return [f"{m.player} {m.text}" for m in moves]


def play_both_ways(variant: str, overrides: dict[str, Any] | None, players: int, seed: int,
                   limit: int = 400) -> tuple[int, int]:
    """Play one random game, comparing fast and slow at every step; return
    (positions compared, of which plain)."""
    rnd = random.Random(seed)
    state, _ = new_game(variant, [f"p{i}" for i in range(players)], seed=seed, overrides=overrides,
                        dealer=seed % players)
    fast = state.rules
    assert fast.plain_turn
    slow = slow_copy(fast)
    compared = plain = 0
    for _ in range(limit):
        if state.phase != PLAYING:
            break
        seat = state.turn
        if rnd.random() < 0.1:  # now and then someone else moves (UNO, a catch)
            others = [s for s in state.active() if s != seat and legal_moves(state, s)]
            if others:
                seat = rnd.choice(others)
        a, b = with_rules(state, fast), with_rules(state, slow)
        for other in state.active():  # out of turn too
            if other != seat:
                assert texts(legal_moves(a, other)) == texts(legal_moves(b, other))
        fast_moves, slow_moves = legal_moves(a, seat), legal_moves(b, seat)
        assert texts(fast_moves) == texts(slow_moves), f"legal moves differ at move {state.moves}"
        assert not isinstance(slow_moves, PlainMoves)
        assert isinstance(fast_moves, PlainMoves) == is_plain(state, seat)
        plain += isinstance(fast_moves, PlainMoves)
        if rnd.random() < 0.02:
            a2, ea = timeout(a)
            b2, eb = timeout(b)
        else:
            pick = rnd.randrange(len(fast_moves))
            # each side applies its own listed object (the fast path trusts only those)
            a2, ea = apply(a, fast_moves[pick], inplace=rnd.random() < 0.5)
            b2, eb = apply(b, slow_moves[pick])
        assert ea == eb, f"events differ at move {state.moves}: {ea} != {eb}"
        assert a2.to_dict() == b2.to_dict(), f"states differ after move {state.moves}"
        compared += 1
        state = a2
    return compared, plain


@pytest.mark.parametrize(("variant", "overrides"), PLAIN_SETS)
@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_fast_path_gives_what_the_hooks_give(variant: str, overrides: dict[str, Any] | None,
                                                 players: int) -> None:
    compared = plain = 0
    for seed in range(30):  # six games at least; more where rounds are short (must-play)
        if seed >= 6 and compared > 600:
            break
        c, p = play_both_ways(variant, overrides, players, seed)
        compared += c
        plain += p
    assert compared > 500
    assert plain > compared // 3, "the fast path was hardly taken: nothing was compared"


def test_official_takes_the_fast_path_and_house_rules_that_have_a_say_turn_it_off() -> None:
    assert rules_for("official").plain_turn
    # force-play's one say (no pass after drawing a card that fits) is the fast path's own
    assert rules_for("official", {"force-play": True}).plain_force_play
    assert not rules_for("official").plain_force_play
    # must-play's one say (no draw while a card fits) is the fast path's own
    assert rules_for("official", {"must-play": True}).plain_must_play
    assert not rules_for("official", {"seven-o": True}).plain_turn
    assert not rules_for("official", {"random-colour": True}).plain_turn  # on_wild
    # a shared rule the plain turn stands for, turned off: the hooks again
    assert not rules_for("official", {"card-effects": False}).plain_turn


@dataclass(frozen=True)
class _NoOptions:
    pass


class Quiet(Rule):
    """A rule with an after_move that does nothing in a plain turn, and says so."""

    name = "quiet-after"
    plain_turn = True
    seen: list[int] = []

    @hookimpl
    def after_move(self, state: GameState, move: Move, events: list[Event]) -> None:
        if not state.hands[move.player]:
            self.seen.append(move.player)


class Loud(Quiet):
    name = "loud-after"
    plain_turn = False


def test_a_third_party_rule_keeps_the_fast_path_by_its_promise() -> None:
    base = rules_for("official")
    enabled = [(type(rule), rule.options) for rule in base.rules.values()]
    assert RuleSet("t", [*enabled, (Quiet, Quiet.Options())]).plain_turn
    assert not RuleSet("t", [*enabled, (Loud, Loud.Options())]).plain_turn
    assert set(PLAIN_RULES) <= set(base.rules)


def test_a_plain_turn_lists_its_moves_for_apply_and_an_action_card_takes_the_hooks() -> None:
    state, _ = new_game("official", ["a", "b", "c"], seed=11)
    rnd = random.Random(2)
    kinds: set[str] = set()
    for _ in range(300):
        if state.phase != PLAYING:
            break
        moves = legal_moves(state, state.turn)
        if isinstance(moves, PlainMoves):
            kinds.update(m.kind for m in moves)
            # what a plain turn offers: plays, then draw or pass, then UNO with
            # two cards, then a catch of who forgot it
            tail = [m.kind for m in moves if m.kind != "play"]
            assert tail[0] in ("draw", "pass")
            assert tail[1:] in ([], ["uno"], ["catch"], ["uno", "catch"])
            assert ("uno" in tail) == (len(state.hands[state.turn]) == 2 and not state.said_uno(state.turn))
            assert ("catch" in tail) == (state.exposed >= 0)
            assert all(m.kind == "play" for m in moves[:len(moves) - len(tail)])
        state, _ = apply(state, moves[rnd.randrange(len(moves))])
    assert {"play", "draw", "pass", "uno", "catch"} <= kinds


@pytest.mark.parametrize(("variant", "overrides"), PLAIN_SETS[:3])
def test_the_simulator_asks_the_other_seats_whenever_one_has_a_move(
        variant: str, overrides: dict[str, Any] | None) -> None:
    """The simulator's cheap test of "may anyone move out of turn now?" (exact
    under plain rules) never says no while a seat other than the turn's has a
    legal move: the out-of-turn rules are exercised whenever they can be."""
    from unobot.simulate import _may_act_out_of_turn

    asked = 0
    for seed in range(8):
        rnd = random.Random(seed)
        state, _ = new_game(variant, ["a", "b", "c", "d"], seed=seed, overrides=overrides)
        for _ in range(300):
            if state.phase != PLAYING:
                break
            others = any(legal_moves(state, s) for s in state.active() if s != state.turn)
            may = _may_act_out_of_turn(state)
            assert may or not others, f"a seat could move out of turn at move {state.moves}"
            asked += others
            seat = state.turn
            if others and rnd.random() < 0.3:
                seat = next(s for s in state.active() if s != state.turn and legal_moves(state, s))
            moves = legal_moves(state, seat)
            state, _ = apply(state, moves[rnd.randrange(len(moves))])
    assert asked > 20


#: Rule sets whose plays are checked, targeted or stacked for a whole hand at
#: once (`RuleSet.keep_plays`, `targets_of`, `cards_stackable`: draw-to-match,
#: seven-o, value-stacking, stacking).
BATCH_SETS: list[tuple[str, dict[str, Any] | None]] = [
    ("no-mercy", None),
    ("no-mercy", {"mercy": {"limit": 200}, "seven-o": {"mandatory": False}}),
    ("official", {"seven-o": True, "draw-to-match": {"may_stop_early": True}}),
    ("official", {"stacking": {"draw_four_on_draw_four": True, "draw_four_on_draw_two": True,
                               "draw_two_on_draw_four": True}, "challenge": False}),
]


@pytest.mark.parametrize(("variant", "overrides"), BATCH_SETS)
def test_the_batch_forms_give_what_the_hooks_give(variant: str, overrides: dict[str, Any] | None) -> None:
    """A hand's plays listed with the rules' batch forms are those listed card
    by card through the hooks, in the same order, at every position of
    random games (big hands too: penalties pile up in no-mercy)."""
    batched = rules_for(variant, overrides)
    assert batched.targets_of is not None and (batched.keep_plays or batched.cards_stackable)
    card_by_card = copy.copy(batched)
    card_by_card.keep_plays = None
    card_by_card.targets_of = None
    card_by_card.cards_stackable = None
    compared = 0
    for seed in range(40):
        if compared > 1500:
            break
        rnd = random.Random(seed)
        state, _ = new_game(variant, [f"p{i}" for i in range(4)], seed=seed, overrides=overrides)
        for _ in range(300):
            if state.phase != PLAYING:
                break
            a, b = with_rules(state, batched), with_rules(state, card_by_card)
            moves = legal_moves(a, state.turn)
            assert texts(moves) == texts(legal_moves(b, state.turn)), f"moves differ at move {state.moves}"
            compared += 1
            state, _ = apply(state, moves[rnd.randrange(len(moves))])
    assert compared > 1500
