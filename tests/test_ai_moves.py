"""AI seats play every kind of legal action, plugin moves included.

A level that never chose some kind of move would leave a rule half-played
at an AI table (a 7-0 swap never aimed, a jump-in never taken, a plugin's
multi-play never used). Whole matches of every shipped variant, with a
seat of each level and out-of-turn chances, record every kind of move
offered to an AI seat and every kind it chose; each kind offered (save the
moves only the chat makes, such as a round clock's) must have been chosen,
and every choice must be one of the moves offered.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from unobot.ai import Expert, Level, new_player
from unobot.ai.heuristics import system_kinds
from unobot.events import Event
from unobot.moves import Move
from unobot.simulate import simulate
from unobot.state import GameState
from unobot.variants import variant_names


def kind_of(state: GameState, move: Move) -> str:
    """A move's kind as the rules see it: a play aimed at a seat, a play of
    several cards and a move out of turn count as kinds of their own."""
    kind = move.kind
    if move.target is not None:
        kind += "+target"
    if move.cards:
        kind += "+cards"
    if move.player != state.turn:
        kind += " out of turn"
    return kind


class Recorded:
    """An AI seat whose offered and chosen kinds of move are recorded."""

    def __init__(self, player: Level, offered: set[str], chosen: set[str]) -> None:
        self.player, self.offered, self.chosen = player, offered, chosen

    def observe(self, state: GameState, move: Move, events: list[Event], colour: str | None,
                pending: int) -> None:
        self.player.observe(state, move, events, colour, pending)

    def __call__(self, state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
        chosen = self.player(state, player, moves, rnd)
        assert chosen in moves, (chosen, moves)
        system = system_kinds(state)
        self.offered.update(kind_of(state, m) for m in moves if m.kind not in system)
        self.chosen.add(kind_of(state, chosen))
        return chosen


def test_every_kind_of_legal_move_is_played_by_the_ai() -> None:
    offered: set[str] = set()
    chosen: set[str] = set()
    for variant in sorted(variant_names()):
        for seed in (1, 2):
            seats = [Recorded(p, offered, chosen) for p in (
                new_player("easy"), new_player("normal"), new_player("hard"), Expert(rollouts=4))]
            report = simulate(variant, 4, 1, seed, seats, check=True, match=True,  # type: ignore[arg-type]
                              out_of_turn=0.5, max_rounds=6)
            assert report.unfinished == 0
    assert {"play", "draw", "pass", "uno", "catch+target out of turn", "challenge", "color",
            "play+target", "multi+cards", "play out of turn"} <= offered  # the variants offer these (so the check is not empty)
    assert offered - chosen == set()


@pytest.mark.parametrize("variant", sorted(variant_names()))
def test_unobot_simulate_plays_a_whole_match_at_every_level(variant: str, tmp_path: Path) -> None:
    """`unobot simulate --match`, a whole AI-only match of the variant for
    each level (every seat that level, the engine's invariants checked each
    move), then one with a seat of each level. `expert` thinks 0.01 s a
    move here (the config's `game.ai_seconds`): the same code at a smaller
    budget."""
    config = tmp_path / "config.yaml"
    config.write_text("game:\n  ai_seconds: 0.01\n")
    env = {**os.environ, "UNOBOT_CONFIG": str(config)}
    runs = [("2", level) for level in ("easy", "normal", "hard", "expert")]
    runs.append(("4", "easy,normal,hard,expert"))
    for players, level in runs:
        out = subprocess.run(
            [sys.executable, "-m", "unobot.cli", "simulate", "--variant", variant, "--players", players,
             "--games", "1", "--match", "--level", level, "--json"],
            capture_output=True, text=True, timeout=300, env=env)
        assert out.returncode == 0, (level, out.stderr[-2000:])
        data = json.loads(out.stdout.strip().splitlines()[-1])
        assert data["games"] == 1 and data["unfinished"] == 0 and sum(data["match_wins"]) == 1, (level, data)


def test_an_ai_with_no_play_takes_a_plugin_move_that_ends_its_turn_for_free_over_a_draw() -> None:
    """A rule's cardless move that passes the turn on (a knock) costs no card;
    the draw left otherwise costs one. Each level above `easy` takes the knock;
    with a card that fits, it plays the card; after a draw, it passes."""
    from tests.rulekit import extra_rule, table
    from unobot import Rule, hookimpl
    from unobot.engine import legal_moves
    from unobot.events import TURN

    class Knock(Rule):
        name = "knock-for-a-test"
        move_kinds = {"knock": "Knock"}

        @hookimpl
        def extra_moves(self, state: GameState, player: int) -> list[Move]:
            return [Move("knock", player)] if player == state.turn and state.drawn is None else []

        @hookimpl
        def check_move(self, state: GameState, move: Move) -> bool | None:
            return (move.player == state.turn) if move.kind == "knock" else None

        @hookimpl
        def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
            if move.kind != "knock":
                return None
            state.turn = state.rules.next_turn(state, state.turn, 0)
            events.append(Event(TURN, state.turn))
            return True

    with extra_rule(Knock):
        stuck = table(hands={"ana": "G5 B7 Y8", "ben": "B+2 G3 Y9", "cat": "Y7 G9 B1"}, discard="R3",
                      overrides={"knock-for-a-test": {}})
        fits = table(hands={"ana": "R5 B7 Y8", "ben": "B+2 G3 Y9", "cat": "Y7 G9 B1"}, discard="R3",
                     overrides={"knock-for-a-test": {}})
        for level in ("normal", "hard", "expert"):
            moves = legal_moves(stuck, 0)
            assert {m.kind for m in moves} >= {"knock", "draw"}
            assert new_player(level)(stuck, 0, moves, random.Random(1)).kind == "knock", level
            chosen = new_player(level)(fits, 0, legal_moves(fits, 0), random.Random(1))
            assert chosen.kind == "play" and chosen.card is not None and chosen.card.text == "R5", level


def test_simulate_budget_sets_experts_time_per_move() -> None:
    """`--budget` gives expert its time per move on the command line (a whole expert
    match at the config's 0.2 s a move takes minutes); nonsense is refused."""
    base = [sys.executable, "-m", "unobot.cli", "simulate", "--players", "2", "--games", "1", "--match",
            "--level", "expert", "--seed", "3", "--json"]
    out = subprocess.run([*base, "--budget", "0.005"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data["games"] == 1 and data["unfinished"] == 0 and sum(data["match_wins"]) == 1
    bad = subprocess.run([*base, "--budget", "0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--budget" in bad.stderr
