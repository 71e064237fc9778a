"""Property test (hypothesis): under any set of house rules with any of
their options, the player to move always has a legal move, every legal move
is accepted, and a turn timer that runs out always moves the game on
(RULES.md §6: "playable" means a play the whole rule set accepts)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_rule_combinations import HOUSE, MAKES_ROOM
from unobot.engine import apply, legal_moves, new_game, timeout
from unobot.errors import MoveError
from unobot.state import PLAYING
from unobot.variants import VariantError, resolve


def rule_sets() -> st.SearchStrategy[dict[str, Any]]:
    labels = st.lists(st.sampled_from(sorted(HOUSE)), min_size=1, max_size=5, unique=True)

    def build(chosen: list[str]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for label in chosen:
            rule, options = HOUSE[label]
            for name, value in MAKES_ROOM.get(rule, {}).items():
                out.setdefault(name, value)
        for label in chosen:
            rule, options = HOUSE[label]
            out[rule] = {**options}
        return out

    return labels.map(build)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(["official", "reglas-de-uno"]), rules=rule_sets(),
       players=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_no_rule_set_traps_the_player_to_move(base: str, rules: dict[str, Any], players: int,
                                              seed: int) -> None:
    try:
        resolve(base, rules)
    except VariantError:
        return  # a combination the rules refuse to load (draw-to-match with draw-until-playable)
    rnd = random.Random(seed)
    state, _ = new_game(base, [f"p{i}" for i in range(players)], seed=seed, overrides=rules)
    for step in range(400):
        if state.phase != PLAYING:
            break
        player = state.turn
        moves = legal_moves(state, player)
        assert moves, f"p{player} has no legal move under {base} + {rules}"
        if step % 7 == 3:
            # the turn timer runs out here: the turn must pass
            after, _ = timeout(state)
            assert after.phase != PLAYING or after.turn != player or len(after.active()) == 1, \
                f"a timeout left p{player} on turn under {base} + {rules}"
            state = after
            continue
        move = moves[rnd.randrange(len(moves))] if rnd.random() < 0.3 else next(
            (m for m in moves if m.kind == "play"), moves[rnd.randrange(len(moves))])
        try:
            state, _ = apply(state, move)
        except MoveError as exc:  # pragma: no cover - the assertion is the test
            raise AssertionError(f"legal move {move!r} refused ({exc.code}) under {base} + {rules}") from None
