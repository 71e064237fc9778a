"""Helpers for tests that add a throwaway rule to a variant."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from unobot.cards import parse_cards
from unobot.engine import setup_round
from unobot.registry import register_rule, unregister_rule
from unobot.rule import Rule
from unobot.state import GameState
from unobot.variants import clear_caches


@contextmanager
def extra_rule(rule: type[Rule]) -> Iterator[None]:
    register_rule(rule)
    clear_caches()
    try:
        yield
    finally:
        unregister_rule(rule.name)
        clear_caches()


def table(variant: str = "official", hands: dict[str, str] | None = None, discard: str = "R3",
          draw: str = "G2 G4 B5 Y1 Y2 B7 B8 B9", turn: str = "ana", overrides: dict[str, Any] | None = None,
          color: str | None = None, players: tuple[str, ...] = ("ana", "ben", "cat")) -> GameState:
    hands = hands or {"ana": "R5 R+2 G7", "ben": "B+2 G3 Y9", "cat": "Y7 G9 B1"}
    return setup_round(
        variant, list(players), [parse_cards(hands.get(p, "")) for p in players], parse_cards(discard),
        parse_cards(draw), list(players).index(turn), 1, color, 0, overrides,
    )
