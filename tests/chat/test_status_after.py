"""Core's status after an accepted command (`outcome_text`, `stopped_text`):
a game stopped with a line says only its title and why, with nothing to
press; any other table shows its full status under the round's headline."""

from __future__ import annotations

import random

from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.status_text import outcome_text, status_text, stop_line, stopped_text
from unobot.chat.table import FINISHED, Table
from unobot.store import MemoryStore

ANA, BEN = c.Person("1", "Ana"), c.Person("2", "Ben")
CHAT = "chat-1"


async def running() -> tuple[ChatService, Table]:
    svc = ChatService(MemoryStore(), rng=random.Random(5))
    return svc, await running_on(svc)


async def running_on(svc: ChatService) -> Table:
    """Ana's game with Ben, started."""
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    assert (await svc.handle(CHAT, BEN, c.Join())).ok
    out = await svc.handle(CHAT, ANA, c.Start())
    assert out.ok and out.table is not None
    return out.table


async def test_a_stopped_game_says_who_stopped_it_and_nothing_else() -> None:
    svc, _table = await running()
    out = await svc.handle(CHAT, ANA, c.Stop())
    assert out.ok and out.table is not None and out.table.phase == FINISHED
    line = out.notices[0]
    st = outcome_text(out.table, line)
    assert st == stopped_text(out.table, line)
    assert st.final and st.headline is None and st.lines == [line]
    assert st.title == status_text(out.table).title


async def test_a_running_game_shows_its_full_status() -> None:
    _svc, table = await running()
    st = outcome_text(table)
    assert st == status_text(table, headline=True) and not st.final
    assert outcome_text(table, "ignored: the game goes on") == st  # a line only ends a finished game


async def test_a_finished_game_without_a_line_keeps_its_result() -> None:
    """A match won (no line) shows the whole final status, its result in the headline;
    it is not final: "Play again" is on it (`public_actions`), while a stop's line is."""
    svc, _table = await running()
    out = await svc.handle(CHAT, ANA, c.Stop())
    assert out.table is not None
    st = outcome_text(out.table)
    assert st == status_text(out.table, headline=True) and not st.final and len(st.lines) >= 1
    assert outcome_text(out.table, "stopped").final


async def test_a_stop_s_line_is_every_notice_of_the_stop() -> None:
    """`stop_line`: who stopped it, then the rules' report at the match's end
    (the example plugin's match-report), not only the first."""
    svc = ChatService(MemoryStore(), rng=random.Random(5))
    assert (await svc.handle(CHAT, c.Person("9", "Boss", None, True),
                             c.SetRule(rule="match-report", enabled=True))).ok
    await running_on(svc)
    out = await svc.handle(CHAT, ANA, c.Stop())
    assert out.ok and out.table is not None and len(out.notices) > 1
    st = outcome_text(out.table, stop_line(out.notices))
    assert st.lines == ["\n".join(out.notices)] and out.notices[0] == "The game was stopped by Ana."
