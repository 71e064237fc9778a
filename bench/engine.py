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

`--per-move` measures something else: what one move costs (`legal_moves`
and `apply` of a uniformly chosen legal move, in place) in a rich variant
(`no-mercy`) against `official`, in the same run, on positions of random
four-player games: with short hands (7 cards or fewer, as dealt) and with
long ones (the player to move holding 52 cards, made up to that from the
bottom of the draw pile in the first moves of a round). No Mercy plays with
mercy's limit raised to 200 cards in this mode, or no hand could pass 25.
It prints microseconds a move and the ratio to official's (issue #23: the
cost of a rich variant's move, flat as hands grow), and beside them the
cards a move moves (played, drawn, taken as penalties) over the same moves,
with the cost a card moved: a No Mercy move moves more cards (a draw goes
on until a card fits, stacked penalties are taken at once), so the cost a
card says how much of the ratio is the engine's and how much the rules'.

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
from unobot.state import PLAYING, GameState  # noqa: E402


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


#: The hand of the player to move in `--per-move`'s long-hand positions.
LONG_HAND = 52
PER_MOVE_VARIANTS: dict[str, dict[str, object] | None] = {
    "official": None,
    "no-mercy": {"mercy": {"limit": 200}},  # else a hand of 25 is out of the round
}


def move_positions(variant: str, overrides: dict[str, object] | None, long: bool, count: int,
                   seed: int) -> list[GameState]:
    """`count` positions of random four-player games with the player to move
    holding 7 cards or fewer (`long=False`), or padded to LONG_HAND cards
    from the bottom of the draw pile (`long=True`: the first moves of a
    round, while the pile has the cards)."""
    rnd = random.Random(seed)
    out: list[GameState] = []
    g = 0
    while len(out) < count:
        state, _ = new_game(variant, ["a", "b", "c", "d"], seed=seed * 7919 + g, dealer=g % 4,
                            overrides=overrides)
        g += 1
        for _ in range(30):
            if state.phase != PLAYING or len(out) >= count:
                break
            seat = state.turn
            size = len(state.hands[seat])
            if long:
                need = LONG_HAND - size
                if len(state.draw_pile) - need >= 10:
                    padded = state.clone()
                    padded.hands[seat].extend(padded.draw_pile[:need])
                    del padded.draw_pile[:need]
                    out.append(padded)
            elif size <= 7:
                out.append(state.clone())
            legal = legal_moves(state, seat)
            state, _ = apply(state, legal[int(rnd.random() * len(legal))], inplace=True)
    return out


def time_moves(positions: list[GameState], rnd: random.Random) -> float:
    """Seconds to list the legal moves of each position and apply one."""
    states = [p.clone() for p in positions]
    t0 = time.perf_counter()
    for state in states:
        legal = legal_moves(state, state.turn)
        apply(state, legal[int(rnd.random() * len(legal))], inplace=True)
    return time.perf_counter() - t0


def cards_moved(positions: list[GameState], seed: int) -> float:
    """Cards a move moves, on average, over the same moves `time_moves`
    makes (the same generator): cards played, drawn and taken as a penalty.
    Untimed: it says how much work a move is, so that the cost a move can be
    read against it (a No Mercy draw goes on until a card fits, its stacks
    of +4, +6 and +10 are taken at once)."""
    from unobot.events import CARD_PLAYED, CARDS_DRAWN, PENALTY_TAKEN

    rnd = random.Random(seed)
    cards = 0
    for state in (p.clone() for p in positions):
        legal = legal_moves(state, state.turn)
        _, events = apply(state, legal[int(rnd.random() * len(legal))], inplace=True)
        for e in events:
            cards += e.n if e.kind in (CARDS_DRAWN, PENALTY_TAKEN) else e.kind == CARD_PLAYED
    return cards / len(positions)


def per_move(seconds: float, seed: int, as_json: bool) -> int:
    """`--per-move`: a rich variant's move against an official one, short and long hands."""
    cases = [(v, long) for long in (False, True) for v in PER_MOVE_VARIANTS]
    positions = {(v, long): move_positions(v, PER_MOVE_VARIANTS[v], long, 2000, seed) for v, long in cases}
    work = {case: cards_moved(positions[case], seed) for case in cases}
    spent = dict.fromkeys(cases, 0.0)
    moves = dict.fromkeys(cases, 0)
    rnd = random.Random(seed)
    while sum(spent.values()) < seconds:  # alternated, so noise on this shared machine hits each alike
        for case in cases:
            spent[case] += time_moves(positions[case], rnd)
            moves[case] += len(positions[case])
    out = {}
    for v, long in cases:
        us = spent[(v, long)] / moves[(v, long)] * 1e6
        base = spent[("official", long)] / moves[("official", long)] * 1e6
        cards = work[(v, long)]
        per_card = us / cards
        base_card = base / work[("official", long)]
        out[f"{v} {'long' if long else 'short'}"] = {
            "us_per_move": round(us, 2), "ratio": round(us / base, 2), "cards_per_move": round(cards, 2),
            "us_per_card": round(per_card, 2), "card_ratio": round(per_card / base_card, 2)}
    if as_json:
        print(json.dumps(out))
        return 0
    print(f"{'variant, hands':22} {'us/move':>8} {'x official':>11} {'cards/move':>11} {'us/card':>8} {'x official':>11}")
    for name, d in out.items():
        print(f"{name:22} {d['us_per_move']:>8} {d['ratio']:>11} {d['cards_per_move']:>11} {d['us_per_card']:>8}"
              f" {d['card_ratio']:>11}")
    print(f"(short: 7 cards or fewer; long: the player to move holds {LONG_HAND}; cards/move: played, drawn"
          " and taken as penalties, over the same moves)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="per side and workload (--per-move: in all)")
    parser.add_argument("--slice", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--per-move", action="store_true",
                        help="a no-mercy move's cost against an official one, short and long hands")
    args = parser.parse_args()
    if args.per_move:
        return per_move(args.seconds, args.seed, args.json)
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
