"""The session service: load a game, let the engine move it, save it with its version.

Why optimistic concurrency and not locks: several bot processes (webhook
workers, a timer firing while a player taps a card) may touch one game. Each
move is computed from the version it loaded and saved with compare-and-set;
when another save got there first the move is simply recomputed from the
newer state, where the engine judges it again (it may now be refused, e.g.
``not_your_turn``). Within one process the service also serialises moves on
the same game, so conflicts only cost work across processes.

The move log replays the game on its own (:func:`replay`). Its entries:

=====================================  =========================================
entry                                  written by / replayed with
=====================================  =========================================
``deal {"variant": ..., "seed": ...}``  :meth:`GameService.start`, always first;
                                       ``engine.new_game`` with those arguments
``<seat> <move text>``                 :meth:`~GameService.apply`
                                       (``2 play W+4 red``, ``0 catch @1``);
                                       ``engine.apply``
``<seat> timeout``                     :meth:`~GameService.timeout`; ``engine.timeout``
``<seat> leave``                       :meth:`~GameService.leave`; ``engine.remove_player``
``next round``                         :meth:`~GameService.next_round`; ``engine.next_round``
=====================================  =========================================

Why the deal is a recipe (variant, players, seed, overrides, dealer, ~100
bytes) and not the encoded initial state (~550 bytes for four players):
replaying moves already relies on the engine being deterministic for a seed
(a reshuffle draws from the seeded RNG), so re-dealing from the seed adds no
new assumption, and the log stays small: it is kept in Redis next to every
running game.
"""

from __future__ import annotations

import json
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from . import engine
from .cards import Card
from .errors import MoveError
from .events import Event
from .moves import Move, parse_move
from .session import DEFAULT_CACHE_SIZE, DEFAULT_MAX_TRIES, Change, Session
from .state import MATCH_OVER, PLAYING, GameState
from .store import ChatId, Store, split_game_id

DEAL = "deal"
NEXT_ROUND = "next round"
TIMEOUT = "timeout"
LEAVE = "leave"

Step = Callable[[GameState], "tuple[GameState, list[Event], Sequence[str]] | None"]
"""A change to a game: from a state, the new state, its events and log entries (None: no change)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a saved change produced."""

    game_id: str
    version: int
    state: GameState
    events: list[Event]


