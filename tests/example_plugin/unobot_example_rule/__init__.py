"""An example third-party rule package, shipped as its own distribution.

It is installed into the test environment and found by unobot through the
`unobot.rules` entry-point group (see this folder's pyproject.toml), exactly
as a package published on PyPI would be. docs/plugins.md walks through the
same extension points. It uses every one of them:

- `double-skip`: an option (`players`), a card effect (`on_play`);
- `skip-everyone`: a new card kind (Skip Everyone, `RSE`...) put into the
  deck (`more_cards`), its own event text in English and Spanish, an option
  a chat admin can set (`per_colour`);
- `knock`: a new move kind (`knock`) with a refusal code of its own
  (`already_knocked`) and match-level data (`state.match`: knocks counted
  over the whole match);
- `sticky-seven`: a card that is not a draw card puts a pending draw on
  the next player through the public call (`penalize`), answered by
  another 7 (`hold_penalty`, `can_stack`);
- `nudge` (`nudge.py`): a move aimed at another player that puts no card
  down (`Move(NUDGE, player, target=seat)`), offered by the player's name;
- `match-report`: counts rounds (`round_end`) and reports at the end of
  the match (`match_end`), however it ends, in English and Spanish;
- its own gettext catalogue (`locale/`), and a variant published through
  the `unobot.variants` entry-point group (`variants/example-party.yaml`).

Its tests (`tests/`) use only `unobot.testing` and scenario files.
"""

from pathlib import Path

from unobot import (
    N_,
    NP_,
    CardKind,
    Event,
    GameState,
    Move,
    Rule,
    advance,
    dataclass,
    hookimpl,
    option,
    penalize,
)
from unobot.cards import COLORS, SKIP, Card

#: This package's catalogue: (gettext domain, folder of <lang>/LC_MESSAGES/).
LOCALE = ("unobot_example_rule", Path(__file__).parent / "locale")


class DoubleSkip(Rule):
    """Double skip: a Skip card makes the next `players` players lose their turn."""

    name = "double-skip"
    title = {"en": "Double skip", "es": "Salto doble"}
    locale = LOCALE

    @dataclass(frozen=True)
    class Options:
        players: int = option(2, min=1, max=5, title="Players skipped", help="players a Skip skips")

    @hookimpl
    def on_play(self, state: GameState, move: Move, card: Card, events: list[Event]) -> bool | None:
        if card.rank != SKIP or card.is_wild or not state.hands[move.player]:
            return None
        advance(state, self.options.players, events)
        return True


SKIPPED_EVERYONE = "skipped_everyone"


class SkipEveryone(Rule):
    """Skip Everyone: a new card; every other player loses a turn, so its
    player plays again. It matches its colour or another Skip Everyone."""

    name = "skip-everyone"
    title = {"en": "Skip Everyone cards", "es": "Cartas Salta a todos"}
    locale = LOCALE
    cards = (CardKind("SE", value=20, name=N_("Skip Everyone")),)
    event_texts = {SKIPPED_EVERYONE: N_("{player} skips everyone and plays again!")}

    @dataclass(frozen=True)
    class Options:
        per_colour: int = option(1, min=0, max=2, title="Cards per colour", help="Skip Everyone cards of each colour in the deck")

    @hookimpl
    def more_cards(self, players: int) -> list[Card]:
        return [Card.get(color, "SE") for color in COLORS] * self.options.per_colour

    @hookimpl
    def on_play(self, state: GameState, move: Move, card: Card, events: list[Event]) -> bool | None:
        if card.rank != "SE" or not state.hands[move.player]:
            return None
        events.append(Event(SKIPPED_EVERYONE, move.player))
        state.drawn = None  # the same player moves again, a fresh turn
        state.draws = 0
        return True


KNOCK = "knock"
ALREADY_KNOCKED = "already_knocked"
KNOCKED = "knocked"


