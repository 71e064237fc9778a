"""The round's clock is shown: a rule's round clock (blitz) is part of the
table model (`TableView.round_ends`, `round_left`) and every status says
how long the round has left ("⏱ Round ends in 2 minutes"), in the table's
language with its plural forms; no line without such a clock or without
the service's time."""

from __future__ import annotations

import random

from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.status_text import outcome_text, status_text
from unobot.chat.table import PLAYING
from unobot.chat.views import round_clock_line, round_ends, round_left, table_view
from unobot.store import MemoryStore

ANA, BEN = c.Person("1", "Ana"), c.Person("2", "Ben")
ADMIN = c.Person("9", "Boss", is_admin=True)


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


async def _blitz(svc: ChatService, chat: str, minutes: int = 2) -> None:
    assert (await svc.handle(chat, ADMIN, c.SetRule(rule="blitz", option="minutes", value=minutes))).ok
    assert (await svc.handle(chat, ANA, c.NewGame())).ok
    assert (await svc.handle(chat, BEN, c.Join())).ok


async def test_a_blitz_round_shows_when_it_ends_and_how_long_it_has_left() -> None:
    clock = Clock()
    svc = ChatService(MemoryStore(), clock=clock, rng=random.Random(3))
    await _blitz(svc, "b")
    lobby = await svc.table("b")
    assert lobby is not None and round_ends(lobby) is None  # no round runs yet
    assert not any("Round ends" in line for line in status_text(lobby, now=clock.now).lines)
    out = await svc.handle("b", ANA, c.Start())
    table = out.table
    assert table is not None and table.phase == PLAYING
    assert table_view(table).round_ends == 5000.0 + 120
    assert round_left(table, 5030.0) == 90.0 and round_left(table, 9999.0) == 0.0
    assert "⏱ Round ends in 2 minutes" in status_text(table, now=5000.0).lines
    assert "⏱ Round ends in 2 minutes" in status_text(table, now=5030.0).lines  # 90 s: the nearest minute
    assert "⏱ Round ends in 1 minute" in status_text(table, now=5040.0).lines
    assert "⏱ Round ends in less than a minute" in outcome_text(table, now=5061.0).lines
    # Without the service's time a status says nothing of the clock (it cannot know).
    assert not any("Round ends" in line for line in status_text(table).lines)
    # In the table's language, with its plural forms.
    table.lang = "ru"
    ru = status_text(table, now=5000.0).lines
    assert "⏱ Раунд закончится через 2 минуты" in ru
    assert round_clock_line(300, "ru") == "⏱ Раунд закончится через 5 минут"
    assert round_clock_line(60, "ru") == "⏱ Раунд закончится через 1 минуту"
    assert round_clock_line(120, "es") == "⏱ La ronda termina en 2 minutos"


async def test_no_clock_line_without_a_round_clock() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(3))
    assert (await svc.handle("p", ANA, c.NewGame(variant="official"))).ok
    assert (await svc.handle("p", BEN, c.Join())).ok
    table = (await svc.handle("p", ANA, c.Start())).table
    assert table is not None and table.phase == PLAYING
    assert table_view(table).round_ends is None and round_left(table, 0.0) is None
    assert not any("⏱" in line for line in status_text(table, now=table.round_started).lines)
