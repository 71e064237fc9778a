"""AI players: four levels that choose among the engine's legal moves.

- `easy` (old name `random`): `normal` with a person's slips, on purpose
  and always legal (core/ai/heuristics.py);
- `normal` (`basic`), the default: sound habits (keep wilds, follow the
  colour held most, hit a player close to going out, say UNO);
- `hard` (`strong`): `normal` plus card counting and a challenge model that
  learns from the table;
- `expert`: determinized Monte Carlo search over the hidden hands
  (core/ai/search.py), under a time per move (`game.ai_seconds`).

A level sees what its seat may see: its own hand, the counts, the cards
played, and the public moves it was shown (`observe`). What it knows is
worked out in core/ai/knowledge.py, never from another hand or the draw
pile's order (tests/test_ai_hidden.py holds this).

`POLICIES` maps every level name and alias to a shared player (what a
caller without a game of its own uses); `new_player(level)` gives a fresh
one with its own memory, for a seat that observes its game.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..moves import Move
from ..state import GameState
from .heuristics import Counting, Easy, Level, Normal
from .search import Expert, Hard, Searching, default_seconds, rollouts_per_second

Policy = Callable[[GameState, int, list[Move], random.Random], Move]

LEVELS: tuple[str, ...] = ("easy", "normal", "hard", "expert")
DEFAULT_LEVEL = "normal"
#: The old names, kept so saved tables and scripts still work.
ALIASES: dict[str, str] = {"random": "easy", "basic": "normal", "strong": "hard"}

_CLASSES: dict[str, type[Level]] = {"easy": Easy, "normal": Normal, "hard": Hard, "expert": Expert}


def level_name(name: str | None) -> str:
    """The level a name means (an alias's level; the default for None or an
    unknown name)."""
    if not name:
        return DEFAULT_LEVEL
    name = ALIASES.get(name, name)
    return name if name in _CLASSES else DEFAULT_LEVEL


def known_level(name: str) -> bool:
    return name in _CLASSES or name in ALIASES


def new_player(level: str, **options: float | int | None) -> Level:
    """A fresh player of `level` with its own memory of the table.
    `expert` takes `seconds` and `rollouts` (its budget per move)."""
    cls = _CLASSES[level_name(level)]
    if cls is Expert:
        return Expert(seconds=options.get("seconds"), rollouts=options.get("rollouts"))  # type: ignore[arg-type]
    return cls()


POLICIES: dict[str, Level] = {name: new_player(name) for name in LEVELS}
POLICIES.update({alias: POLICIES[level] for alias, level in ALIASES.items()})


def best_play(state: GameState, player: int, plays: list[Move]) -> Move:
    """The play among `plays` that `hard` prefers (colour, target): what a
    person gets who asked to play a drawn card "if it fits"."""
    hard = POLICIES["hard"]
    hard.memory.sync(state)
    return max(hard.score_plays(state, player, plays), key=lambda pair: pair[0])[1]


__all__ = [
    "ALIASES", "Counting", "DEFAULT_LEVEL", "LEVELS", "POLICIES", "Easy", "Expert", "Hard", "Level", "Normal",
    "Policy", "Searching", "best_play", "default_seconds", "known_level", "level_name", "new_player",
    "rollouts_per_second",
]
