"""Nudging: once a round, the player to move may nudge another player, who
draws a card; the turn stays with the nudger, who then plays as usual.

Why it is here: the example of a plugin move aimed at another player that
puts no card down (`Move(NUDGE, player, target=seat)`), which every
front-end must offer with the player's name (a button per player, an
inline result, a typed `nudge Ada`) and carry out as the model says; the
conformance suite drives it through the console, Telegram, Discord and the
web table alike.
"""

from unobot import N_, Event, GameState, Move, Rule, draw_cards, hookimpl

from . import LOCALE

NUDGE = "nudge"
NUDGED = "nudged"
ALREADY = "already_nudged"


class Nudge(Rule):
    """Nudging: once a round, the player to move may make another player draw a card."""

    name = "nudge"
    title = {"en": "Nudging", "es": "Codazo"}
    locale = LOCALE
    checks = (NUDGE,)
    move_kinds = {NUDGE: N_("Nudge a player")}
    move_usage = {NUDGE: N_("NAME")}
    move_symbols = {NUDGE: "👉"}
    move_hints = {NUDGE: N_("they draw a card; you keep your turn")}
    refusals = {ALREADY: N_("You have already nudged someone this round.")}
    event_texts = {NUDGED: N_("{player} nudges {other}, who draws a card.")}

    @staticmethod
    def _done(state: GameState, player: int) -> bool:
        return player in state.ext.get("nudged", ())

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind != NUDGE:
            return None
        if move.player != state.turn:
            return "not_your_turn"
        if move.target is None or move.target == move.player or move.target not in state.active():
            return "not_allowed"
        return ALREADY if self._done(state, move.player) else True

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        if player != state.turn or self._done(state, player):
            return None
        return [Move(NUDGE, player, target=seat) for seat in state.active() if seat != player]

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != NUDGE or move.target is None:
            return None
        state.ext = {**state.ext, "nudged": [*state.ext.get("nudged", []), move.player]}
        events.append(Event(NUDGED, move.player, other=move.target))
        draw_cards(state, move.target, 1, events)
        return True
