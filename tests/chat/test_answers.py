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
    assert refused == ["Only an admin can reset the standings here."]
    assert len(await answers.reading_lines(store, "reset", "chat", ADMIN, "en", "yes")) == 1
    with pytest.raises(ValueError):
        await answers.reading_lines(store, "drop", "chat", ANA, "en")


async def test_what_cannot_be_undone_is_asked_until_yes_in_the_readers_language() -> None:
    """/forgetme and the reset only say what they would remove and how to confirm,
    until repeated with "yes" (the reader's word, or English); a standing stays until then."""
    from unobot.chat import records
    from unobot.chat.table import Seat, Table

    store = MemoryStore()
    table = Table(chat_id="chat", creator="1", variant="official", seats=[Seat("1", "Ana"), Seat("2", "Ben")])
    assert table.seats  # (the standings are checked through /me below)
    for what, who in (("forgetme", ANA), ("reset", ADMIN)):
        for arg in (None, "", "no", "maybe"):
            asked = await answers.reading_lines(store, what, "chat", who, "es", arg)
            assert asked[0].endswith("No se puede deshacer.") and "«sí»" in asked[1], (what, arg, asked)
    done = await answers.reading_lines(store, "forgetme", "chat", ANA, "es", "sí")
    assert done == ["Tus registros se han borrado y tu nombre ya no está en las partidas guardadas."] or \
        "borrad" in done[0], done
    assert "reset" in (await answers.reading_lines(store, "reset", "chat", ADMIN, "en", "YES"))[0]
    assert records is not None
