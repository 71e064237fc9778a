"""Must play: at the start of a turn, a player who holds a playable card
must play; drawing is allowed only with none. A pending draw total may
still be taken instead.
"""

from unobot import DRAW, GameState, Move, Rule, errors, hookimpl


class MustPlay(Rule):
    name = "must-play"
    checks = (DRAW,)
    title = {"en": "Must play", "es": "Obligado a jugar"}

    @hookimpl(tryfirst=True)
    def check_move(self, state: GameState, move: Move) -> str | None:
        if move.kind != DRAW or state.pending or state.draws or move.player != state.turn:
            return None
        fits = state.rules.card_fits
        player = move.player
        if any(fits(state, player, c) for c in state.hands[player]):
            return errors.MUST_PLAY
        return None