class GameService:
    """Moves games forward through a :class:`~core.store.Store`.

    The hot path is one store round trip per move. The service remembers,
    per game, the state and version of its own last save or load (up to
    ``cache_size`` games, least recently used dropped; 0 turns it off) and
    computes the next move from that; the compare-and-set save is what
    proves it current. When another process saved in between, the save is
    refused with the stored game attached (:attr:`VersionConflict.current`)
    and the move is recomputed from it, so a stale memory costs what a load
    would have. A step that refuses or changes nothing on a remembered state
    is run again on a freshly loaded one before the answer counts, so a
    player is never told "not your turn" from an old picture.

    ``conflicts`` counts saves that lost a compare-and-set race and were
    recomputed (why: it is the one number that shows whether several
    processes fight over the same games).
    """

    def __init__(
        self,
        store: Store,
        *,
        max_tries: int = DEFAULT_MAX_TRIES,
        cache_size: int = DEFAULT_CACHE_SIZE,
    ) -> None:
        self.store = store
        self.session: Session[GameState] = Session(store, _STATES, max_tries=max_tries,
                                                    cache_size=cache_size)

    @property
    def max_tries(self) -> int:
        return self.session.max_tries

    @property
    def cache_size(self) -> int:
        return self.session.cache_size

    @property
    def conflicts(self) -> int:
        return self.session.conflicts

    @property
    def _known(self) -> Any:
        return self.session._known

    def forget(self, game_id: str | None = None) -> None:
        """Drop what the service remembers of a game (or of all games)."""
        self.session.forget(game_id)

    async def load(self, game_id: str) -> tuple[GameState, int]:
        """The game's state and version, read from the store. Raises GameNotFound
        (and the engine's StateFormatError for a state this engine cannot read)."""
        return await self.session.load(game_id)

    async def start(
        self,
        chat_id: ChatId,
        variant: str,
        players: list[str],
        *,
        seed: int | None = None,
        overrides: dict[str, Any] | None = None,
        replace: bool = False,
        dealer: int | None = None,
    ) -> Outcome:
        """Deal a new game in the chat and bind the chat to it.

        Raises :class:`~core.store.ChatBusy` when a game runs there and
        ``replace`` is false. The seed is random unless given; the deal is
        the first log entry, so the game replays from its log alone.
        """
        if seed is None:
            seed = secrets.randbelow(2**53)
        state, events = engine.new_game(variant, players, seed, overrides, dealer)
        entry = deal_entry(variant, players, seed, overrides, dealer)
        game_id, version = await self.store.create_game(
            chat_id, state.encode(), replace=replace, log=[entry]
        )
        self.session.remember(game_id, version, state)
        return Outcome(game_id, version, state, events)

    async def apply(self, game_id: str, move: Move) -> Outcome:
        """Apply ``move`` and save it; retried from the newer state on a conflict.

        A move the engine refuses raises its ``MoveError`` and saves nothing.
        After ``max_tries`` conflicts the last :class:`VersionConflict` is raised.
        """
        entry = f"{move.player} {move.text}"

        def step(state: GameState) -> tuple[GameState, list[Event], list[str]]:
            new_state, events = engine.apply(state, move)
            return new_state, events, [entry]

        outcome = await self.update(game_id, step)
        assert outcome is not None  # this step always changes the game
        return outcome

    async def timeout(self, game_id: str, *, at_move: int) -> Outcome | None:
        """The turn timer ran out: apply the variant's timeout, unless the game moved on.

        ``at_move`` is ``state.moves`` when the timer was set; if any move
        happened since, the timer is stale and nothing changes (None).
        """

        def step(state: GameState) -> tuple[GameState, list[Event], list[str]] | None:
            if state.moves != at_move or state.phase != PLAYING:
                return None
            seat = state.turn
            new_state, events = engine.timeout(state)
            return new_state, events, [f"{seat} {TIMEOUT}"]

        return await self.update(game_id, step)

    async def leave(self, game_id: str, seat: int) -> Outcome:
        """A player leaves the running round (``engine.remove_player``)."""

        def step(state: GameState) -> tuple[GameState, list[Event], list[str]]:
            if not 0 <= seat < len(state.players):
                raise ValueError(f"no seat {seat} in game {game_id}")
            new_state, events = engine.remove_player(state, seat)
            return new_state, events, [f"{seat} {LEAVE}"]

        outcome = await self.update(game_id, step)
        assert outcome is not None
        return outcome

    async def next_round(self, game_id: str) -> Outcome | None:
        """Deal the next round after a round (not the match) ended; None if not due."""

        def step(state: GameState) -> tuple[GameState, list[Event], list[str]] | None:
            if state.phase == PLAYING or state.phase == MATCH_OVER:
                return None
            new_state, events = engine.next_round(state)
            return new_state, events, [NEXT_ROUND]

        return await self.update(game_id, step)

    async def update(self, game_id: str, step: Step) -> Outcome | None:
        """Take the game (remembered, else loaded), run ``step``, save with its version.

        Through the one session layer (core/session.py): on a conflict
        ``step`` runs again on the stored game, up to ``max_tries`` saves.
        ``step`` must be pure: it may run several times, and must not change
        the state it is given. When the match is over, the chat is unbound so
        it can start a new game; the finished game stays loadable until it
        expires.
        """

        def change(state: GameState) -> Change[GameState] | None:
            done = step(state)
            if done is None:
                return None
            new_state, events, log = done
            return Change(new_state, log, (events, state.phase))

        saved = await self.session.update(game_id, change)
        if saved is None:
            return None
        events, phase_before = saved.result
        if saved.value.phase == MATCH_OVER and phase_before != MATCH_OVER:
            await self.store.unbind_chat(split_game_id(game_id)[0], game_id)
        return Outcome(game_id, saved.version, saved.value, events)


class _StateCodec:
    """Game states in the store (the session's codec)."""

    def decode(self, data: bytes, version: int) -> GameState:
        return GameState.decode(data)

    def encode(self, value: GameState) -> bytes:
        return value.encode()

    def copy(self, value: GameState, version: int) -> GameState:
        return value.clone()


_STATES = _StateCodec()


# --------------------------------------------------------------------------- replay


class ReplayError(ValueError):
    """A log that does not replay: unreadable entry, or a move the engine refuses.

    ``index`` is the position of the entry at fault in the log.
    """

    def __init__(self, index: int, entry: str, reason: str) -> None:
        super().__init__(f"log entry {index} ({entry!r}): {reason}")
        self.index = index
        self.entry = entry
        self.reason = reason


def deal_entry(
    variant: str,
    players: Sequence[str],
    seed: int,
    overrides: dict[str, Any] | None = None,
    dealer: int | None = None,
    rules: list[list[Any]] | None = None,
) -> str:
    """The log entry that re-deals a game: ``deal`` and the arguments of
    ``engine.new_game``; with ``rules``, the resolved rules and options the
    game was dealt under (so the log determines the game whatever the
    variant's file says later)."""
    recipe: dict[str, Any] = {"variant": variant, "players": list(players), "seed": seed}
    if overrides:
        recipe["overrides"] = overrides
    if dealer is not None:
        recipe["dealer"] = dealer
    if rules:
        recipe["rules"] = rules
    return f"{DEAL} {json.dumps(recipe, separators=(',', ':'), ensure_ascii=False)}"


#: Entries a chat table writes that do not change its game (the lobby,
#: settings, adapter data, a chat's move): a replay passes over them.
TABLE_ENTRIES = frozenset({"new", "join", "leave", "ai", "settings", "adapter", "moved", "stop"})


class _NotDealt(Exception):
    """A table entry before the game was dealt (a lobby's)."""


