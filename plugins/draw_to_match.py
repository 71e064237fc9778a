"""Draw to match: on drawing, keep drawing until a playable card comes, in
one move. The player may then play it (or pass, unless force-play is on).

`may_stop_early: true`: cards come one per `draw`, and the player may
`pass` after any of them instead of drawing on. Once drawing has begun,
only the drawn card that fits may be played, not a card held from before.
"""

from collections.abc import Collection

from unobot import (
    DRAW,
    PLAY,
    Card,
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


class DrawToMatch(Rule):
    name = "draw-to-match"
    checks = (DRAW, PLAY)
    title = {"en": "Draw until a card fits", "es": "Robar hasta que sirva"}
    conflicts = ("draw-until-playable",)
    #: Drawing goes on until a card fits (what a hand says of "draw, and play
    #: it if it fits"; see chat/views.draw_goes_on).
    keeps_drawing = True

    @dataclass(frozen=True)
    class Options:
        may_stop_early: bool = option(False, title="May stop early", help="one card per draw; the player may pass after any of them")

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.player != state.turn or state.pending or state.drawn is not None:
            return None
        if move.kind == PLAY and state.draws:
            return errors.ONLY_DRAWN_CARD  # between draws: no drawn card fits yet
        if move.kind == DRAW and self.options.may_stop_early:
            return True
        return None

    def keep_plays(self, state: GameState, player: int, cards: Collection[Card]) -> Collection[Card]:
        """`check_move`'s answer for the plays of many cards at once (the
        engine lists a hand's moves with it): between draws, none; else all.
        (Its check_move never accepts a play outright, only refuses.)"""
        if player == state.turn and not state.pending and state.drawn is None and state.draws:
            return []
        return cards

    @hookimpl
    def on_draw(self, state: GameState, player: int, events: list[Event]) -> bool | None:
        if state.pending:
            return None
        rules = state.rules
        limit = 1 if self.options.may_stop_early else 10_000
        for _ in range(limit):
            got = draw_cards(state, player, 1, events)
            if not got:
                events.append(Event(PASSED, player))
                advance(state)
                return True
            state.draws += 1
            card = got[0]
            state.drawn = card
            if can_play(state, player):
                if not rules.on_drawn_card(state, player, card, events):
                    advance(state)
                return True
            state.drawn = None
        return True
