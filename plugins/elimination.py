"""Elimination: after each round the player left with the most cards (or,
with `by: points`, the most points) in hand leaves the match; the last
player standing wins it. Points are not kept.

Decisions: the round's winner is never eliminated; a tie goes against the
player who would have moved last from the winner on; a player knocked out
of the round by `mercy` is eliminated before anyone else; the dealer is
the next player still in the match.
"""

from typing import Literal

from unobot import N_, Event, GameState, Rule, dataclass, hookimpl, option

ELIMINATED = "eliminated"
KEY = "eliminated"


class Elimination(Rule):
    name = "elimination"
    title = {"en": "Elimination", "es": "Eliminación"}
    replaces = ("scoring",)
    conflicts = ("progressive-scoring", "teams")
    event_texts = {ELIMINATED: N_("{player} is eliminated from the match.")}

    @dataclass(frozen=True)
    class Options:
        by: Literal["cards", "points"] = option(
            "cards", title="Who is eliminated", help="what eliminates: the most cards or the most points in hand",
            words={"cards": "the most cards", "points": "the most points"})

    @staticmethod
    def gone(state: GameState) -> list[int]:
        return list(state.match.get(KEY, []))

    @hookimpl(tryfirst=True)
    def round_start(self, state: GameState, previous: GameState | None, events: list[Event]) -> None:
        gone = self.gone(state)
        if not gone:
            return
        if previous is not None:
            events.append(Event(ELIMINATED, gone[-1]))
        state.out = [s for s in gone if s not in state.out] + [s for s in state.out if s not in gone]
        n = len(state.players)
        for _ in range(n):
            if state.dealer not in gone:
                break
            state.dealer = (state.dealer + 1) % n

    @hookimpl(tryfirst=True)
    def score(self, state: GameState) -> dict[int, int]:
        gone = self.gone(state)
        winner = state.winner
        n = len(state.players)
        in_match = [s for s in range(n) if s not in gone]
        mercy = [s for s in state.ext.get("mercy", []) if s in in_match and s != winner]
        if mercy:
            loser = mercy[0]
        else:
            # Seats from the winner on, in seating order: the later one loses a tie.
            order = [(winner + i) % n for i in range(1, n)]
            order = [s for s in order if s in in_match]
            if not order:
                return {}
            by_points = self.options.by == "points"

            def weight(seat: int) -> int:
                hand = state.hands[seat]
                return sum(c.value for c in hand) if by_points else len(hand)

            loser = max(reversed(order), key=weight)
        state.match = {**state.match, KEY: [*gone, loser]}
        return {}

    def place(self, state: GameState, seat: int) -> int:
        """Those still in the match share the first place; then who left
        later is ahead of who left before (the first one out is last)."""
        gone = self.gone(state)
        return len(gone) - gone.index(seat) if seat in gone else 0

    @hookimpl(tryfirst=True)
    def match_winner(self, state: GameState) -> int | None:
        gone = self.gone(state)
        left = [s for s in range(len(state.players)) if s not in gone]
        return left[0] if len(left) == 1 else None
