"""No action finish: a player may not go out on an action or wild card; the
last card must be a number."""

from unobot import PLAY, GameState, Move, Rule, errors, hookimpl


class NoActionFinish(Rule):
    name = "no-action-finish"
    checks = (PLAY,)
    title = {"en": "Finish on a number", "es": "Terminar con un número"}

    @hookimpl(tryfirst=True)
    def check_move(self, state: GameState, move: Move) -> str | None:
        card = move.card
        if move.kind == PLAY and card is not None and not card.is_number and len(state.hands[move.player]) == 1:
            return errors.NO_ACTION_FINISH
        return None
