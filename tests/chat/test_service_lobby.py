"""`ChatService.lobby`: the chat's table only while it is a lobby, the one
place new settings show before its game plays them."""

from __future__ import annotations

import random

from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.table import LOBBY
from unobot.store import MemoryStore

ANA, BEN = c.Person("1", "Ana"), c.Person("2", "Ben")
CHAT = "chat-1"


async def test_a_lobby_is_shown_new_settings_and_a_started_game_is_not() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(1))
    assert await svc.lobby(CHAT) is None  # no game at all
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    lobby = await svc.lobby(CHAT)
    assert lobby is not None and lobby.phase == LOBBY
    assert (await svc.handle(CHAT, BEN, c.Join())).ok
    assert (await svc.handle(CHAT, ANA, c.Start())).ok
    assert await svc.table(CHAT) is not None and await svc.lobby(CHAT) is None
