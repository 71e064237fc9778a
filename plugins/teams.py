"""Teams: partners sit opposite each other (with four players, seats 1 and
3 against 2 and 4). When one player goes out, their team wins the round and
scores the cards left in the opponents' hands; the match is won by a team.

Decisions: each member's score is the team's total, so the first team to
the target wins (the match is announced for the member of the
winning team who sits first); partners' cards are not counted; with a
number of players that `size` does not divide, the last team is smaller;
there are always at least two teams (two players play each for themselves).
"""

from unobot import GameState, Rule, dataclass, hookimpl, option


def team_of(seat: int, players: int, size: int) -> int:
    teams = max(2, -(-players // size))  # never fewer than two teams
    return seat % teams


class Teams(Rule):
    name = "teams"
    title = {"en": "Teams", "es": "Equipos"}
    conflicts = ("progressive-scoring", "elimination")

    @dataclass(frozen=True)
    class Options:
        size: int = option(2, min=2, max=5, title="Team size", help="players in a team")

    def team(self, state: GameState, seat: int) -> int | None:
        """The seat's team: partners win the match together (the players' records say so)."""
        return team_of(seat, len(state.players), self.options.size)

    @hookimpl(tryfirst=True)
    def score(self, state: GameState) -> dict[int, int]:
        n = len(state.players)
        size = self.options.size
        mine = team_of(state.winner, n, size)
        team = [s for s in range(n) if team_of(s, n, size) == mine]
        total = sum(c.value for s, hand in enumerate(state.hands) if s not in team for c in hand)
        return {s: total for s in team}
