"""AI levels: each beats the one below it; every level plays every shipped
variant's whole match clean, through the engine's legal moves.

Two-player games, each pairing played from both seats with fixed seeds
(deterministic), so the figures are the same on every run. (The strength
against RLCard's agent is bench/ai.py's, too slow for the suite.)
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from unobot.ai import ALIASES, LEVELS, POLICIES, Expert, level_name, new_player
from unobot.simulate import random_policy, simulate
from unobot.variants import variant_names


def win_rate(a: str, b: str, variant: str, games: int) -> float:
    pa, pb = new_player(a), new_player(b)
    first = simulate(variant, 2, games, 11, [pa, pb], check=False)
    second = simulate(variant, 2, games, 12, [pb, pa], check=False)
    won = first.wins[0] + second.wins[1]
    lost = first.wins[1] + second.wins[0]
    return won / (won + lost)


def test_levels_and_their_old_names() -> None:
    assert LEVELS == ("easy", "normal", "hard", "expert")
    assert ALIASES == {"random": "easy", "basic": "normal", "strong": "hard"}
    for alias, level in ALIASES.items():
        assert POLICIES[alias] is POLICIES[level]
    assert level_name(None) == level_name("nonsense") == "normal"
    assert level_name("strong") == "hard"


@pytest.mark.parametrize("variant", ["official", "party"])
def test_normal_beats_easy(variant: str) -> None:
    assert win_rate("normal", "easy", variant, 400) > 0.5  # easy slips, but not often: it still beats RLCard's agent


def test_easy_beats_uniform_random() -> None:
    easy = new_player("easy")
    first = simulate("official", 2, 200, 11, [easy, random_policy], check=False)
    second = simulate("official", 2, 200, 12, [random_policy, easy], check=False)
    assert (first.wins[0] + second.wins[1]) / 400 > 0.8


@pytest.mark.parametrize("variant", sorted(variant_names()))
def test_every_level_plays_a_whole_match_clean(variant: str) -> None:
    """A match of the variant with a seat of each level (and out-of-turn
    moves), invariants checked every move: only legal moves, nothing stuck."""
    players = [new_player("easy"), new_player("normal"), new_player("hard"), Expert(rollouts=4)]
    report = simulate(variant, 4, 1, 3, players, check=True, match=True, out_of_turn=0.5, max_rounds=40)
    assert report.games == 1 and report.unfinished == 0 and report.rounds >= 1


def test_simulate_command_plays_matches_at_a_level() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "unobot.cli", "simulate", "--variant", "party", "--players", "3",
         "--games", "2", "--match", "--level", "easy,hard,normal", "--json"],
        capture_output=True, text=True, timeout=120, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data["games"] == 2 and data["unfinished"] == 0 and sum(data["match_wins"]) == 2
    assert data["policy"] == "easy,hard,normal"  # the levels played, not --policy's default "random"


def test_unknown_level_is_refused_by_simulate() -> None:
    out = subprocess.run([sys.executable, "-m", "unobot.cli", "simulate", "--level", "genius"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "unknown policy 'genius'" in out.stderr


def test_a_multi_play_of_twins_is_scored_without_a_crash() -> None:
    """Twins in one multi-play (R5 R5 of R5 R5 R5) leave the rest of the hand one copy
    of each: scoring used to drop every copy and read past the end (IndexError)."""
    from tests.rulekit import table as dealt
    from unobot.ai import LEVELS, POLICIES
    from unobot.engine import legal_moves

    state = dealt(hands={"ana": "R5 R5 R5", "ben": "B+2 G3 Y9", "cat": "Y7 G9 B1"}, discard="R3",
                  overrides={"multi-play": {}})
    moves = legal_moves(state, 0)
    assert any(len(m.cards) >= 1 and m.kind not in ("play", "draw") for m in moves)  # the twins' multi-play
    for level in LEVELS:
        assert POLICIES[level](state, 0, moves, random.Random(1)) in moves


def test_only_easy_gambles_a_wild_draw_four_while_holding_the_colour() -> None:
    from tests.rulekit import table as dealt
    from unobot.ai import POLICIES
    from unobot.engine import legal_moves

    state = dealt(hands={"ana": "W+4 R9 B2 B3", "ben": "G2 Y6"}, discard="R5", players=("ana", "ben"))
    plays = [m for m in legal_moves(state, 0) if m.kind == "play"]
    for level, bluffs in (("easy", True), ("normal", False), ("hard", False)):
        best = max(POLICIES[level].score_plays(state, 0, plays), key=lambda sm: sm[0])[1]
        assert (best.card is not None and best.card.text == "W+4") is bluffs, level


def test_hard_does_not_hand_the_turn_to_a_seat_about_to_go_out() -> None:
    """Four seats, the one before `ana` (`dan`) down to one card: a Reverse
    would turn play back to it. `normal` dumps the Reverse's points on a
    player close to out; `hard` weighs who plays next and how likely that
    seat can follow, and plays the number card that hands the turn to `ben`
    (five cards) instead."""
    from tests.rulekit import table as dealt
    from unobot.ai import new_player
    from unobot.ai.heuristics import seat_after
    from unobot.cards import parse_card
    from unobot.engine import legal_moves

    players = ("ana", "ben", "cat", "dan")
    state = dealt(hands={"ana": "RR R4 G9 Y1", "ben": "B1 B2 B3 G1 G2", "cat": "Y2 Y3 Y4 G3", "dan": "G6"},
                  draw="R1 R2 R3 R6 R7 R8 R9 RS W W+4 B5 Y5",
                  discard="R5", players=players)
    assert seat_after(state, 0, parse_card("RR")) == 3
    assert seat_after(state, 0, parse_card("RS")) == 2
    assert seat_after(state, 0, parse_card("R4")) == 1
    plays = [m for m in legal_moves(state, 0) if m.kind == "play"]
    picked = {}
    for level in ("normal", "hard"):
        player = new_player(level)  # a fresh memory: nothing learnt at another table
        player.memory.sync(state)
        best = max(player.score_plays(state, 0, plays), key=lambda sm: sm[0])[1]
        assert best.card is not None
        picked[level] = best.card.text
    assert picked == {"normal": "RR", "hard": "R4"}
