"""Matching (shared rule): which card may go on which.

A card fits when it has the colour in play, or the top card's number or
symbol; a wild always fits (a Wild Draw Four too: bluffing is possible, see
`challenge`). After drawing, only the drawn card may be played. While a draw
penalty is pending, only what `can_stack` allows fits (nothing, unless a
stacking rule says so). Nobody plays out of turn unless a rule allows it.
"""

from core.api import PLAY, Card, GameState, Move, Rule, errors, hookimpl


class Matching(Rule):
    name = "matching"
    checks = (PLAY,)
    title = {"en": "Matching cards", "es": "Cartas que casan"}
    base = True

    @hookimpl(trylast=True)
    def card_fits(self, state: GameState, player: int, card: Card) -> bool:
        if state.pending:
            return bool(state.rules.can_stack(state, player, card))
        drawn = state.drawn
        if drawn is not None and card is not drawn:
            return False
        if card.is_wild:
            return True
        color = state.color
        if color is None or card.color == color:
            return True
        return card.rank == state.discard[-1].rank

    @hookimpl(trylast=True)
    def can_stack(self, state: GameState, player: int, card: Card) -> bool:
        return False

    @hookimpl(trylast=True)
    def hold_penalty(self, state: GameState, victim: int, card: Card) -> bool:
        return False

    @hookimpl(trylast=True)
    def can_jump_in(self, state: GameState, player: int, card: Card) -> bool:
        return False

    @hookimpl(trylast=True)
    def card_targets(self, state: GameState, player: int, card: Card) -> None:
        return None

    @hookimpl(trylast=True)
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind != PLAY:
            return None
        player = move.player
        card = move.card
        if card not in state.hands[player]:
            return errors.NOT_IN_HAND
        rules = state.rules
        if player != state.turn:
            return True if rules.can_jump_in(state, player, card) else errors.NOT_YOUR_TURN
        if state.drawn is not None and card is not state.drawn and not state.pending:
            return errors.ONLY_DRAWN_CARD
        if not rules.card_fits(state, player, card):
            return errors.PENDING_DRAW if state.pending else errors.DOES_NOT_FIT
        return True
