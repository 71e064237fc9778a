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
from ..moves import UNO, Move
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


def carries_uno(game: GameState, move: Move) -> bool:
    """Whether `move` may be made "with UNO" as one action: it leaves its
    player one card from two or more, they have not said UNO yet, and the
    rules take the UNO said first or right after it (as `play._apply` says
    it). Asked of the moves that put cards down without being a plain play
    (a multi-play), whose end hand only the move itself knows: judged on
    copies, so no rule is asked by name."""
    player = move.player
    if not 0 <= player < len(game.hands) or len(game.hands[player]) < 2 or game.uno >> player & 1:
        return False
    try:
        after, _ = engine.apply(game, move)
    except MoveError:
        return False
    if len(after.hands[player]) != 1 or player in after.out:
        return False
    try:
        engine.apply(after, Move(UNO, player), inplace=True)
        return True
    except MoveError:
        pass
    try:
        said, _ = engine.apply(game, Move(UNO, player))
        engine.apply(said, move, inplace=True)
    except MoveError:
        return False
    return True
