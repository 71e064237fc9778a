"""AI levels: strong beats basic beats random by a clear margin.

Two-player games, each pairing played from both seats with fixed seeds
(deterministic), so the figures are the same on every run.
"""

from __future__ import annotations

import pytest

from unobot.ai import POLICIES
from unobot.simulate import simulate


def win_rate(a: str, b: str, variant: str, games: int) -> float:
    first = simulate(variant, 2, games, 11, [POLICIES[a], POLICIES[b]], check=False)
    second = simulate(variant, 2, games, 12, [POLICIES[b], POLICIES[a]], check=False)
    won = first.wins[0] + second.wins[1]
    lost = first.wins[1] + second.wins[0]
    return won / (won + lost)


@pytest.mark.parametrize("variant", ["official", "party"])
def test_strong_beats_basic(variant: str) -> None:
    assert win_rate("strong", "basic", variant, 300) > 0.56


@pytest.mark.parametrize("variant", ["official", "reglas-de-uno"])
def test_basic_beats_random(variant: str) -> None:
    assert win_rate("basic", "random", variant, 200) > 0.7


def test_strong_beats_random() -> None:
    assert win_rate("strong", "random", "official", 200) > 0.9


def test_policies_only_choose_legal_moves() -> None:
    for name in POLICIES:
        report = simulate("party", 4, 10, 5, [POLICIES[name]] * 4, check=True)
        assert report.games == 10 and report.unfinished == 0
