"""unobot.testing: test a rule through the public API only.

A third-party rule's tests should not need unobot's private names (the
chat's renderer, the scenario runner's internals). This kit lays a table
out from a scenario's setup, applies moves by their text, reads what
happened in a language, and checks refusals by code and by text:

    from unobot import testing

    with testing.installed(LuckySeven):             # a rule without an entry point
        t = testing.table({"players": ["ana", "ben"], "rules": {"lucky-seven": {}},
                           "setup": {"hands": {"ana": "R7 G1", "ben": "B2"}, "discard": "R3",
                                     "draw": "Y1 Y2 Y3"}})
        t.play("ana", "play R7")                      # fails with the refusal's code and text
        assert "penalty_pending" in t.kinds()
        assert t.texts("es")[-1] == "ben debe robar 1 o responder."
        t.refused("ben", "play B2", "pending_draw", says={"en": "You must take ..."})
        t.expect(pending_draw=1, turn="ben")          # any key of a scenario's expect:
        t.leave("ben")                                # the match ends: match_end is told
        assert t.match_data == {...}

`scenario(data)` runs a whole scenario (a dict, YAML text or a path) and
fails with the runner's explanation. Everything here uses the same engine
calls a chat does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .actions import STOPPED, end_match
from .cards import Card, parse_card
from .engine import apply, legal_moves, new_game, next_round, remove_player, rules_of
from .engine import timeout as engine_timeout
from .errors import RULE_FAILED, MoveError
from .events import Event
from .moves import Move, parse_move
from .rule import Rule
from .scenario import (
    Result,
    ScenarioError,
    build_table,
    check_expect,
    event_line,
    run_scenario,
    run_scenario_data,
)
from .state import GameState

__all__ = [
    "Refusal", "Table", "card_name", "deal", "event_text", "installed", "refusal_text", "scenario", "table",
]


def event_text(event: Event, state: GameState, lang: str = "en") -> str | None:
    """An event as the players read it in `lang` (None: an event nobody is shown)."""
    return event_line(state, event, lang)


def card_name(card: Card | str, lang: str = "en") -> str:
    """A card's name in `lang` (`Red 5`, `5 rojo`; a plugin card's own name)."""
    from .chat.render import card_name as name

    return name(parse_card(card) if isinstance(card, str) else card, lang)


def refusal_text(code: str, lang: str = "en") -> str:
    """What a player is told when a move is refused with `code` (a rule's
    own codes through its catalogue)."""
    from .chat.render import error_text

    return error_text(code, lang)


class Refusal:
    """A refused move: its code, and its text in any language."""

    def __init__(self, code: str) -> None:
        self.code = code

    def text(self, lang: str = "en") -> str:
        return refusal_text(self.code, lang)

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}: {self.text()!r})"


class Table:
    """A game under test: `state`, and `events`, what the last step did."""

    def __init__(self, state: GameState, events: list[Event] | None = None) -> None:
        rules_of(state)
        self.state = state
        self.events: list[Event] = list(events or [])

    # -- reading it ----------------------------------------------------------------
    @property
    def players(self) -> list[str]:
        return self.state.players

    def seat(self, who: str | int) -> int:
        if isinstance(who, int):
            return who
        if who not in self.state.players:
            raise AssertionError(f"{who!r} is not a player ({', '.join(self.state.players)})")
        return self.state.players.index(who)

    def hand(self, who: str | int) -> list[str]:
        """The player's hand in text form (`["R5", "W+4"]`)."""
        return [c.text for c in self.state.hands[self.seat(who)]]

    @property
    def round_data(self) -> dict[str, Any]:
        """Rules' data for this round (`state.ext`)."""
        return self.state.ext

    @property
    def match_data(self) -> dict[str, Any]:
        """Rules' data for the whole match (`state.match`)."""
        return self.state.match

    def kinds(self) -> list[str]:
        """The kinds of the last step's events, in order."""
        return [e.kind for e in self.events]

    def texts(self, lang: str = "en") -> list[str]:
        """The last step's events as the table reads them in `lang` (events
        nobody is shown are left out)."""
        return [line for e in self.events if (line := event_line(self.state, e, lang))]

    def expect(self, **checks: Any) -> None:
        """The checks of a scenario's `expect:` step (turn=, hand_size=,
        events=, round_data=, ...); fails naming every mismatch."""
        try:
            problems = check_expect(self.state, checks, self.events)
        except ScenarioError as exc:
            raise AssertionError(str(exc)) from None
        if problems:
            raise AssertionError("; ".join(str(p) for p in problems))  # a test reads English

    def legal(self, who: str | int) -> list[str]:
        """The moves `who` may make now, in the text form `play` takes (`play
        R5`, `swap ben`), as the engine lists them for every front-end and the AI."""
        seat = self.seat(who)
        return [self._text(m) for m in legal_moves(self.state, seat)]

    def _text(self, move: Move) -> str:
        """A move's text as `play` reads it: its target by the player's name."""
        text = move.text
        if move.target is not None:
            text = text.removesuffix(f"@{move.target}") + self.state.players[move.target]
        return text

    def ai(self, who: str | int, level: str = "normal", seed: int = 0) -> str:
        """The move an AI seat of `level` (easy, normal, hard, expert)
        chooses for `who` now, in the text form `play` takes, without making it: how a rule's
        author checks the AI takes their move when it helps and leaves it
        when it hurts (`Rule.move_value` tells it what a move is worth)."""
        import random

        from .ai import new_player

        seat = self.seat(who)
        player = new_player(level, rollouts=24) if level == "expert" else new_player(level)
        return self._text(player(self.state, seat, legal_moves(self.state, seat), random.Random(seed)))

    # -- changing it -----------------------------------------------------------------
    def _step(self, result: tuple[GameState, list[Event]]) -> list[Event]:
        self.state, self.events = result
        return self.events

    def move(self, who: str | int, text: str) -> Move:
        """The move `text` (`play R7`, `draw`, `knock`) of `who`, parsed."""
        return parse_move(text, self.seat(who), self.state.players)

    def play(self, who: str | int, text: str) -> list[Event]:
        """Apply a move by its text; fails with the refusal's code and text
        when the rules refuse it. Returns (and keeps) its events."""
        try:
            return self._step(apply(self.state, self.move(who, text)))
        except MoveError as exc:
            if exc.code == RULE_FAILED:  # a rule's bug: its file, line and error, with its traceback
                raise AssertionError(f"{who}: {text}: {exc.detail}") from exc.__cause__
            raise AssertionError(f"{who}: {text} was refused ({exc.code}: {refusal_text(exc.code)})") from None

    def refused(self, who: str | int, text: str, code: str | None = None,
                says: str | dict[str, str] | None = None) -> Refusal:
        """The move must be refused (with `code`, and saying `says`: the
        English text, or {lang: text}) and change nothing."""
        before = self.state.encode()
        try:
            self.state, _events = apply(self.state, self.move(who, text))
        except MoveError as exc:
            refusal = Refusal(exc.code)
        else:
            raise AssertionError(f"{who}: {text} was accepted, expected a refusal ({code or 'any'})")
        if self.state.encode() != before:
            raise AssertionError(f"{who}: {text} was refused but changed the state")
        if code is not None and refusal.code != code:
            raise AssertionError(f"{who}: {text} was refused with {refusal.code}, expected {code}")
        for lang, wanted in ({"en": says} if isinstance(says, str) else says or {}).items():
            if refusal.text(lang) != wanted:
                raise AssertionError(f"{who}: {text} was refused saying {refusal.text(lang)!r} ({lang}), "
                                     f"expected {wanted!r}")
        return refusal

    def timeout(self) -> list[Event]:
        """The turn timer of the player to move runs out."""
        return self._step(engine_timeout(self.state))

    def leave(self, who: str | int) -> list[Event]:
        """`who` leaves the match (a chat's /leave): the round, and the
        match when one player is left, end as the rules say."""
        return self._step(remove_player(self.state, self.seat(who)))

    def next_round(self) -> list[Event]:
        """After a round (not the match) ended: deal the next one."""
        return self._step(next_round(self.state))

    def stop(self, reason: str = STOPPED) -> list[Event]:
        """The chat ends the match now: an admin's stop (`stopped`), or the
        rounds it was to last played (`stop("rounds")`, `--rounds N`);
        `match_end` is told with that reason."""
        state = self.state.clone()
        events: list[Event] = []
        end_match(state, -1, reason, events)
        self.state, self.events = state, events
        return events


