"""Which game a person's hand is asked for, when the asking names no place.

Why in core: a request for "my cards" may come with no chat (Telegram's
inline query carries none) while a player may sit in several games. Which
table it is about is a decision about tables, not about a platform: the one
the request names, if the person sits there (never another game's hand:
its picks would land in the wrong place); naming none, their one running
game; several running, all of them for the person to pick from. The front-end
says only where the person played lately (`recent`: Telegram keeps that in
a record of its own in the store, as the request may reach any process).

A hand is asked for on every move, so the finder saves store reads: the
places of a person's recent games for a few seconds, and each place's
running game id for longer. A cached id is trusted only when the table it
names is still running (playing or between rounds): the service replaces a
place's game only when that game is finished or an abandoned lobby, and a
stopped game is deleted, so a running table at that id is the place's
current game. Anything else takes the service's own path.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from ..state import StateFormatError
from ..store import Store
from .bounded import BoundedCache
from .table import BETWEEN_ROUNDS, FINISHED, PLAYING, Table

#: The most persons and places each of the finder's caches holds.
CACHE_SIZE = 4096
#: Seconds a place's running game id, and a person's recent places, are trusted.
GAME_TTL, PLACES_TTL = 30.0, 10.0


class Tables(Protocol):
    """What the finder needs of the chat service."""

    store: Store

    async def table(self, chat_id: str) -> Table | None: ...


@dataclass(frozen=True)
class NotSeated:
    """The request names a place (`chat`) the person has no seat in;
    `table` is that place's table, if a game runs there."""

    chat: str
    table: Table | None


class SeatFinder:
    """Finds the table of a person's hand; `recent(person_id)` reads the
    places of their recent games, newest first, from the front-end's record."""

    def __init__(self, service: Tables, recent: Callable[[str], Awaitable[list[str]]], *,
                 size: int = CACHE_SIZE) -> None:
        self.service = service
        self.recent = recent
        #: place -> the id of its running game.
        self.game_ids: BoundedCache[str, str] = BoundedCache(size, GAME_TTL)
        #: person id -> the places of their recent games, newest first.
        self.places: BoundedCache[str, list[str]] = BoundedCache(size, PLACES_TTL)

    def played(self, person_id: str, places: list[str]) -> None:
        """The person's recent places just changed (they opened or joined a game)."""
        self.places.put(person_id, list(places))

    def moved(self, place: str) -> None:
        """The place's game moved away (a chat that changed its id)."""
        self.game_ids.pop(place)

    async def find(self, person_id: str, place: str | None = None) -> Table | list[Table] | NotSeated | None:
        """The table `place` names if the person sits there (else NotSeated);
        naming none: their running game, all of them if several run, else the
        newest table they sit at (a lobby, a round's end), else None."""
        if place is not None:
            table = await self.table(place)
            if table is not None and table.phase != FINISHED and table.seat_of(person_id) is not None:
                return table
            return NotSeated(place, table)
        tables = await self.seated(person_id)
        running = [t for t in tables if t.phase == PLAYING]
        if len(running) > 1:
            return running
        return tables[0] if tables else None

    async def seated(self, person_id: str) -> list[Table]:
        """The tables the person sits at among their recent places, running
        ones first. When the cached places lead to no running game, the
        front-end's record is read again."""
        cached = self.places.get(person_id)
        if cached is not None:
            tables = await self._seated(person_id, cached)
            if tables and tables[0].phase == PLAYING:
                return tables
        places = await self.recent(person_id)
        self.places.put(person_id, list(places))
        return await self._seated(person_id, places)

    async def table(self, place: str) -> Table | None:
        """The place's table, for showing a hand: one store read while its
        running game's id is cached, the service's path otherwise."""
        store = self.service.store
        game_id = self.game_ids.get(place)
        if game_id is not None:
            try:
                table = _running(await _decoded(store, game_id))
            except StateFormatError:
                table = None  # read again below, and set aside by the service
            if table is not None:
                return table
        game_id = await store.chat_game(place)
        if not game_id:
            return None
        try:
            table = await _decoded(store, game_id)
        except StateFormatError:
            return await self.service.table(place)  # the service sets damaged data aside
        if _running(table) is not None:
            self.game_ids.put(place, game_id)
        return table

    async def _seated(self, person_id: str, places: list[str]) -> list[Table]:
        tables = []
        for place in places:
            table = await self.table(place)
            if table is None or table.phase == FINISHED or table.seat_of(person_id) is None:
                continue
            tables.append(table)
        return sorted(tables, key=lambda t: t.phase != PLAYING)  # stable: newest first among equals


async def _decoded(store: Store, game_id: str) -> Table | None:
    stored = await store.load_game(game_id)
    return Table.decode(stored.state, stored.version) if stored is not None else None


def _running(table: Table | None) -> Table | None:
    return table if table is not None and table.phase in (PLAYING, BETWEEN_ROUNDS) else None
