"""The one error a refused move raises, with a stable code.

Codes are part of the public contract: scenario files may name them
(`error: not_your_turn`) and adapters translate them into messages.
"""

from __future__ import annotations

from typing import Final

from .chat.i18n import N_

NOT_YOUR_TURN: Final = "not_your_turn"
NOT_IN_HAND: Final = "not_in_hand"
DOES_NOT_FIT: Final = "does_not_fit"
COLOR_REQUIRED: Final = "color_required"
UNEXPECTED_COLOR: Final = "unexpected_color"
TARGET_REQUIRED: Final = "target_required"
BAD_TARGET: Final = "bad_target"
UNEXPECTED_TARGET: Final = "unexpected_target"
PENDING_DRAW: Final = "pending_draw"
MUST_PLAY: Final = "must_play"
MUST_PLAY_DRAWN: Final = "must_play_drawn"
MUST_STACK: Final = "must_stack"
ONLY_DRAWN_CARD: Final = "only_drawn_card"
ALREADY_DREW: Final = "already_drew"
MUST_DRAW_FIRST: Final = "must_draw_first"
CANNOT_PASS: Final = "cannot_pass"
UNO_NOT_NOW: Final = "uno_not_now"
NOTHING_TO_CATCH: Final = "nothing_to_catch"
NO_CHALLENGE: Final = "no_challenge"
NO_ACTION_FINISH: Final = "no_action_finish"
ROUND_OVER: Final = "round_over"
NOT_ALLOWED: Final = "not_allowed"
#: A kind of move the rules in force do not have (a challenge with no-bluffing, a plugin's
#: move with its rule off): no moment will allow it, unlike NOT_ALLOWED's.
NO_SUCH_MOVE: Final = "no_such_move"
UNKNOWN_PLAYER: Final = "unknown_player"
BAD_MOVE: Final = "bad_move"
NAME_COLOR_FIRST: Final = "name_color_first"
NO_COLOR_TO_NAME: Final = "no_color_to_name"
#: A rule raised inside its hook (a plugin's bug): see core/rule_failure.py.
RULE_FAILED: Final = "rule_failed"

#: Every code with a one-line English explanation (adapters translate these).
CODES: Final = {
    NOT_YOUR_TURN: N_("It is not your turn."),
    NOT_IN_HAND: N_("You do not hold that card."),
    DOES_NOT_FIT: N_("That card does not fit the top card."),
    COLOR_REQUIRED: N_("Name a colour for the wild card."),
    UNEXPECTED_COLOR: N_("Only a wild card takes a colour."),
    TARGET_REQUIRED: N_("Name the player this card targets."),
    BAD_TARGET: N_("That player cannot be targeted."),
    UNEXPECTED_TARGET: N_("This card does not target a player."),
    PENDING_DRAW: N_("You must take the pending cards (or answer them, where a rule allows)."),
    MUST_PLAY: N_("You hold a card that fits: you must play."),
    MUST_PLAY_DRAWN: N_("You must play the card you drew."),
    MUST_STACK: N_("You must answer the pending draw with a draw card."),
    ONLY_DRAWN_CARD: N_("After drawing you may play only the card you drew."),
    ALREADY_DREW: N_("You have already drawn this turn."),
    MUST_DRAW_FIRST: N_("You can pass only after drawing."),
    CANNOT_PASS: N_("Your turn ends only with a card played."),
    UNO_NOT_NOW: N_("UNO can be said only with two cards, or one card before being caught."),
    NOTHING_TO_CATCH: N_("Nobody can be caught right now."),
    NO_CHALLENGE: N_("There is no Wild Draw Four to challenge."),
    NO_ACTION_FINISH: N_("You may not go out on an action or wild card."),
    ROUND_OVER: N_("The round is over."),
    NOT_ALLOWED: N_("That move is not allowed now."),
    NO_SUCH_MOVE: N_("This game's rules have no such move."),
    UNKNOWN_PLAYER: N_("No such player in this game."),
    BAD_MOVE: N_("That is not a move."),
    NAME_COLOR_FIRST: N_("Name the colour of the starting wild card first."),
    NO_COLOR_TO_NAME: N_("There is no colour to name now."),
    RULE_FAILED: N_("A rule of this game failed on that move, so nothing changed. Try another move; "
                    "if it keeps failing, an admin can end the game with {stop}."),
}


class MoveError(Exception):
    """A refused move. The state it was applied to is unchanged."""

    def __init__(self, code: str, detail: str = "") -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail or CODES.get(code, code)}")
