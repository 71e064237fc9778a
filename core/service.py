"""The session service: load a game, let the engine move it, save it with its version.

Why optimistic concurrency and not locks: several bot processes (webhook
workers, a timer firing while a player taps a card) may touch one game. Each
move is computed from the version it loaded and saved with compare-and-set;
when another save got there first the move is simply recomputed from the
newer state, where the engine judges it again (it may now be refused, e.g.
``not_your_turn``). Within one process the service also serialises moves on
the same game, so conflicts only cost work across processes.

Every save appends the move to the game's log as ``"<seat> <move text>"``
(``"2 play W+4 red"``, ``"0 timeout"``): with the variant and seed kept in
the state, the log replays the game.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import engine
from .events import Event
from .moves import Move
from .state import MATCH_OVER, GameState
from .store import ChatId, GameNotFound, Store, VersionConflict, split_game_id

DEFAULT_MAX_TRIES = 8

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
    """Moves games forward through a :class:`~core.store.Store`."""

    def __init__(self, store: Store, *, max_tries: int = DEFAULT_MAX_TRIES) -> None:
        if max_tries < 1:
            raise ValueError("max_tries must be at least 1")
        self.store = store
        self.max_tries = max_tries
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def load(self, game_id: str) -> tuple[GameState, int]:
        """The game's state and version. Raises GameNotFound (and the engine's
        StateFormatError for a state this engine cannot read)."""
        stored = await self.store.load_game(game_id)
        if stored is None:
            raise GameNotFound(game_id)
        return GameState.decode(stored.state), stored.version

    async def start(
        self,
        chat_id: ChatId,
        variant: str,
        players: list[str],
        *,
        seed: int | None = None,
        overrides: dict[str, Any] | None = None,
        replace: bool = False,
    ) -> Outcome:
        """Deal a new game in the chat and bind the chat to it.

        Raises :class:`~core.store.ChatBusy` when a game runs there and
        ``replace`` is false. The seed is random unless given; it is kept in
        the state, so the game replays from its log.
        """
        if seed is None:
            seed = secrets.randbelow(2**53)
        state, events = engine.new_game(variant, players, seed, overrides)
        game_id, version = await self.store.create_game(chat_id, state.encode(), replace=replace)
        return Outcome(game_id, version, state, events)

    async def apply(self, game_id: str, move: Move) -> Outcome:
        """Apply ``move`` and save it; retried from the newer state on a conflict.

        A move the engine refuses raises its ``MoveError`` and saves nothing.
        After ``max_tries`` conflicts the last :class:`VersionConflict` is raised.
        """

        def step(state: GameState) -> tuple[GameState, list[Event], list[str]]:
            new_state, events = engine.apply(state, move)
            return new_state, events, [f"{move.player} {move.text}"]

        outcome = await self.update(game_id, step)
        assert outcome is not None  # this step always changes the game
        return outcome

    async def timeout(self, game_id: str, *, at_move: int) -> Outcome | None:
        """The turn timer ran out: apply the variant's timeout, unless the game moved on.

        ``at_move`` is ``state.moves`` when the timer was set; if any move
        happened since, the timer is stale and nothing changes (None).
        """

        def step(state: GameState) -> tuple[GameState, list[Event], list[str]] | None:
            if state.moves != at_move:
                return None
            seat = state.turn
            new_state, events = engine.timeout(state)
            return new_state, events, [f"{seat} timeout"]

        return await self.update(game_id, step)

    async def update(self, game_id: str, step: Step) -> Outcome | None:
        """Load, run ``step``, save with the loaded version; on a conflict, again.

        ``step`` must be pure (it may run several times). When the match is
        over, the chat is unbound so it can start a new game; the finished
        game stays loadable until it expires.
        """
        last: VersionConflict | None = None
        async with self._lock(game_id):
            for attempt in range(1, self.max_tries + 1):
                state, version = await self.load(game_id)
                change = step(state)
                if change is None:
                    return None
                new_state, events, log = change
                try:
                    new_version = await self.store.save_game(
                        game_id, new_state.encode(), expected_version=version, log=log
                    )
                except VersionConflict as exc:
                    last = exc
                    await asyncio.sleep(random.uniform(0, 0.002 * attempt))  # de-synchronise
                    continue
                if new_state.phase == MATCH_OVER and state.phase != MATCH_OVER:
                    await self.store.unbind_chat(split_game_id(game_id)[0], game_id)
                return Outcome(game_id, new_version, new_state, events)
        assert last is not None
        raise last