def replay(
    entries: Iterable[str],
    initial: GameState | None = None,
    *,
    each: Callable[[GameState], None] | None = None,
) -> GameState:
    """The state a log leads to, replayed through the engine.

    The log starts with its ``deal`` entry, or ``initial`` is the state it
    starts from (for logs of games dealt some other way). ``each`` is called
    with every state along the way, the first included (for invariant
    checks). Raises :class:`ReplayError` for an entry that is unreadable or
    that the engine refuses.
    """
    state = initial
    if state is not None and each is not None:
        each(state)
    for index, entry in enumerate(entries):
        try:
            state = _replay_entry(state, entry)
        except _NotDealt:
            continue
        except ReplayError:
            raise
        except (MoveError, ValueError, KeyError, TypeError) as exc:
            raise ReplayError(index, entry, str(exc) or type(exc).__name__) from exc
        if each is not None:
            each(state)
    if state is None:
        raise ReplayError(0, "", "the log is empty and no initial state was given")
    return state


def replay_steps(entries: Iterable[str]) -> Iterable[tuple[str, GameState | None]]:
    """Each log entry with the game state after it (None before the deal),
    for printing a game move by move. Raises ReplayError like `replay`."""
    state: GameState | None = None
    for index, entry in enumerate(entries):
        try:
            state = _replay_entry(state, entry)
        except _NotDealt:
            pass
        except (MoveError, ValueError, KeyError, TypeError) as exc:
            raise ReplayError(index, entry, str(exc) or type(exc).__name__) from exc
        yield entry, state


def replay_events(entries: Iterable[str]) -> Iterable[tuple[str, GameState | None, list[Event]]]:
    """Each log entry with the state after it and the engine's events for it
    (what a replay tells in words). Raises ReplayError like `replay`."""
    state: GameState | None = None
    for index, entry in enumerate(entries):
        events: list[Event] = []
        try:
            state, events = _replay_entry_events(state, entry)
        except _NotDealt:
            pass
        except (MoveError, ValueError, KeyError, TypeError) as exc:
            raise ReplayError(index, entry, str(exc) or type(exc).__name__) from exc
        yield entry, state, events


def _replay_entry(state: GameState | None, entry: str) -> GameState:
    return _replay_entry_events(state, entry)[0]


def _replay_entry_events(state: GameState | None, entry: str) -> tuple[GameState, list[Event]]:
    head, _, rest = entry.partition(" ")
    if head == DEAL:
        if state is not None:
            raise ValueError("a second deal")
        recipe = json.loads(rest)
        dealt, events = engine.new_game(recipe["variant"], recipe["players"], recipe["seed"],
                                        recipe.get("overrides"), recipe.get("dealer"),
                                        rule_spec=recipe.get("rules"))
        return dealt, list(events)
    if head in TABLE_ENTRIES and not (state is not None and rest == LEAVE):
        if state is None:
            raise _NotDealt
        return state, []
    if state is None:
        raise ValueError("the log does not start with a deal and no initial state was given")
    if entry == NEXT_ROUND:
        state, events = engine.next_round(state)
    else:
        seat = int(head)
        if rest == TIMEOUT:
            if seat != state.turn:
                raise ValueError(f"seat {seat} timed out but seat {state.turn} was to move")
            state, events = engine.timeout(state)
        elif rest == LEAVE:
            state, events = engine.remove_player(state, seat)
        else:
            state, events = engine.apply(state, parse_move(rest, seat, state.players))
    return state, list(events)


# --------------------------------------------------------------------------- audit


class AuditError(AssertionError):
    """A stored game whose log does not account for its state."""


@dataclass(frozen=True, slots=True)
class Audit:
    """What :func:`audit` found for one game (all checks passed)."""

    game_id: str
    version: int
    entries: int
    state: GameState


async def audit(store: Store, game_id: str, *, cards: bool = True) -> Audit:
    """Check that a stored game is exactly what its log replays to.

    Checks: the game exists; its log replays through the engine (every
    entry accepted); the replayed state equals the stored one; the version
    equals the number of log entries (the deal is saved at version 1 and
    every save of the service appends one entry, so a lost or doubled save
    shows); with ``cards``, no card is created or lost at any step. Raises
    :class:`AuditError` saying which check failed. Why here: the simulator,
    the tests and an operator poking at a live store all need the same
    verdict.
    """
    stored = await store.load_game(game_id)
    if stored is None:
        raise AuditError(f"{game_id}: not in the store")
    log = await store.read_log(game_id)
    state = GameState.decode(stored.state)
    deck: Counter[Card] | None = None

    def conserved(step_state: GameState) -> None:
        nonlocal deck
        seen = Counter(step_state.all_cards())
        if deck is None:
            deck = seen
        elif seen != deck:
            raise AuditError(f"{game_id}: cards created or lost by move {step_state.moves}")

    try:
        replayed = replay(log, each=conserved if cards else None)
    except ReplayError as exc:
        raise AuditError(f"{game_id}: {exc}") from exc
    if not replayed.same_as(state):
        raise AuditError(f"{game_id}: the log replays to a different state than the stored one "
                         f"(moves {replayed.moves} replayed, {state.moves} stored)")
    if stored.version != len(log):
        raise AuditError(f"{game_id}: version {stored.version} but {len(log)} log entries")
    return Audit(game_id, stored.version, len(log), state)
