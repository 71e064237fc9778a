"""Everything a rule plugin needs, in one import.

    from unobot import Rule, hookimpl, dataclass, events, actions, ...

Third-party rules should import from here only; it is the stable surface.
"""

from dataclasses import dataclass
from typing import Literal

from . import actions, cards, errors, events
from .actions import advance, draw_cards, end_round, penalize, shuffle, take_pending
from .cards import Card
from .engine import awaiting_color, can_play, expand_play, legal_moves, play_moves
from .events import Event
from .moves import CATCH, CHALLENGE, COLOR, DRAW, PASS, PLAY, UNO, Move
from .rule import NoOptions, OptionSpec, Rule, hookimpl, option
from .state import GameState

__all__ = [
    "CATCH", "CHALLENGE", "COLOR", "DRAW", "PASS", "PLAY", "UNO", "Card", "Event", "GameState",
    "Literal", "Move", "NoOptions", "OptionSpec", "Rule", "actions", "advance", "cards", "dataclass",
    "awaiting_color", "can_play", "draw_cards", "end_round", "errors", "events", "expand_play",
    "hookimpl", "legal_moves", "play_moves",
    "option", "penalize", "shuffle", "take_pending",
]
