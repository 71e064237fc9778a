"""UNO (shared rule): say UNO when playing your next-to-last card.

A player may say UNO holding two cards (it covers the next play) or holding
one card until caught. One who plays down to one card without having said
it may be caught by any other player from the moment the card lands until
the next player plays or draws: the caught player draws `penalty` cards.

UNO is owed only by a player whose own play left them one card: a player
handed a single card by a swap or rotation owes none and cannot be caught
(RULES.md §6). When the next player takes a penalty at once (an official +2
as the next-to-last card), the window stays open until the player after
them plays or draws.
"""

from unobot import (
    CATCH,
    CHALLENGE,
    DRAW,
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
    CARDS_DRAWN,
    HANDS_ROTATED,
    HANDS_SWAPPED,
    PENALTY_TAKEN,
    UNO_CAUGHT,
    UNO_SAID,
)
from unobot.moves import catch_move, simple_move

_CLOSES_WINDOW = (PLAY, DRAW, PASS, CHALLENGE)
_EXCHANGES = (HANDS_SWAPPED, HANDS_ROTATED)
_DRAWS = (CARDS_DRAWN, PENALTY_TAKEN)



def _puts_down(move: Move, events: list[Event]) -> bool:
    """Did `move` put a card down, whatever its kind (a plugin's multi-play)?
    The next player's play closes the window to catch, as their draw does."""
    return any(e.kind == CARD_PLAYED and e.player == move.player for e in events)

class UnoCall(Rule):
    name = "uno-call"
    move_symbols = {UNO: "📢", CATCH: "🫵"}
    checks = (UNO, CATCH)
    title = {"en": "Saying UNO", "es": "Decir UNO"}
    base = True
    plain_turn = True  # see unobot.plain_turn
    plain_uno_calls = True  # the fast path offers UNO and opens the catch as this rule does

    @dataclass(frozen=True)
    class Options:
        penalty: int = option(2, min=0, max=20, title="Penalty cards", help="cards for a player caught without UNO")

    # -- what others ask this rule (its data: `state.uno`, `state.exposed`) --------
    @staticmethod
    def said(state: GameState, seat: int) -> bool:
        """Has `seat` said UNO (and not drawn since)?"""
        return bool(state.uno >> seat & 1)

    @staticmethod
    def catchable(state: GameState) -> int:
        """The seat that may be caught now, or -1."""
        return state.exposed

    @staticmethod
    def _may_say(state: GameState, player: int) -> bool:
        size = len(state.hands[player])
        if size == 2:
            return not state.uno >> player & 1
        return size == 1 and state.exposed == player

    @hookimpl(trylast=True)
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind == UNO:
            return True if self._may_say(state, move.player) else errors.UNO_NOT_NOW
        if move.kind == CATCH:
            target = move.target
            if target is not None and target == state.exposed and target != move.player:
                return True
            return errors.NOTHING_TO_CATCH
        return None

    @hookimpl(trylast=True)
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        moves = []
        if self._may_say(state, player):
            moves.append(simple_move(UNO, player))  # shared move objects, as the engine's own
        exposed = state.exposed
        if exposed >= 0 and exposed != player:
            moves.append(catch_move(player, exposed))
        return moves or None

    @hookimpl(trylast=True)
    def on_uno(self, state: GameState, player: int, events: list[Event]) -> bool:
        state.uno |= 1 << player
        if state.exposed == player:
            state.exposed = -1
        events.append(Event(UNO_SAID, player))
        return True

    @hookimpl(trylast=True)
    def on_catch(self, state: GameState, catcher: int, target: int, events: list[Event]) -> bool:
        state.exposed = -1
        events.append(Event(UNO_CAUGHT, catcher, other=target))
        draw_cards(state, target, self.options.penalty, events, PENALTY_TAKEN)
        return True

    @hookimpl(trylast=True)
    def after_move(self, state: GameState, move: Move, events: list[Event]) -> None:
        for e in events:  # a player who draws must say UNO again before going down to one card
            if e.kind in _DRAWS and e.player >= 0:
                state.uno &= ~(1 << e.player)
        exposed = state.exposed
        if exposed >= 0 and (
            (move.player != exposed and (move.kind in _CLOSES_WINDOW or _puts_down(move, events)))
            or len(state.hands[exposed]) != 1
        ):
            state.exposed = -1
        if move.kind == PLAY:
            player = move.player
            if len(state.hands[player]) == 1 and not state.uno >> player & 1 and not any(
                e.kind in _EXCHANGES for e in events
            ):
                state.exposed = player
