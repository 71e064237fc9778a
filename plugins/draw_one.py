"""Drawing (shared rule): draw one card; play it at once if it fits, or pass.

A player may draw even when holding a playable card. A drawn card that fits
may be played (only that card) or kept with `pass`; one that does not fit
ends the turn. A pending penalty is taken whole with `draw`, and the turn
passes. When both piles are empty the player cannot draw and the turn passes.
"""

from unobot import (
    DRAW,
    PASS,
    Card,
    Event,
    GameState,
    Move,
    Rule,
    advance,
    can_play,
    draw_cards,
    errors,
    hookimpl,
    take_pending,
)
from unobot.events import PASSED


class DrawOne(Rule):
    name = "draw-one"
    checks = (DRAW, PASS)
    title = {"en": "Drawing", "es": "Robar"}
    base = True
    plain_turn = True  # see unobot.plain_turn

    @hookimpl(trylast=True)
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        kind = move.kind
        if kind == DRAW:
            if move.player != state.turn:
                return errors.NOT_YOUR_TURN
            if state.pending:
                return True
            return errors.ALREADY_DREW if state.draws else True
        if kind == PASS:
            if move.player != state.turn:
                return errors.NOT_YOUR_TURN
            if state.pending:
                return errors.PENDING_DRAW
            return True if state.draws else errors.MUST_DRAW_FIRST
        return None

    @hookimpl(trylast=True)
    def on_draw(self, state: GameState, player: int, events: list[Event]) -> bool:
        if state.pending:
            take_pending(state, player, events)
            advance(state)
            return True
        got = draw_cards(state, player, 1, events)
        state.draws += 1
        if not got:
            events.append(Event(PASSED, player))
            advance(state)
            return True
        card = got[0]
        state.drawn = card
        if not state.rules.on_drawn_card(state, player, card, events):
            advance(state)
        return True

    @hookimpl(trylast=True)
    def on_drawn_card(self, state: GameState, player: int, card: Card, events: list[Event]) -> bool:
        # `state.drawn` is the card already: it is playable when the whole
        # rule set accepts a play of it now (RULES.md §6).
        return can_play(state, player)

    @hookimpl(trylast=True)
    def on_pass(self, state: GameState, player: int, events: list[Event]) -> bool:
        events.append(Event(PASSED, player))
        advance(state)
        return True
