"""An example third-party rule, shipped as its own distribution.

It is installed into the test environment and found by unobot through the
`unobot.rules` entry-point group (see this folder's pyproject.toml), exactly
as a rule published on PyPI would be. docs/plugins.md walks through it.
"""

from unobot import Card, Event, GameState, Move, Rule, advance, dataclass, hookimpl
from unobot.cards import SKIP


class DoubleSkip(Rule):
    """Double skip: a Skip card makes the next `players` players lose their turn."""

    name = "double-skip"
    title = {"en": "Double skip", "es": "Salto doble"}

    @dataclass(frozen=True)
    class Options:
        players: int = 2

    @hookimpl
    def on_play(self, state: GameState, move: Move, card: Card, events: list[Event]) -> bool | None:
        if card.rank != SKIP or card.is_wild or not state.hands[move.player]:
            return None
        advance(state, self.options.players, events)
        return True
