"""Scoring (shared rule): the winner of a round scores the cards left in the
other hands: numbers at face value, Draw Two / Reverse / Skip 20, Wild /
Wild Draw Four 50. The first to `target` points wins the match
(`target: 0` makes every round a match of its own).
"""

from unobot import GameState, Rule, dataclass, hookimpl, option


class Scoring(Rule):
    name = "scoring"
    title = {"en": "Scoring", "es": "Puntuación"}
    base = True

    @dataclass(frozen=True)
    class Options:
        target: int = option(500, min=0, max=100_000, title="Target score", help="points that win the match (0: every round)")

    def match_target(self) -> int | None:
        return int(self.options.target) or None  # 0: every round is a match; no target to tell

    @hookimpl(trylast=True)
    def score(self, state: GameState) -> dict[int, int]:
        winner = state.winner
        total = 0
        for seat, hand in enumerate(state.hands):  # loops, not a generator: every round's end
            if seat != winner:
                for card in hand:
                    total += card.value
        return {winner: total}

    @hookimpl(trylast=True)
    def match_winner(self, state: GameState) -> int | None:
        target = self.options.target
        scores = state.scores
        best = scores.index(max(scores))  # the first seat with the most points
        if target <= 0 or state.scores[best] >= target:
            return best if target > 0 else state.winner
        return None
