"""Applause: a move any player may make OUT of turn, once a round.

Why it is here: the example of a plugin move that is not the player on
turn's, which every front-end must offer (a button, an inline result, a
typed `applaud`), and AI seats may use; the conformance suite drives it
through the console, Telegram, Discord and the web table alike. Applause
changes nothing in play; it is counted over the match.
"""

from pathlib import Path

from unobot import N_, NP_, Event, GameState, Move, Rule, hookimpl

APPLAUD = "applaud"
APPLAUDED = "applauded"
ALREADY = "already_applauded"
#: Its own catalogue (a second domain beside the package's first rules').
LOCALE = ("unobot_example_applause", Path(__file__).parent / "locale")


class Applause(Rule):
    """Applause: once a round, any player who is not on turn may applaud."""

    name = "applause"
    title = {"en": "Applause", "es": "Aplausos"}
    locale = LOCALE
    checks = (APPLAUD,)
    move_kinds = {APPLAUD: N_("Applaud")}
    refusals = {ALREADY: N_("You have already applauded this round.")}
    event_texts = {APPLAUDED: NP_("{player} applauds ({n} time this match).",
                                  "{player} applauds ({n} times this match).")}

    @staticmethod
    def _done(state: GameState, player: int) -> bool:
        return player in state.ext.get("applauded", ())

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind != APPLAUD:
            return None
        if move.player == state.turn:
            return "not_allowed"  # applause is for those waiting their turn
        return ALREADY if self._done(state, move.player) else True

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        if player != state.turn and player not in state.out and not self._done(state, player):
            return [Move(APPLAUD, player)]
        return None

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != APPLAUD:
            return None
        counts = dict(state.match.get("applause", {}))
        counts[str(move.player)] = counts.get(str(move.player), 0) + 1
        state.match = {**state.match, "applause": counts}
        state.ext = {**state.ext, "applauded": [*state.ext.get("applauded", []), move.player]}
        events.append(Event(APPLAUDED, move.player, n=counts[str(move.player)]))
        return True
