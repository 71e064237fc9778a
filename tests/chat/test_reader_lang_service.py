"""`ChatService(reader_lang=...)`: who reads a chat, given when the service is made.

Why a constructor parameter: it was an attribute a front-end set after
construction (Telegram, once its runtime existed), so a service could be
seen without it, by anything made in between, and only Telegram knew to
set it. Real store, the service's own settings lookup.
"""

from __future__ import annotations

from unobot.chat.service import ChatService
from unobot.store import MemoryStore


async def test_a_chat_with_no_language_of_its_own_speaks_its_readers() -> None:
    store = MemoryStore()
    service = ChatService(store, reader_lang=lambda chat: "de" if chat == "42" else None)
    assert (await service.settings("42"))["lang"] == "de"  # the one person who reads it
    assert (await service.settings("-100"))["lang"] == "en"  # a group: the bot's default
    await store.update_chat_settings("42", {"lang": "fr"})
    assert (await service.settings("42"))["lang"] == "fr"  # /language wins
    assert (await ChatService(store).settings("7"))["lang"] == "en"  # none given: as before
