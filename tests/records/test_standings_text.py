"""What `/top` and `/me` say about a table (every front-end prints these
lines): equal lines share a place, a player below the first ten still sees
their own line and place, and the rating is explained under it."""

from __future__ import annotations

import uuid

import pytest

from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import answers, records_text
from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.place_names import PlaceNotes
from unobot.store import MemoryStore, Standing, Store

CHAT = "-100777"
ROW = "{rank}. {player}: {wins} won of {games}, {points} points, rating {rating}"


async def _count(store: Store, game: str, rows: list[tuple[str, str, int, int]]) -> None:
    """One finished match's worth of lines: (person id, name, wins, points), all-time."""
    standings = [Standing("all", None, pid, name, wins=wins, games=1, points=points) for pid, name, wins, points in rows]
    assert await store.archive_game(CHAT, game, {"players": []}, standings)


def _row(rank: int, name: str, wins: int, points: int, lang: str = "en") -> str:
    return gettext_for(lang)(ROW).format(rank=rank, player=name, wins=wins, games=1, points=points, rating="0.0")


def _stores(redis_server: RedisServer) -> list[Store]:
    return [MemoryStore(), RedisStore.from_url(redis_server.url, prefix=f"std{uuid.uuid4().hex[:6]}")]


@pytest.mark.parametrize("backend", ["memory", "redis"])
async def test_equal_lines_share_a_place_and_the_rating_is_explained(redis_server: RedisServer, backend: str) -> None:
    store = _stores(redis_server)[backend == "redis"]
    await _count(store, f"{CHAT}#1", [("1", "Ann", 1, 30), ("2", "Bob", 1, 30), ("3", "Cid", 0, 0)])
    lines = await answers.reading_lines(store, "top", CHAT, c.Person("3", "Cid"), "en")
    assert lines == ["Standings: all time", _row(1, "Ann", 1, 30), _row(1, "Bob", 1, 30), _row(3, "Cid", 0, 0),
                     records_text.rating_note("en")]
    assert "openskill" in lines[-1] and "starts at 0" in lines[-1]
    mine = await answers.reading_lines(store, "me", CHAT, c.Person("3", "Cid"), "es")
    assert mine[-1] == records_text.rating_note("es") != records_text.rating_note("en")
    await store.close()


async def test_a_player_below_the_first_ten_sees_their_own_place(redis_server: RedisServer) -> None:
    for store in _stores(redis_server):
        people = [(str(n), f"P{n:02}", 1 if n <= 12 else 0, 100 - n) for n in range(1, 16)]
        await _count(store, f"{CHAT}#1", people)
        lines = await answers.reading_lines(store, "top", CHAT, c.Person("14", "P14"), "en")
        assert lines[1:11] == [_row(n, f"P{n:02}", 1, 100 - n) for n in range(1, 11)]
        assert lines[11:] == ["…", _row(14, "P14", 0, 86), records_text.rating_note("en")]
        among = await answers.reading_lines(store, "top", CHAT, c.Person("3", "P03"), "en")
        assert len(among) == 12 and "…" not in among  # in the first ten: nothing added
        await store.close()


@pytest.mark.parametrize("backend", ["memory", "redis"])
async def test_a_record_of_many_chats_is_bounded_here_first(redis_server: RedisServer, backend: str) -> None:
    """`/me` listed every chat a player ever finished a match in: past a few
    dozen it was cut at Telegram's 4,096 characters. Now here first, then
    where they played most, ten lines and how many more."""
    store = _stores(redis_server)[backend == "redis"]
    chats = [f"-100{n}" for n in range(1, 15)]
    for n, chat in enumerate(chats, 1):
        for game in range(n):  # chat -100<n> holds n of Ann's matches
            standing = Standing("all", None, "1", "Ann", wins=0, games=1, points=0)
            assert await store.archive_game(chat, f"{chat}#{game + 1}", {"players": []}, [standing])
    here = chats[0]  # the chat she played least in: still first
    notes = PlaceNotes()
    for n, chat in enumerate(chats, 1):  # each group's title, as the Telegram adapter notes it
        assert await notes.note(store, chat, "telegram", f"Group {n}")
    assert not await notes.note(store, chats[1], "telegram", "Group 2")  # unchanged: not written again
    lines = await answers.reading_lines(store, "me", here, c.Person("1", "Ann"), "en")
    assert lines[0] == "Ann's record" and lines[1].startswith("Here: 0 won of 1,")
    assert [line.split(":")[0] for line in lines[2:11]] == [f"Group {n + 1}" for n in range(13, 4, -1)]
    assert lines[11:] == ["…and 4 more places", records_text.rating_note("en")]
    russian = await answers.reading_lines(store, "me", here, c.Person("1", "Ann"), "ru")
    assert russian[11] == "…и ещё 4 места"  # the plural form for 2-4
    await store.close()


