"""Strict UNO: UNO counts only when said on your own turn, just before the
play that leaves you one card. Said earlier it lapses with your next move;
after the play (holding one card) it can no longer be said, and any other
player may catch you until the next player plays or draws.

Decisions: UNO may be said on your turn holding two or more cards (a
multi-play may go from three cards to one) and covers only the next move;
a caught player draws `penalty` cards. Takes the place of `uno-call`.
"""

from unobot import (
    CATCH,
    CHALLENGE,
    DRAW,
    N_,
    PASS,
    PLAY,
    UNO,
    Event,
    GameState,
    Move,
    Rule,
    dataclass,
    draw_cards,
    errors,
    hookimpl,
    option,
)
from unobot.events import (
    CARD_PLAYED,
    HANDS_ROTATED,
    HANDS_SWAPPED,
    PENALTY_TAKEN,
    UNO_CAUGHT,
    UNO_SAID,
)

UNO_WITH_PLAY = "uno_with_play"
_CLOSES_WINDOW = (PLAY, DRAW, PASS, CHALLENGE)
_EXCHANGES = (HANDS_SWAPPED, HANDS_ROTATED)
#: Moves that put no card down (a play, or a plugin's multi-play, may leave one card).
_NOT_PLAYS = (UNO, DRAW, PASS, CATCH, CHALLENGE, "color")



def _puts_down(move: Move, events: list[Event]) -> bool:
    """Did `move` put a card down, whatever its kind (a plugin's multi-play)?
    The next player's play closes the window to catch, as their draw does."""
    return any(e.kind == CARD_PLAYED and e.player == move.player for e in events)

class StrictUno(Rule):
    name = "strict-uno"
    checks = (UNO, CATCH)
    title = {"en": "Strict UNO", "es": "UNO estricto"}
    replaces = ("uno-call",)
    refusals = {UNO_WITH_PLAY: N_("Say UNO on your turn, just before the play that leaves you one card.")}

    @dataclass(frozen=True)
    class Options:
        penalty: int = option(2, min=0, max=20, title="Penalty cards", help="cards for a player caught without UNO")

    # What views and the chat layer ask whichever rule owns the UNO calls.
    @staticmethod
    def said(state: GameState, seat: int) -> bool:
        """Has `seat` said UNO for the play to come?"""
        return bool(state.uno >> seat & 1)

    @staticmethod
    def catchable(state: GameState) -> int:
        """The seat that may be caught now, or -1."""
        return state.exposed

    @staticmethod
    def _may_say(state: GameState, player: int) -> bool:
        return player == state.turn and len(state.hands[player]) >= 2 and not state.uno >> player & 1

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind == UNO:
            return True if self._may_say(state, move.player) else UNO_WITH_PLAY
        if move.kind == CATCH:
            target = move.target
            if target is not None and target == state.exposed and target != move.player:
                return True
            return errors.NOTHING_TO_CATCH
        return None

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        moves = []
        if self._may_say(state, player) and len(state.hands[player]) == 2:
            moves.append(Move(UNO, player))
        exposed = state.exposed
        if exposed >= 0 and exposed != player:
            moves.append(Move(CATCH, player, target=exposed))
        return moves or None

    @hookimpl
    def on_uno(self, state: GameState, player: int, events: list[Event]) -> bool:
        state.uno |= 1 << player
        events.append(Event(UNO_SAID, player))
        return True

    @hookimpl
    def on_catch(self, state: GameState, catcher: int, target: int, events: list[Event]) -> bool:
        state.exposed = -1
        events.append(Event(UNO_CAUGHT, catcher, other=target))
        draw_cards(state, target, self.options.penalty, events, PENALTY_TAKEN)
        return True

    @hookimpl
    def after_move(self, state: GameState, move: Move, events: list[Event]) -> None:
        exposed = state.exposed
        if exposed >= 0 and (
            (move.player != exposed and (move.kind in _CLOSES_WINDOW or _puts_down(move, events)))
            or len(state.hands[exposed]) != 1
        ):
            state.exposed = -1
        player = move.player
        if move.kind == UNO:
            return
        said = state.uno >> player & 1
        if len(state.hands[player]) == 1 and move.kind not in _NOT_PLAYS and not said and not any(
                e.kind in _EXCHANGES for e in events):
            state.exposed = player
        elif said and len(state.hands[player]) != 1:
            state.uno &= ~(1 << player)  # said, but not followed by the play down to one
