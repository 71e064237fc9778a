"""An answer meant for one member alone (`outcome.reader_lang`,
`Outcome.refusal_to`): in their own language when it is spoken here, else
the table's, else the bot's default."""

from __future__ import annotations

import random

from unobot.chat import commands as c
from unobot.chat.outcome import Outcome, reader_lang
from unobot.chat.render import error_text
from unobot.chat.service import ChatService
from unobot.store import MemoryStore

ANA = c.Person("1", "Ana")
CHAT = "chat-1"


async def test_the_member_s_language_then_the_table_s_then_the_default() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(1))
    assert (await svc.handle(CHAT, c.Person("9", "Boss", is_admin=True), c.SetLanguage(lang="de"))).ok
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    table = await svc.table(CHAT)
    assert table is not None and table.lang == "de"
    assert reader_lang("es-419", table, "en") == "es"  # a client's regional form, spoken here
    assert reader_lang("tlh", table, "en") == "de" and reader_lang(None, table, "en") == "de"
    assert reader_lang("tlh", None, "fr") == "fr"


async def test_a_refusal_told_to_one_member() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(1))
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    again = await svc.handle(CHAT, ANA, c.Join())
    assert not again.ok and again.table is not None and again.code == "already_joined"
    assert again.refusal_to("es-ES", "en") == error_text("already_joined", "es") != error_text("already_joined", "en")
    assert again.refusal_to(None, "es") == error_text("already_joined", again.table.lang)
    gone = Outcome(ok=False, code="no_game")
    assert gone.refusal_to(None, "es") == error_text("no_game", "es")
