"""unobot: the UNO bot where every rule is a plugin.

This package is the public surface for plugin authors (the datasette habit:
one import):

    from unobot import Rule, hookimpl, dataclass, Card, Event, GameState, ...

Names are loaded on first use (`core/api.py` holds them), so `import
unobot.adapters...` or `unobot --help` do not pay for the engine.
In a clone this folder is `core/`; installed, it is the package `unobot`,
with `unobot.adapters`, `unobot.plugins` and `unobot.variant_files` beside.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import *  # noqa: F403

__version__ = "0.2.0"


#: The names `core/api.py` exports (a test keeps the two lists equal). Listed
#: here so that asking for a submodule (`from . import engine`) never loads
#: the API half-way through the engine's own imports.
_API = frozenset({
    "COLORS", "card_code", "card_name", "card_symbol", "kind_of",
    "CATCH", "CHALLENGE", "COLOR", "DRAW", "PASS", "PLAY", "UNO", "Card",
    "CardKind", "Event", "GameState", "Literal", "Move", "MoveError", "N_", "NP_", "NoOptions",
    "OptionSpec", "Rule", "actions", "advance", "apply", "awaiting_color", "can_play", "cards",
    "dataclass", "draw_cards", "end_match", "end_round", "errors", "events", "expand_play", "hookimpl",
    "legal_moves", "new_game", "next_round", "option", "parse_card", "parse_move", "penalize", "play_moves",
    "register_rule", "round_points", "run_scenario", "run_scenario_data", "setup_round", "shuffle",
    "take_pending", "testing", "timeout", "unregister_rule",
})


def __getattr__(name: str) -> Any:
    if name not in _API:
        raise AttributeError(f"module 'unobot' has no attribute {name!r}")
    import importlib

    api = importlib.import_module(__name__ + ".api")
    if name in api.__all__:
        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'unobot' has no attribute {name!r}")


def __dir__() -> list[str]:
    import importlib

    return sorted({*globals(), *importlib.import_module(__name__ + ".api").__all__})
