"""Force play: a drawn card that can be played must be played (no `pass`).

"Can be played" means a play the whole rule set accepts now: a drawn card
that fits but that another rule refuses (no action finish) may be kept.
"""

from unobot import PASS, GameState, Move, Rule, can_play, errors, hookimpl


class ForcePlay(Rule):
    name = "force-play"
    checks = (PASS,)
    #: In a plain turn its only say is no `pass` after drawing a card that
    #: may be played, which the engine's fast path applies
    #: (`RuleSet.plain_force_play`).
    plain_turn = True  # see unobot.plain_turn
    plain_no_pass_while_fitting = True
    title = {"en": "Force play", "es": "Jugar lo robado"}

    @hookimpl(tryfirst=True)
    def check_move(self, state: GameState, move: Move) -> str | None:
        if move.kind == PASS and state.drawn is not None and move.player == state.turn \
                and can_play(state, move.player):
            return errors.MUST_PLAY_DRAWN
        return None
