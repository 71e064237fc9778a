"""Double score: the points of every round are multiplied by `factor`
(2 by default), whatever scoring rule counts them and whatever other
rules add to them (mercy's knocked-out hands): (count + additions) x factor.

Decision: only the round's points are multiplied; the target that wins the
match stays as it is, so matches end sooner.
"""

from unobot import GameState, Rule, dataclass, hookimpl, option


class DoubleScore(Rule):
    name = "double-score"
    title = {"en": "Double score", "es": "Puntos dobles"}

    @dataclass(frozen=True)
    class Options:
        factor: int = option(2, min=1, max=10, title="Multiplier", help="what round points are multiplied by")

    @hookimpl
    def score_factor(self, state: GameState) -> int:
        # The last step of the round's points (`unobot.round_points`): it
        # multiplies what was counted and added (mercy's hands too).
        return int(self.options.factor)
