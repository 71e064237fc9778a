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
- its own gettext catalogue (`locale/`), and a variant published through
  the `unobot.variants` entry-point group (`variants/example-party.yaml`).
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
)
from unobot.cards import COLORS, SKIP, Card

#: This package's catalogue: (gettext domain, folder of <lang>/LC_MESSAGES/).
LOCALE = ("unobot_example_rule", Path(__file__).parent / "locale")


class DoubleSkip(Rule):
    """Double skip: a Skip card makes the next `players` players lose their turn."""

    name = "double-skip"
    title = {"en": "Double skip", "es": "Salto doble"}

    @dataclass(frozen=True)
    class Options:
        players: int = option(2, min=1, max=5, help="players a Skip skips")

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
        per_colour: int = option(1, min=0, max=2, help="Skip Everyone cards of each colour in the deck")

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
