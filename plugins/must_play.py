"""Must play: at the start of a turn, a player who holds a playable card
must play; drawing is allowed only with none. A pending draw total may
still be taken instead. "Playable" is a play the whole rule set accepts now
(RULES.md §6): a card another rule refuses (no action finish, no bluffing)
does not force a play, so the player may draw.
"""

from unobot import DRAW, GameState, Move, Rule, can_play, errors, hookimpl


class MustPlay(Rule):
    name = "must-play"
    checks = (DRAW,)
    #: In a plain turn its only say is no `draw` while a card may be played,
    #: which the engine's fast path applies (`RuleSet.plain_must_play`).
    plain_turn = True  # see unobot.plain_turn
    plain_no_draw_while_fitting = True
    title = {"en": "Must play", "es": "Obligado a jugar"}

    @hookimpl(tryfirst=True)
    def check_move(self, state: GameState, move: Move) -> str | None:
        if move.kind != DRAW or state.pending or state.draws or move.player != state.turn:
            return None
        if can_play(state, move.player):
            return errors.MUST_PLAY
        return None
