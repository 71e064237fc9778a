"""AI seats are rated by level: the first AI seat is `ai:1` ("Ada (AI)")
whatever level sits there, and the point of rating the AI is that a group
sees how it does against each level. Two matches of one chat on real
Redis, Ada easy in the first and expert in the second: the standings keep
one line per level, in the chat's language."""

from __future__ import annotations

import random
import uuid

import pytest

from tests.support.chat_worker import command_for
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat import records, records_text
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, PLAYING

CHAT = "-100999"
ANA = c.Person("31", "Ana", is_admin=True)


async def _match_against(svc: ChatService, level: str, seed: int) -> None:
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    assert (await svc.handle(CHAT, ANA, c.AddAI(count=1, level=level))).ok
    assert (await svc.handle(CHAT, ANA, c.Start())).ok
    rnd = random.Random(seed)
    for _ in range(3000):
        table = await svc.table(CHAT)
        if table is None or table.phase not in (PLAYING, BETWEEN_ROUNDS):
            return
        if table.phase == BETWEEN_ROUNDS:
            await svc.handle(CHAT, ANA, c.NextRound(version=table.version))
            continue
        assert table.game is not None
        seat = table.seats[table.game.turn]
        if seat.is_ai:
            await svc.handle(CHAT, ANA, c.Continue(version=table.version))
        else:
            await svc.handle(CHAT, ANA, command_for(table, seat.id, rnd))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(("lang", "easy", "expert"), [("en", "easy", "expert"), ("es", "fácil", "experto")])
async def test_each_ai_level_has_its_own_line_and_rating(redis_server: RedisServer, lang: str,
                                                         easy: str, expert: str) -> None:
    store = RedisStore.from_url(redis_server.url, prefix=f"lvl{uuid.uuid4().hex[:6]}")
    try:
        svc = ChatService(store, rng=random.Random(3))
        for cmd in (c.SetLanguage(lang=lang), c.SetRule(rule="deck", option="hand_size", value=3),
                    c.SetRule(rule="scoring", option="target", value=0)):
            assert (await svc.handle(CHAT, ANA, cmd)).ok, cmd
        await _match_against(svc, "easy", 1)
        await _match_against(svc, "expert", 2)
        kept = await store.archived(CHAT, 5)
        assert len(kept) == 2 and {r["players"][1]["id"] for r in kept} == {"ai:1"}  # one seat, two levels
        lines = {x.player: x for x in await records.top(store, CHAT, "all", lang=lang)}
        assert set(lines) == {"31", "ai:1:easy", "ai:1:expert"}, lines
        assert lines["31"].games == 2 and lines["ai:1:easy"].games == lines["ai:1:expert"].games == 1
        seat_name = records.kept_name(kept[0]["players"][1], lang)  # kept as "Ada", standing as "Ada (IA)"
        assert {lines["ai:1:easy"].name, lines["ai:1:expert"].name} == {f"{seat_name} · {easy}", f"{seat_name} · {expert}"}
        told = "\n".join(await records_text.top_lines(store, CHAT, "all", lang))
        assert f"{seat_name} · {easy}:" in told and f"{seat_name} · {expert}:" in told, told
    finally:
        await store.close()


async def test_an_ai_seats_standing_is_read_in_the_readers_language(redis_server: RedisServer) -> None:
    """The standings kept an AI seat's name as the table wrote it at the
    match's end ("Ada (IA) · experto"), so a German reading a Spanish chat's
    /top read Spanish. Now they keep its base name, and the AI mark and the
    level are said in each reader's language; a line kept before reads so too."""
    from unobot.chat.names import ai_name
    from unobot.chat.views import level_title
    from unobot.store import Standing

    store = RedisStore.from_url(redis_server.url, prefix=f"lvl{uuid.uuid4().hex[:6]}")
    try:
        svc = ChatService(store, rng=random.Random(3))
        for cmd in (c.SetLanguage(lang="es"), c.SetRule(rule="deck", option="hand_size", value=3),
                    c.SetRule(rule="scoring", option="target", value=0)):
            assert (await svc.handle(CHAT, ANA, cmd)).ok, cmd
        await _match_against(svc, "expert", 2)
        base = (await store.archived(CHAT, 1))[0]["players"][1]["name"]
        assert (await store.standings(CHAT, "all"))["ai:1:expert"]["name"] == base  # no table's words kept
        for lang in ("de", "es", "ru"):
            told = "\n".join(await records_text.top_lines(store, CHAT, "all", lang))
            assert f"{ai_name(base, lang)} · {level_title('expert', lang)}:" in told, told
        assert "(IA)" not in "\n".join(await records_text.top_lines(store, CHAT, "all", "de"))
        # A line kept before, with the Spanish table's words in it, reads in German too.
        old = Standing("all", None, "ai:2:hard", f"Bob (IA) · {level_title('hard', 'es')}", games=1)
        assert await store.archive_game(CHAT, f"{CHAT}#0ff1", {"players": [], "log": []}, [old])
        told = "\n".join(await records_text.top_lines(store, CHAT, "all", "de"))
        assert f"{ai_name('Bob', 'de')} · {level_title('hard', 'de')}:" in told and "(IA)" not in told, told
    finally:
        await store.close()
