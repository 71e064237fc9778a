"""Strict UNO: UNO counts only when said on your own turn, just before the
play that leaves you one card. Said earlier it lapses with your next move;
after the play (holding one card) it can no longer be said, and any other
player may catch you until the next player plays or draws.

Decisions: UNO may be said on your turn holding two or more cards (a
multi-play may go from three cards to one) and covers only the next move;
a caught player draws `penalty` cards. Takes the place of `uno-call`.

With jump-in, a player holding two cards who may jump in now may say UNO
out of turn, just before the jump-in: the jump is their play. A UNO said
and not yet followed by its play lapses when anyone else makes a move
(their turn was taken by a jump-in, or the chance to jump in went by).
With false-uno, UNO is owed exactly when this rule takes it (`uno_owed`):
any other UNO (out of turn, too late, with cards no move leaves at one)
is false and costs false-uno's penalty.
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
    legal_moves,
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
        hand = state.hands[player]
        if state.uno >> player & 1 or len(hand) < 2:
            return False
        if player == state.turn:
            return True
        # Just before a jump-in down to one card: the jump is the player's play.
        return len(hand) == 2 and any(state.rules.can_jump_in(state, player, card) for card in set(hand))

    def uno_owed(self, state: GameState, player: int) -> bool:
        """Is a UNO by `player` now one this rule takes for a play to come
        that may leave one card? What false-uno asks the rule owning the
        UNO calls, so a UNO strict-uno takes is never punished as false and
        one it would refuse is (RULES.md's two rules agree on one answer)."""
        if not self._may_say(state, player):
            return False
        size = len(state.hands[player])
        if size == 2:
            return True
        # Three or more: owed only if one move may put down all cards but one (a multi-play).
        return any((m.card is not None) + len(m.cards) == size - 1 for m in legal_moves(state, player))

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
        if move.kind != CATCH and state.uno & ~(1 << player):
            # A UNO said for a play to come covers that play only: another
            # player's move (a jump-in that took the turn, the play that
            # closed a chance to jump in) lets it lapse. One said with one
            # card left (the play made) stays.
            for seat in range(len(state.hands)):
                if seat != player and state.uno >> seat & 1 and len(state.hands[seat]) >= 2:
                    state.uno &= ~(1 << seat)
        said = state.uno >> player & 1
        # Owed only by a player whose own cards left them one (RULES.md §6): a
        # plugin's move that puts none down (a swap of its own) owes nothing.
        if len(state.hands[player]) == 1 and move.kind not in _NOT_PLAYS and not said and not any(
                e.kind in _EXCHANGES for e in events) and _puts_down(move, events):
            state.exposed = player
        elif said and len(state.hands[player]) != 1:
            state.uno &= ~(1 << player)  # said, but not followed by the play down to one
