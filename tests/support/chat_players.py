"""The chat games that the table-size measurements play: four people, each
playing the first playable card (red for a wild), a colour if a Wild starter
asks for one, else drawing.

One place for `bench/store.py`'s `chat_tables` and the tests that hold its
figures (tests/chat/test_chat_table_kilobyte.py, test_last_draws_size.py), so
that what is measured is the same game everywhere.
"""

from __future__ import annotations

from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.table import PLAYING, Table
from unobot.chat.views import hand_view

COLOR_WORDS = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}


def first_fit_command(table: Table, person: c.Person) -> c.Command:
    """What the person does next: a starter's colour, the first playable card, or a draw."""
    view = hand_view(table, person.id)
    if view is not None and view.colors:
        return c.NameColor(color="red")
    plays = [m for hc in (view.cards if view else []) if hc.playable for m in hc.moves]
    if not plays:
        return c.Draw()
    m = plays[0]
    assert m.card is not None
    target = table.seats[m.target].id if m.target is not None else None
    return c.Play(m.card.text, COLOR_WORDS.get(m.color or ""), target)


async def play_chat_game(service: ChatService, g: int, *, moves: int = 20, lang: str | None = None) -> str:
    """Game `g` of a measurement: four people with Telegram-sized ids and names
    open, join and start a game in a group chat (its status message ids kept as
    Telegram keeps them), then play `moves` moves with `first_fit_command`
    (a pass when a draw left nothing to play). Returns the chat's id."""
    chat = f"-100{7_000_000_000 + g}"
    people = [c.Person(str(5_000_000_000 + 10 * g + i), f"Player {i}", lang) for i in range(4)]
    await service.handle(chat, people[0], c.NewGame())
    for person in people[1:]:
        await service.handle(chat, person, c.Join())
    out = await service.handle(chat, people[0], c.Start())
    await service.set_adapter_data(chat, {"status": 123456, "lobby": 123455})
    for _ in range(moves):
        table = out.table
        if table is None or table.phase != PLAYING or table.game is None:
            break
        person = people[table.game.turn]
        out = await service.handle(chat, person, first_fit_command(table, person))
        if not out.ok:
            out = await service.handle(chat, person, c.Pass())
    return chat
