"""Core's seat finder: which table a person's hand is asked for when the
request names no place (Telegram's inline query): never another game's
hand for a named place, the one running game, a choice when several run;
and the store reads its caches save (counted on the memory store)."""

from __future__ import annotations

import random

from unobot.chat import commands as c
from unobot.chat.seat_finder import NotSeated, SeatFinder
from unobot.chat.service import ChatService
from unobot.chat.table import LOBBY, PLAYING
from unobot.store import MemoryStore

ANA = c.Person("1", "Ana")
BEN = c.Person("2", "Ben")
CAT = c.Person("3", "Cat")


class CountingStore(MemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.bindings_read = 0

    async def chat_game(self, chat_id: str) -> str | None:  # type: ignore[override]
        self.bindings_read += 1
        return await super().chat_game(chat_id)


class Recent:
    """The front-end's record of each person's recent places (newest first), counting its reads."""

    def __init__(self) -> None:
        self.places: dict[str, list[str]] = {}
        self.reads = 0

    async def __call__(self, person_id: str) -> list[str]:
        self.reads += 1
        return list(self.places.get(person_id, []))


async def running(svc: ChatService, place: str, *people: c.Person) -> None:
    assert (await svc.handle(place, people[0], c.NewGame())).ok
    for person in people[1:]:
        assert (await svc.handle(place, person, c.Join())).ok
    assert (await svc.handle(place, people[0], c.Start())).ok


def setup() -> tuple[ChatService, CountingStore, Recent, SeatFinder]:
    store = CountingStore()
    svc = ChatService(store, rng=random.Random(3))
    recent = Recent()
    return svc, store, recent, SeatFinder(svc, recent)


async def test_a_named_place_gives_its_table_only_to_someone_seated_there() -> None:
    svc, _store, _recent, finder = setup()
    await running(svc, "g1", ANA, BEN)
    found = await finder.find(ANA.id, "g1")
    assert not isinstance(found, (NotSeated, list)) and found is not None and found.chat_id == "g1"
    watcher = await finder.find(CAT.id, "g1")  # no seat: told so, with the table, never a hand
    assert isinstance(watcher, NotSeated) and watcher.chat == "g1" and watcher.table is not None
    empty = await finder.find(ANA.id, "nowhere")
    assert empty == NotSeated("nowhere", None)


async def test_naming_no_place_gives_the_running_game_or_a_choice() -> None:
    svc, _store, recent, finder = setup()
    assert await finder.find(ANA.id) is None
    assert (await svc.handle("lobby", ANA, c.NewGame())).ok
    await running(svc, "g1", ANA, BEN)
    recent.places[ANA.id] = ["lobby", "g1"]  # the lobby is newer, the running game goes first
    found = await finder.find(ANA.id)
    assert not isinstance(found, (NotSeated, list)) and found is not None and found.chat_id == "g1"
    await running(svc, "g2", BEN, ANA)
    finder.played(ANA.id, ["g2", "lobby", "g1"])
    both = await finder.find(ANA.id)
    assert isinstance(both, list) and [t.chat_id for t in both] == ["g2", "g1"]
    recent.places[CAT.id] = ["lobby"]  # not seated there: nothing
    assert await finder.find(CAT.id) is None
    recent.places[BEN.id] = ["g1"]
    only = await finder.find(BEN.id)
    assert not isinstance(only, (NotSeated, list)) and only is not None and only.phase == PLAYING


async def test_a_lobby_is_found_when_nothing_runs() -> None:
    svc, _store, recent, finder = setup()
    assert (await svc.handle("lobby", ANA, c.NewGame())).ok
    recent.places[ANA.id] = ["lobby"]
    found = await finder.find(ANA.id)
    assert not isinstance(found, (NotSeated, list)) and found is not None and found.phase == LOBBY


async def test_the_caches_save_store_reads_and_never_outlive_the_game() -> None:
    svc, store, recent, finder = setup()
    await running(svc, "g1", ANA, BEN)
    recent.places[ANA.id] = ["g1"]
    assert await finder.find(ANA.id) is not None
    reads, bindings = recent.reads, store.bindings_read
    for _ in range(5):  # a hand asked for on every move: no record read, no binding read
        assert await finder.find(ANA.id) is not None
    assert recent.reads == reads and store.bindings_read == bindings
    assert (await svc.handle("g1", ANA, c.Stop())).ok  # the game is deleted: the cached id leads nowhere
    assert await finder.find(ANA.id) is None
    assert recent.reads == reads + 1  # the cached places led to no running game: read again
    await running(svc, "g1", BEN, ANA)  # a new game at the same place is found
    found = await finder.find(ANA.id)
    assert not isinstance(found, (NotSeated, list)) and found is not None and found.seats[0].id == BEN.id


async def test_a_moved_place_forgets_its_game() -> None:
    svc, store, _recent, finder = setup()
    await running(svc, "old", ANA, BEN)
    assert await finder.table("old") is not None
    finder.moved("old")
    before = store.bindings_read
    await finder.table("old")
    assert store.bindings_read == before + 1
