"""Double score: the points of every round are multiplied by `factor`
(2 by default), whatever scoring rule counts them.

Decision: only the round's points are multiplied; the target that wins the
match stays as it is, so matches end sooner.
"""

from collections.abc import Generator

from unobot import GameState, Rule, dataclass, hookimpl, option


class DoubleScore(Rule):
    name = "double-score"
    title = {"en": "Double score", "es": "Puntos dobles"}

    @dataclass(frozen=True)
    class Options:
        factor: int = option(2, min=1, max=10, help="what round points are multiplied by")

    @hookimpl(wrapper=True)
    def score(self, state: GameState) -> Generator[None, dict[int, int] | None, dict[int, int] | None]:
        points = yield
        if not points:
            return points
        return {seat: pts * self.options.factor for seat, pts in points.items()}
