"""Force play: a drawn card that can be played must be played (no `pass`)."""

from unobot import PASS, GameState, Move, Rule, errors, hookimpl


class ForcePlay(Rule):
    name = "force-play"
    checks = (PASS,)
    title = {"en": "Force play", "es": "Jugar lo robado"}

    @hookimpl(tryfirst=True)
    def check_move(self, state: GameState, move: Move) -> str | None:
        if move.kind == PASS and state.drawn is not None and move.player == state.turn:
            return errors.MUST_PLAY_DRAWN
        return None