class Knock(Rule):
    """Knock: once a round, the player to move may knock on the table before
    playing. Knocks are counted over the whole match (a bragging right)."""

    name = "knock"
    title = {"en": "Knocking", "es": "Golpear la mesa"}
    locale = LOCALE
    checks = (KNOCK,)
    move_symbols = {KNOCK: "✊"}
    move_kinds = {KNOCK: N_("Knock on the table")}
    refusals = {ALREADY_KNOCKED: N_("You have already knocked this round.")}
    event_texts = {KNOCKED: NP_("{player} knocks on the table ({n} knock this match).",
                                "{player} knocks on the table ({n} knocks this match).")}

    @staticmethod
    def _knocked(state: GameState, player: int) -> bool:
        return player in state.ext.get("knocked", ())

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind != KNOCK:
            return None
        if move.player != state.turn:
            return "not_your_turn"
        return ALREADY_KNOCKED if self._knocked(state, move.player) else True

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        if player == state.turn and not self._knocked(state, player):
            return [Move(KNOCK, player)]
        return None

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != KNOCK:
            return None
        seat = str(move.player)
        counts = dict(state.match.get("knocks", {}))
        counts[seat] = counts.get(seat, 0) + 1
        state.match = {**state.match, "knocks": counts}      # lasts the whole match
        state.ext = {**state.ext, "knocked": [*state.ext.get("knocked", []), move.player]}  # this round
        events.append(Event(KNOCKED, move.player, n=counts[seat]))
        return True


SEVEN = "7"


class StickySeven(Rule):
    """Sticky seven: a 7 makes the next player draw `cards` cards unless
    they answer with a 7 of their own, which adds `cards` more and passes
    the total on. A 7 that is a player's last card still counts."""

    name = "sticky-seven"
    title = {"en": "Sticky seven", "es": "Siete pegajoso"}
    locale = LOCALE
    conflicts = ("seven-o",)  # a 7 does one thing

    @dataclass(frozen=True)
    class Options:
        cards: int = option(2, min=1, max=6, help="cards a 7 makes the next player draw",
                            title="Cards per 7")

    @hookimpl
    def on_play(self, state: GameState, move: Move, card: Card, events: list[Event]) -> bool | None:
        if card.rank != SEVEN or card.is_wild:
            return None
        victim = state.rules.next_turn(state, move.player, 0)
        penalize(state, victim, self.options.cards, events, rank=SEVEN, card=card)
        return True

    @hookimpl
    def hold_penalty(self, state: GameState, victim: int, card: Card) -> bool | None:
        return True if card.rank == SEVEN and not card.is_wild else None  # a 7 may answer it

    @hookimpl(tryfirst=True)
    def can_stack(self, state: GameState, player: int, card: Card) -> bool | None:
        if state.pending_rank != SEVEN:
            return None
        return card.rank == SEVEN and not card.is_wild


MATCH_REPORT = "match_report"
MATCH_REPORT_LEFT = "match_report_left"
MATCH_REPORT_STOPPED = "match_report_stopped"
MATCH_REPORT_ROUNDS = "match_report_rounds"
MATCH_ROUNDS = "match_rounds"


class MatchReport(Rule):
    """Match report: when the match ends, however it ends, the table is
    told who won it (or who led, when it was stopped) and how many rounds
    it lasted."""

    name = "match-report"
    title = {"en": "Match report", "es": "Resumen de la partida"}
    locale = LOCALE
    plain_turn = True  # its hooks are asked only when a round or the match ends
    event_texts = {
        MATCH_REPORT: N_("Match report: {player} won the match with {n} points."),
        MATCH_REPORT_LEFT: N_("Match report: the others left, so {player} won the match with {n} points."),
        MATCH_REPORT_STOPPED: N_("Match report: the match was stopped; {player} led with {n} points."),
        MATCH_REPORT_ROUNDS: N_("Match report: all its rounds played, {player} led with {n} points."),
        MATCH_ROUNDS: NP_("The match lasted {n} round.", "The match lasted {n} rounds."),
    }

    @hookimpl
    def round_end(self, state: GameState, points: dict[int, int], events: list[Event]) -> None:
        state.match = {**state.match, "rounds": state.match.get("rounds", 0) + 1}

    @hookimpl
    def match_end(self, state: GameState, winner: int, reason: str, events: list[Event]) -> None:
        scores = state.scores
        if winner < 0:  # stopped, or its rounds played: whoever has the most points led
            winner = max(range(len(scores)), key=lambda seat: scores[seat])
        kind = {"left": MATCH_REPORT_LEFT, "stopped": MATCH_REPORT_STOPPED,
                "rounds": MATCH_REPORT_ROUNDS}.get(reason, MATCH_REPORT)
        events.append(Event(kind, winner, n=scores[winner]))
        events.append(Event(MATCH_ROUNDS, n=state.match.get("rounds", 0)))
