"""Draw until playable (the seed document): a player draws one card per
`draw` and may then play any playable card or draw again; the turn ends only
with a card played (no `pass`). If both piles run out, the turn passes.

`may_keep_drawing: false`: once the hand holds a playable card after
drawing, the player must play instead of drawing on.
"""

from unobot import (
    DRAW,
    PASS,
    Event,
    GameState,
    Move,
    Rule,
    advance,
    can_play,
    dataclass,
    draw_cards,
    errors,
    hookimpl,
    option,
)
from unobot.events import PASSED


class DrawUntilPlayable(Rule):
    name = "draw-until-playable"
    checks = (DRAW, PASS)
    title = {"en": "Draw until you can play", "es": "Robar hasta poder jugar"}
    conflicts = ("draw-to-match",)
    #: A drawn card that does not fit leaves the turn with the player (what a
    #: hand says of "draw, and play it if it fits"; see chat/views.draw_goes_on).
    keeps_drawing = True

    @dataclass(frozen=True)
    class Options:
        may_keep_drawing: bool = option(True, title="May keep drawing", help="the player may draw on while holding a playable card")

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.player != state.turn or state.pending:
            return None
        if move.kind == PASS:
            return errors.CANNOT_PASS
        if move.kind == DRAW:
            if state.draws and not self.options.may_keep_drawing and can_play(state, move.player):
                return errors.MUST_PLAY
            return True
        return None

    @hookimpl
    def on_draw(self, state: GameState, player: int, events: list[Event]) -> bool | None:
        if state.pending:
            return None
        if not draw_cards(state, player, 1, events):
            events.append(Event(PASSED, player))
            advance(state)
            return True
        state.draws += 1
        return True
