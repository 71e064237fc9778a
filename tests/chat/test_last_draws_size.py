"""A chat's table stays small with what it now keeps for each person: the cards
of their last draw (their hand marks them) and the language they play in (their
private notices speak it). Measured as bench/store.py `chat_tables` does: 20
games of four people, 20 moves each, the envelope the store writes."""

from __future__ import annotations

import random
import statistics

from tests.support.chat_players import play_chat_game
from unobot.chat.service import ChatService
from unobot.chat.table import Table
from unobot.store import MemoryStore
from unobot.store_envelope import HEADER_SIZE

LIMIT = 1024


async def test_a_four_player_table_with_last_draws_and_languages_stays_within_1_kb() -> None:
    store = MemoryStore()
    service = ChatService(store, rng=random.Random(5))
    sizes: list[int] = []
    kept_draws = kept_langs = 0
    for g in range(20):
        chat = await play_chat_game(service, g, lang="es")
        game_id = await store.chat_game(chat)
        assert game_id
        stored = await store.load_game(game_id)
        assert stored is not None
        sizes.append(len(stored.state) + HEADER_SIZE)  # the envelope, as the Redis store keeps it
        table = Table.decode(stored.state)
        kept_draws += bool(table.drawn_last)
        kept_langs += all(seat.lang == "es" for seat in table.seats)
    assert kept_draws >= 10 and kept_langs == 20  # what is measured holds the new data
    assert statistics.mean(sizes) <= LIMIT, (statistics.mean(sizes), max(sizes))
    assert max(sizes) <= LIMIT + 64, max(sizes)
