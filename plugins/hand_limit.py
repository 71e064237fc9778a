"""Hand limit: a player never holds more than `limit` cards. Draws and
penalties stop at the limit; a player at the limit who draws gets nothing
and the turn passes.

Decisions: the deal stops at the limit too (a limit of 5 deals 5 cards,
whatever the deck rule's hand size); the cards a capped penalty would have
given are not taken at all (they stay in the draw pile); a swap or rotation
of hands is not capped.
When every hand is at the limit and nobody can play, the round is blocked
and ends (the shared going-out rule's `round_blocked`: fewest points win).
"""

from collections.abc import Generator

from unobot import GameState, Rule, dataclass, hookimpl, option


class HandLimit(Rule):
    name = "hand-limit"
    title = {"en": "Hand limit", "es": "Límite de cartas en la mano"}

    @dataclass(frozen=True)
    class Options:
        limit: int = option(25, min=2, max=200, title="Card limit", help="most cards a hand may hold")

    @hookimpl(wrapper=True)
    def hand_size(self, state: GameState) -> Generator[None, int | None, int | None]:
        # A wrapper: whichever rule answers the hand size (the deck rule, a
        # plugin's), the deal never goes past the limit.
        size = yield
        return size if size is None else min(size, self.options.limit)

    @hookimpl(tryfirst=True)
    def cards_to_draw(self, state: GameState, player: int, n: int, reason: str) -> int:
        return max(0, min(n, self.options.limit - len(state.hands[player])))
