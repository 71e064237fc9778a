"""A chat's table stays small with what it now keeps for each person: the cards
of their last draw (their hand marks them) and the language they play in (their
private notices speak it). Measured as bench/store.py `chat_tables` does: 20
games of four people, 20 moves each, the envelope the store writes."""

from __future__ import annotations

import random
import statistics

from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.table import PLAYING, Table
from unobot.chat.views import hand_view
from unobot.store import MemoryStore
from unobot.store_envelope import HEADER_SIZE

LIMIT = 1024


async def test_a_four_player_table_with_last_draws_and_languages_stays_within_1_kb() -> None:
    store = MemoryStore()
    service = ChatService(store, rng=random.Random(5))
    sizes: list[int] = []
    kept_draws = kept_langs = 0
    for g in range(20):
        chat = f"-100{7_000_000_000 + g}"
        people = [c.Person(str(5_000_000_000 + 10 * g + i), f"Player {i}", "es") for i in range(4)]
        await service.handle(chat, people[0], c.NewGame())
        for person in people[1:]:
            await service.handle(chat, person, c.Join())
        out = await service.handle(chat, people[0], c.Start())
        await service.set_adapter_data(chat, {"status": 123456, "lobby": 123455})
        for _ in range(20):
            table = out.table
            if table is None or table.phase != PLAYING or table.game is None:
                break
            person = people[table.game.turn]
            view = hand_view(table, person.id)
            plays = [m for hc in (view.cards if view else []) if hc.playable for m in hc.moves]
            if view is not None and view.colors:
                cmd: c.Command = c.NameColor(color="red")
            elif plays:
                m = plays[0]
                color = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}.get(m.color or "")
                cmd = c.Play(m.card.text, color, table.seats[m.target].id if m.target is not None else None)
            else:
                cmd = c.Draw()
            out = await service.handle(chat, person, cmd)
            if not out.ok:
                out = await service.handle(chat, person, c.Pass())
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
