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
from ..events import Event
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
    if _owed_after(after, player):
        return True
    try:
        said, _ = engine.apply(game, Move(UNO, player))
        done, _ = engine.apply(said, move, inplace=True)
    except MoveError:
        return False
    # Said first, it must be the UNO the move then owes, not one a rule
    # punishes (false UNO under strict UNO: three cards are no UNO's hand).
    return len(done.hands[player]) == 1 and done.exposed != player


def _taken(game: GameState, player: int) -> bool:
    """After a UNO by `player` holding one card: was it taken as the UNO
    owed, not punished (false UNO, when the UNO rule in force takes UNO
    only before the play: strict UNO), so they still hold one card and
    nobody may catch them?"""
    return len(game.hands[player]) == 1 and game.exposed != player


def _owed_after(after: GameState, player: int) -> bool:
    """Whether UNO said right after the play (`after`) is taken as owed."""
    try:
        told, _ = engine.apply(after, Move(UNO, player))
    except MoveError:
        return False
    return _taken(told, player)


def with_uno(game: GameState, move: Move) -> tuple[GameState, list[Event], list[Move]]:
    """`move` made with UNO as one action, on copies: the new game, the
    events, the moves made in order. UNO owed only once the card lands (a
    Discard All from three cards) is said right after it, before anyone may
    catch (a rule that wants it said first, strict UNO, refuses it after:
    then it is said first). A person's "with UNO" (`play`), an AI seat's at
    a table and in `unobot simulate` go here."""
    said = Move(UNO, move.player)
    if uno_after_play(game, move):
        after, played = engine.apply(game, move)
        try:
            told, events = engine.apply(after, said)
        except MoveError:
            pass
        else:
            if _taken(told, move.player):
                return told, played + events, [move, said]
    first, events = engine.apply(game, said)
    first, played = engine.apply(first, move, inplace=True)
    return first, events + played, [said, move]
