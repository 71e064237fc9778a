"""The public surface of unobot, in one import (the datasette habit):

    from unobot import Rule, hookimpl, dataclass, option, CardKind, N_, ...

Writing a rule: `Rule`, `hookimpl`, `dataclass`, `option`, `Literal`, the
move kinds (`PLAY`, `DRAW`, ...), `Card` and `CardKind` (new cards: their
names, symbol and code; `COLORS` the colour letters, `kind_of` any card's
declared kind, `card_name`/`card_code`/`card_symbol` how it is shown), `Move`,
`Event`, `GameState`, `N_` and `NP_` (mark a text, or a text with a plural
form, for the rule's own catalogue), and
the building blocks that change a state through the hooks (`advance`,
`draw_cards`, `penalize` (any pending draw on any player), `take_pending`,
`end_round`, `end_match`, `round_points`, `shuffle`), with the
questions rules ask (`legal_moves`, `play_moves`, `can_play`,
`awaiting_color`, `expand_play`).

Testing a rule: `testing` (the kit: a table from a scenario, moves by
their text, events and refusals read in a language, the moves a player
may make and the one an AI level would make), `new_game`,
`setup_round`, `apply`, `timeout`, `next_round`,
`parse_move`, `parse_card`, `MoveError`, `run_scenario` (a scenario file),
`run_scenario_data` (the same from a dict), `register_rule` (a rule without
an entry point, for a test).

The modules the built-in rules read their names from come with it too:
`cards` (the rank constants, `SKIP`, `DRAW_TWO`, ...), `events` (the event
kinds), `errors` and `actions` are names here; `moves` (`simple_move`,
`catch_move`, `play_move`: the moves a rule offers) is the submodule that
`from unobot import moves` loads. Why not a name here as well: the package
loads this module on first use of a name, and `moves` is imported by the
registry while the engine is still loading (a name here made that import
load the engine half-way: a cycle).

Third-party rules import from here only: it is the stable surface.
"""

from dataclasses import dataclass
from typing import Literal

from . import actions, cards, errors, events, testing
from .actions import (
    advance,
    draw_cards,
    end_match,
    end_round,
    penalize,
    round_points,
    shuffle,
    take_pending,
)
from .cards import COLORS, Card, CardKind, kind_of, parse_card
from .chat.i18n import N_, NP_
from .chat.render import card_code, card_name, card_symbol
from .engine import (
    apply,
    awaiting_color,
    can_play,
    expand_play,
    legal_moves,
    new_game,
    next_round,
    play_moves,
    setup_round,
    timeout,
)
from .errors import MoveError
from .events import Event
from .moves import CATCH, CHALLENGE, COLOR, DRAW, PASS, PLAY, UNO, Move, parse_move
from .registry import register_rule, unregister_rule
from .rule import NoOptions, OptionSpec, Rule, hookimpl, option
from .scenario import run_scenario, run_scenario_data
from .state import GameState

__all__ = [
    "COLORS", "card_code", "card_name", "card_symbol", "kind_of",
    "CATCH", "CHALLENGE", "COLOR", "DRAW", "PASS", "PLAY", "UNO", "Card", "CardKind", "Event",
    "GameState", "Literal", "Move", "MoveError", "N_", "NP_", "NoOptions", "OptionSpec", "Rule",
    "actions", "advance", "apply", "awaiting_color", "can_play", "cards", "dataclass",
    "draw_cards", "end_match", "end_round", "errors", "events", "expand_play", "hookimpl", "legal_moves",
    "new_game", "next_round", "option", "parse_card", "parse_move", "penalize", "play_moves",
    "register_rule", "round_points", "run_scenario", "run_scenario_data", "setup_round", "shuffle",
    "take_pending", "testing", "timeout", "unregister_rule",
]