def table(data: dict[str, Any] | str, base_dir: Path | None = None) -> Table:
    """A table laid out from a scenario's `players`, `variant`, `rules`,
    `seed` and `setup` (a mapping, or its YAML text); `steps` are ignored."""
    if isinstance(data, str):
        import yaml

        data = yaml.safe_load(data)
    if not isinstance(data, dict):
        raise AssertionError("a scenario is a mapping with players and setup")
    from .variants import VariantError

    try:
        return Table(build_table(data, base_dir))
    except (ScenarioError, VariantError, ValueError) as exc:  # a bad setup, rules that clash
        raise AssertionError(f"setup: {exc}") from None


def deal(variant: str, players: list[str], seed: int = 0, rules: dict[str, Any] | None = None) -> Table:
    """A new match of `variant`, shuffled with `seed` and dealt."""
    return Table(*new_game(variant, players, seed, rules))


def scenario(data: dict[str, Any] | str | Path, path: str = "<scenario>") -> Result:
    """Run a scenario (a mapping, YAML text, or a file's path) and fail with
    the runner's explanation when it does not pass."""
    if isinstance(data, Path):
        result = run_scenario(data)
    else:
        if isinstance(data, str):
            import yaml

            data = yaml.safe_load(data)
        if not isinstance(data, dict):
            raise AssertionError("a scenario is a mapping with players, setup and steps")
        result = run_scenario_data(data, path)
    if not result.passed:
        raise AssertionError(result.describe())
    return result


@contextmanager
def installed(*rules: type[Rule]) -> Iterator[None]:
    """The rules are known (as if installed through their entry points)
    while the block runs, and forgotten after."""
    from .registry import register_rule, unregister_rule
    from .variants import clear_caches

    for rule in rules:
        register_rule(rule)
    clear_caches()
    try:
        yield
    finally:
        for rule in rules:
            unregister_rule(rule.name)
        clear_caches()