@pytest.mark.parametrize(("lang", "given", "meant"), [("en", "mnth", "month"), ("es", "seman", "semana"),
                                                      ("en", "wek", "week"), ("en", "zz", None)])
async def test_a_mistyped_period_gets_the_one_meant(lang: str, given: str, meant: str | None) -> None:
    _ = gettext_for(lang)
    lines = await answers.reading_lines(MemoryStore(), "top", CHAT, c.Person("1", "Ann"), lang, given)
    said = records_text.bad_period(lang)[0]  # with no word given: no guess (the example: /top and the week's word)
    assert "/top " in said and said != records_text.bad_period("en")[0] if lang != "en" else "/top week" in said
    assert lines == [said if meant is None else f"{said} {_('Did you mean {meant!r}?').format(meant=meant)}"]


@pytest.mark.parametrize("backend", ["memory", "redis"])
async def test_a_place_is_named_by_its_kept_name_else_its_kind_never_its_id(redis_server: RedisServer,
                                                                           backend: str) -> None:
    """`/me` named the other chats "Elsewhere (-100123)": an id nobody knows a group by."""
    store = _stores(redis_server)[backend == "redis"]
    places = {"-100501": "Friday UNO", "-100502": None, "dc_1_2": "#uno · Game night", "dc_1_3": None,
              "web.ab12": None, "console.ann": None, "mx.room1": None}
    for n, (chat, name) in enumerate(places.items()):
        standing = Standing("all", None, "1", "Ann", wins=0, games=10 - n, points=0)
        assert await store.archive_game(chat, f"{chat}#1", {"players": []}, [standing])
        if name:
            kind = "discord" if chat.startswith("dc_") else "telegram"
            await PlaceNotes().note(store, chat, kind, name)
    await PlaceNotes().note(store, "-100502", "telegram", None)  # no title known: nothing erased, nothing named
    lines = await answers.reading_lines(store, "me", "-100999", c.Person("1", "Ann"), "en")
    assert [line.split(":")[0] for line in lines[1:8]] == [
        "Friday UNO", "A Telegram chat", "#uno · Game night", "A Discord channel", "A table in a browser",
        "The console", "Somewhere else"]
    german = await answers.reading_lines(store, "me", "-100999", c.Person("1", "Ann"), "de")
    assert [line.split(":")[0] for line in german[1:8]] == [
        "Friday UNO", "Ein Telegram-Chat", "#uno · Game night", "Ein Discord-Kanal", "Ein Tisch im Browser",
        "Die Konsole", "Anderswo"]
    assert not any(chat in repr(lines + german) for chat in places)
    # A title changed is what the next /me says; a nameless note never erases a known name.
    notes = PlaceNotes()
    assert await notes.note(store, "-100501", "telegram", "Friday UNO night")
    assert not await notes.note(store, "-100501", "telegram", "")
    lines = await answers.reading_lines(store, "me", "-100999", c.Person("1", "Ann"), "en")
    assert lines[1].startswith("Friday UNO night: ")
    await store.close()


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("en", ("Here: 1 match finished, 1 round played.", "Ann: 1 of 1 round won, 1 point; 0 of 1 match won."),
     ("Here: 2 matches finished, 2 rounds played.", "Ann: 2 of 2 rounds won, 2 points; 0 of 2 matches won.")),
    ("ru", ("Здесь: 1 матч завершён, 1 раунд сыгран.", "Ann: выиграно раундов: 1 из 1, 1 очко; выиграно матчей: 0 из 1."),
     ("Здесь: 2 матча завершено, 2 раунда сыграно.",
      "Ann: выиграно раундов: 2 из 2, 2 очка; выиграно матчей: 0 из 2.")),
    ("de", ("Hier: 1 Partie beendet, 1 Runde gespielt.", "Ann: 1 von 1 Runde gewonnen, 1 Punkt; 0 von 1 Partie gewonnen."),
     ("Hier: 2 Partien beendet, 2 Runden gespielt.",
      "Ann: 2 von 2 Runden gewonnen, 2 Punkte; 0 von 2 Partien gewonnen.")),
])
async def test_stats_say_each_count_in_its_plural_form(lang: str, one: tuple[str, str], two: tuple[str, str]) -> None:
    """`/stats` said "Here: 1 matches finished, 1 rounds played." and "1 points"."""
    store = MemoryStore()
    for said in (one, two):
        await store.incr_stats("chat", CHAT, {"matches": 1, "rounds": 1})
        await store.incr_stats("user", "1", {"rounds": 1, "rounds_won": 1, "points": 1, "matches": 1})
        lines = await answers.reading_lines(store, "stats", CHAT, c.Person("1", "Ann"), lang)
        assert lines[1:] == list(said), lines
