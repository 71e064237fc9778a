"""Core's answers to the reading commands: the same lines for every front-end."""

from __future__ import annotations

import pytest

from unobot.chat import answers
from unobot.chat import commands as c
from unobot.store import MemoryStore

ANA = c.Person("1", "Ana")
ADMIN = c.Person("9", "Boss", is_admin=True)


async def test_each_reading_command_answers_a_title_and_lines_or_one_note() -> None:
    store = MemoryStore()
    stats = await answers.reading_lines(store, "stats", "chat", ANA, "es")
    assert stats[0] == "Estadísticas" and "Ana" in stats[2]
    assert len(await answers.reading_lines(store, "top", "chat", ANA, "en", "fortnight")) == 1  # not a period
    top = await answers.reading_lines(store, "top", "chat", ANA, "en", "week")
    assert top[0] == "Standings: this week" and len(top) == 2
    refused = await answers.reading_lines(store, "reset", "chat", ANA, "en")
    assert refused == ["Only an admin of this chat can reset its standings."]
    assert len(await answers.reading_lines(store, "reset", "chat", ADMIN, "en")) == 1
    with pytest.raises(ValueError):
        await answers.reading_lines(store, "drop", "chat", ANA, "en")
