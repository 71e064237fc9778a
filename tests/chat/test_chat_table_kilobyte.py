"""Memory per game: a chat's 4-player table, the engine state inside it, is at
most 1 KB as stored, at every step of a game (issue 13's goal).

Measured as ``bench/store.py``'s ``chat_tables`` does: the value the store
writes under the game's state key (``STRLEN``: the envelope with the table),
through the ChatService on a real redis-server, four people with Telegram-sized
ids and names, the status message ids Telegram keeps in the table.
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.support.chat_players import first_fit_command
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.table import PLAYING

LIMIT = 1024
MOVES = 30


async def test_a_four_player_table_is_at_most_1_kb_at_every_step(tmp_path: Path) -> None:
    server = RedisServer(tmp_path, appendonly=False).start()
    store = RedisStore.from_url(server.url, prefix="size")
    service = ChatService(store, rng=random.Random(13))
    sizes: list[int] = []

    async def stored_size(chat: str) -> int:
        game_id = await store.chat_game(chat)
        assert game_id is not None
        size = int(await store.client.strlen(store.keys.state(game_id)))
        sizes.append(size)
        return size

    try:
        for g in range(3):
            chat = f"-100{7_000_000_000 + g}"
            people = [c.Person(str(5_000_000_000 + 10 * g + i), f"Player {i}") for i in range(4)]
            assert (await service.handle(chat, people[0], c.NewGame())).ok
            for person in people[1:]:
                assert (await service.handle(chat, person, c.Join())).ok
                assert await stored_size(chat) <= LIMIT
            out = await service.handle(chat, people[0], c.Start())
            assert out.ok and out.table is not None and len(out.table.seats) == 4
            await service.set_adapter_data(chat, {"status": 123456, "lobby": 123455})
            assert await stored_size(chat) <= LIMIT
            moves = 0
            while moves < MOVES and out.table is not None and out.table.phase == PLAYING:
                table = out.table
                assert table.game is not None
                person = people[table.game.turn]
                out = await service.handle(chat, person, first_fit_command(table, person))
                if not out.ok:
                    out = await service.handle(chat, person, c.Pass())
                assert out.ok, out.error
                moves += 1
                size = await stored_size(chat)
                assert size <= LIMIT, f"game {g}, move {moves}: the stored table is {size} bytes"
            assert moves >= 20, f"game {g} ended after {moves} moves: too short to measure"
        assert len(sizes) > 60 and max(sizes) > 700  # a real table was measured, not an empty key
    finally:
        await store.close()
        server.stop()
