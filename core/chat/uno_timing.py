"""When "play this card and say UNO" says its UNO: before the card, or
right after it.

Why apart: a person who types `3 uno` means "UNO with this play". Most
plays take a hand from two cards to one, and UNO is said first (it covers
the play). A play that takes more than one card from a hand of three or
more (a Discard All putting down the rest of its colour) leaves one card
too, but UNO is owed only once it lands: said first it is refused (or,
under false UNO, punished). The chat layer then says it right after the
play, in the same command, so nobody can catch the player in between.
Both the typed reading (`play_picks`) and the step that applies the
command (`play`) ask here, so they agree.
"""

from __future__ import annotations

from .. import engine
from ..errors import MoveError
from ..moves import Move
from ..state import GameState


def uno_after_play(game: GameState, move: Move) -> bool:
    """Whether `move` takes its player's hand from three cards or more down
    to one (played on a copy; a refused play is no such play)."""
    player = move.player
    if not 0 <= player < len(game.hands) or len(game.hands[player]) <= 2:
        return False
    try:
        after, _ = engine.apply(game, move)
    except MoveError:
        return False
    return len(after.hands[player]) == 1
