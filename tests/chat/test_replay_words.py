"""`unobot replay` tells a game in its reader's words: the seats of the deal
are listed with the language's own separator (`Ana、Ada`, `Ana، Ada`), not an
English comma, which reads as a misprint in Chinese and Arabic."""

from __future__ import annotations

import random

import pytest

from unobot.chat import commands as c
from unobot.chat.audit import replay_lines
from unobot.chat.i18n import gettext_for
from unobot.chat.service import ChatService
from unobot.store import MemoryStore


@pytest.mark.parametrize(("lang", "separator"), [("zh_CN", "、"), ("zh_TW", "、"), ("ar", "، "), ("en", ", ")])
async def test_the_deal_lists_the_seats_with_the_language_s_separator(lang: str, separator: str) -> None:
    store = MemoryStore()
    svc = ChatService(store, rng=random.Random(1))
    ana = c.Person("1", "Ana")
    for cmd in (c.NewGame(), c.AddAI(count=2), c.Start()):
        assert (await svc.handle("chat-1", ana, cmd)).ok
    dealt = gettext_for(lang)("Dealt: {players} ({variant}); first card {card}.").split("{players}")[0]
    line = next(x for x in await replay_lines(store, "chat-1", lang, "en") if x.startswith(dealt))
    seats = line[len(dealt):]
    assert seats.startswith(f"Ana{separator}") and seats.count(separator) >= 2, line
    if separator != ", ":
        assert "Ana, " not in line, line
