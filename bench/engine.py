"""Engine benchmark: random play, official rules, 4 players, against RLCard's
UnoGame (pip install rlcard==1.2.0) measured side by side in the same run.

    .venv/bin/python bench/engine.py [--seconds 10] [--json]

Both sides pick uniformly among their legal moves with a seeded generator,
the same way (`moves[int(rnd.random() * len(moves))]`, as unobot's random
policy does).
Rules differ (RLCard offers no voluntary draw, no UNO call, no challenge, so
its random games are far shorter); moves/s is the fair figure, games/s is
printed for completeness. Two workloads for unobot:

- `random`: uniform over unobot's legal moves (drawing with a playable card
  is legal under the official rules, so random games run long);
- `random-play`: uniform over plays when there is one, else draw/pass,
  which is RLCard's action set (in unobot's official rules);
- `rlcard-rules`: games of RLCard's shape, in its rules as bench/ai.py
  plays them (`RLCARD_RULES` of bench/rlcard_rule.py: must-play, so no
  voluntary draw; force-play, so a drawn card that fits is played, as
  RLCard's draw action does; no bluffing, no challenge, no UNO call),
  uniform over the legal moves as RLCard's side is. One difference is
  left: RLCard keeps a drawn card that matches the target by rank only
  (its `_perform_draw_action` plays only a wild or the target's colour),
  which force-play plays. Its games run some 57 moves to RLCard's 49: the
  play of a drawn card is a move of its own here (RLCard plays it within
  the draw action), so games/s is the figure issue #23 asks for;
- `simulate`: what `unobot simulate --variant official --players 4 --policy
  random --out-of-turn 0` runs (the simulator with its invariant checks,
  out-of-turn moves off so that the moves counted are the same kind as
  RLCard's);
- `simulate-oot`: the same command with its default `--out-of-turn 0.5`:
  after each move the other seats may say UNO or catch, and the time spent
  asking them counts, while only the turn's own moves are counted as moves.

unobot applies moves in place (`apply(..., inplace=True)`, as the
simulator and the chat service do; the default copy-on-apply costs about
2 µs more a move). Each side alternates in rounds of `--slice` seconds so noise on this shared
machine hits both alike; the ratio is ours / RLCard's.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rlcard_rule import RLCARD_RULES  # noqa: E402

from unobot.engine import apply, legal_moves, new_game  # noqa: E402
from unobot.moves import PLAY  # noqa: E402


def ours(policy: str, seconds: float, seed: int) -> tuple[int, int, float]:
    rnd = random.Random(seed)
    names = ["a", "b", "c", "d"]
    games = moves = 0
    spent = 0.0
    g = 0
    overrides = RLCARD_RULES if policy == "rlcard-rules" else None
    while spent < seconds:
        state, _ = new_game("official", names, seed=seed * 7919 + g, dealer=g % 4, overrides=overrides)
        g += 1
        t0 = time.perf_counter()
        n = 0
        while state.phase == "play" and n < 20000:
            legal = legal_moves(state, state.turn)
            if policy == "random-play":
                plays = [m for m in legal if m.kind == PLAY]
                legal = plays or legal
            state, _ = apply(state, legal[int(rnd.random() * len(legal))], inplace=True)
            n += 1
        spent += time.perf_counter() - t0
        games += 1
        moves += n
    return games, moves, spent


def through_simulate(seconds: float, seed: int, out_of_turn: float = 0.0) -> tuple[int, int, float]:
    from unobot.simulate import simulate

    games = moves = 0
    spent = 0.0
    g = 0
    while spent < seconds:
        report = simulate("official", 4, 1, seed * 7919 + g, out_of_turn=out_of_turn)
        g += 1
        games += report.games
        moves += report.moves
        spent += report.seconds
    return games, moves, spent


def rlcard_side(seconds: float, seed: int) -> tuple[int, int, float]:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(allow_step_back=False, num_players=4)
    game.np_random = np.random.RandomState(seed)
    rnd = random.Random(seed)
    games = moves = 0
    spent = 0.0
    while spent < seconds:
        game.init_game()
        t0 = time.perf_counter()
        n = 0
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[int(rnd.random() * len(legal))])
            n += 1
        spent += time.perf_counter() - t0
        games += 1
        moves += n
    return games, moves, spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per side and workload")
    parser.add_argument("--slice", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        import rlcard  # noqa: F401
    except ImportError:
        print("rlcard is not installed: pip install rlcard==1.2.0 (or: python3 run.py bench bench/engine.py)")
        return 2
    workloads = ("random", "random-play", "rlcard-rules", "simulate", "simulate-oot")
    totals = {k: [0, 0, 0.0] for k in ("rlcard", *workloads)}
    rounds = max(1, int(args.seconds / args.slice))
    for r in range(rounds):
        for name in totals:
            if name == "rlcard":
                res = rlcard_side(args.slice, args.seed + r)
            elif name == "simulate":
                res = through_simulate(args.slice, args.seed + r)
            elif name == "simulate-oot":
                res = through_simulate(args.slice, args.seed + r, out_of_turn=0.5)
            else:
                res = ours(name, args.slice, args.seed + r)
            for i in range(3):
                totals[name][i] += res[i]
    out = {}
    for name, (games, moves, spent) in totals.items():
        out[name] = {"games": games, "moves": moves, "seconds": round(spent, 3),
                     "moves_per_s": round(moves / spent), "games_per_s": round(games / spent, 1),
                     "avg_moves": round(moves / games, 1)}
    base = out["rlcard"]
    for name in workloads:
        out[name]["moves_ratio"] = round(out[name]["moves_per_s"] / base["moves_per_s"], 2)
        out[name]["games_ratio"] = round(out[name]["games_per_s"] / base["games_per_s"], 2)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{'side':14} {'moves/s':>10} {'games/s':>9} {'moves/game':>11} {'x moves/s':>10} {'x games/s':>10}")
    for name, d in out.items():
        print(f"{name:14} {d['moves_per_s']:>10} {d['games_per_s']:>9} {d['avg_moves']:>11} "
              f"{d.get('moves_ratio', 1.0):>10} {d.get('games_ratio', 1.0):>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
