"""Progressive scoring: every player adds the value of the cards left in
their own hand to a running total; when someone reaches `target`, the
player with the lowest total wins the match."""

from unobot import GameState, Rule, dataclass, hookimpl, option


class ProgressiveScoring(Rule):
    name = "progressive-scoring"
    title = {"en": "Progressive scoring (lowest wins)", "es": "Puntuación progresiva (gana el menor)"}
    lowest_score_wins = True  # the players' records rank the others by their totals, lowest first

    @dataclass(frozen=True)
    class Options:
        target: int = option(500, min=1, max=100_000, title="Match total", help="total that ends the match")

    def match_target(self) -> int | None:
        return int(self.options.target)

    @hookimpl(tryfirst=True)
    def score(self, state: GameState) -> dict[int, int]:
        return {seat: sum(c.value for c in hand) for seat, hand in enumerate(state.hands)}

    @hookimpl(tryfirst=True)
    def match_winner(self, state: GameState) -> int | None:
        scores = state.scores
        if max(scores) >= self.options.target:
            return min(range(len(scores)), key=lambda s: scores[s])
        return None
