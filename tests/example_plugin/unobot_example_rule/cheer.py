"""Cheering: a move any player may make OUT of turn, once a round.

Why it is here: the example of a plugin move that is not the player on
turn's, which every front-end must offer (a button, an inline result, a
typed `cheer`), and AI seats may use; the conformance suite drives it
through the console, Telegram, Discord and the web table alike. A cheer
changes nothing in play; it is counted over the match.
"""

from pathlib import Path

from unobot import N_, NP_, Event, GameState, Move, Rule, hookimpl

CHEER = "cheer"
CHEERED = "cheered"
ALREADY = "already_cheered"
#: Its own catalogue (a second domain beside the package's first rules').
LOCALE = ("unobot_example_cheer", Path(__file__).parent / "locale")


class Cheer(Rule):
    """Cheering: once a round, any player who is not on turn may cheer."""

    name = "cheer"
    title = {"en": "Cheering", "es": "Vítores"}
    locale = LOCALE
    checks = (CHEER,)
    move_kinds = {CHEER: N_("Cheer")}
    refusals = {ALREADY: N_("You have already cheered this round.")}
    event_texts = {CHEERED: NP_("{player} cheers ({n} time this match).",
                                "{player} cheers ({n} times this match).")}

    @staticmethod
    def _done(state: GameState, player: int) -> bool:
        return player in state.ext.get("cheered", ())

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind != CHEER:
            return None
        if move.player == state.turn:
            return "not_allowed"  # cheering is for those waiting their turn
        return ALREADY if self._done(state, move.player) else True

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        if player != state.turn and player not in state.out and not self._done(state, player):
            return [Move(CHEER, player)]
        return None

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != CHEER:
            return None
        counts = dict(state.match.get("cheers", {}))
        counts[str(move.player)] = counts.get(str(move.player), 0) + 1
        state.match = {**state.match, "cheers": counts}
        state.ext = {**state.ext, "cheered": [*state.ext.get("cheered", []), move.player]}
        events.append(Event(CHEERED, move.player, n=counts[str(move.player)]))
        return True
