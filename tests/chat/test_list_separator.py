"""Lists in running text take their language's separator: the lobby's
players, the scores, the cards a player drew, an AI seats' notice. They were
joined with an English comma in every language, so Arabic read
"Ada (آلي) · عادي, Alan (آلي)" and Chinese "红色 5, 蓝色 3"."""

from __future__ import annotations

import random

import pytest

from unobot.cards import Card
from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.render import card_name, describe_private
from unobot.chat.service import ChatService
from unobot.chat.views import status_lines, table_view
from unobot.events import Event
from unobot.store import MemoryStore

SEPARATORS = {"ar": "، ", "zh_CN": "、", "zh_TW": "、", "de": ", ", "ru": ", ", "en": ", "}


@pytest.mark.parametrize("lang", sorted(SEPARATORS))
async def test_the_lobbys_players_and_the_ai_notice_are_listed_in_the_chats_way(lang: str) -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(1))
    assert (await svc.handle("chat", c.Person("0", "Admin", is_admin=True), c.SetLanguage(lang))).ok
    assert (await svc.handle("chat", c.Person("1", "Ana"), c.NewGame())).ok
    assert (await svc.handle("chat", c.Person("2", "Ben"), c.Join())).ok
    out = await svc.handle("chat", c.Person("1", "Ana"), c.AddAI(count=2))
    assert out.ok and out.table is not None
    sep = SEPARATORS[lang]
    ai = [s.name for s in out.table.seats[2:]]
    assert sep.join(ai) in out.notices[-1], out.notices
    waiting = status_lines(table_view(out.table, lang), lang)[1]
    assert f"Ana{sep}Ben{sep}{ai[0]}" in waiting, waiting


@pytest.mark.parametrize("lang", sorted(SEPARATORS))
def test_the_cards_a_player_drew_are_listed_in_their_way(lang: str) -> None:
    cards = [Card.get("R", "5"), Card.get("B", "3")]
    names = SEPARATORS[lang].join(card_name(card, lang) for card in cards)
    assert describe_private(Event("drew", 0, cards=tuple(cards)), lang) == \
        gettext_for(lang)("You drew: {cards}.").format(cards=names)
