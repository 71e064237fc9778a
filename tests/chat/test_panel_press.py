"""Core's panel press, as Discord's ephemeral panel uses it: a view press
shows the panel, an action that needs a pick opens its picker unless the
panel is stale, an accepted action carries the service's outcome, and a
forged or refused one changes nothing and says why in the reader's language."""

from __future__ import annotations

import random

from unobot.chat import actions as a
from unobot.chat import commands as c
from unobot.chat import panel_ids as ids
from unobot.chat import panel_press as pp
from unobot.chat.outcome import Outcome
from unobot.chat.render import error_text
from unobot.chat.service import ChatService
from unobot.store import MemoryStore

ANA, BEN = c.Person("1", "Ana"), c.Person("2", "Ben")
CHAT = "chat-1"


async def lobby() -> ChatService:
    svc = ChatService(MemoryStore(), rng=random.Random(3))
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    return svc


async def test_views_and_pickers() -> None:
    svc = await lobby()
    table = await svc.table(CHAT)
    assert table is not None
    shown = await pp.answer(svc, CHAT, BEN, ids.Press(ids.PAGE, table.version, page=1), table, "en", now=0)
    assert shown.table is table and shown.command is None and not shown.notes
    add_ai = next(x for x in a.menu(table, ANA.id, "en").actions if x.needs)
    picker = await pp.answer(svc, CHAT, ANA, ids.Press(ids.NEEDS, table.version, add_ai.id), table, "en", now=0)
    assert picker.picker is not None and picker.picker.id == add_ai.id
    stale = await pp.answer(svc, CHAT, ANA, ids.Press(ids.NEEDS, table.version - 1, add_ai.id), table, "es", now=0)
    assert stale.picker is None and stale.notes == [pp.WARNING + error_text("stale", "es")]
    assert error_text("stale", "es") != error_text("stale", "en")  # said in the reader's language


async def test_an_action_is_done_or_refused() -> None:
    svc = await lobby()
    table = await svc.table(CHAT)
    assert table is not None
    join = a.encode(c.Join())
    done = await pp.answer(svc, CHAT, BEN, ids.Press(ids.ACT, table.version, join), table, "en", now=0)
    assert isinstance(done.command, c.Join) and done.outcome is not None and done.outcome.ok and not done.refused
    assert done.table is not None and done.table.seat_of(BEN.id) is not None
    again = await pp.answer(svc, CHAT, BEN, ids.Press(ids.ACT, table.version, join), done.table, "en", now=0)
    assert again.refused and again.outcome is None and not again.keep and again.table is not None
    forged = await pp.answer(svc, CHAT, BEN, ids.Press(ids.ACT, table.version, "zz"), done.table, "en", now=0)
    assert forged.refused and forged.command is None


async def test_the_form_of_an_answer_on_the_panel() -> None:
    """On the member's own panel: a look shows it (and may plan timers), an
    accepted action shows the fresh panel, a refusal redraws it under why."""
    svc = await lobby()
    table = await svc.table(CHAT)
    assert table is not None
    look = await pp.answer(svc, CHAT, BEN, ids.Press(ids.PAGE, table.version, page=2), table, "en", now=0)
    assert (look.form, look.page, look.resume) == (pp.PANEL, 2, True)
    add_ai = next(x for x in a.menu(table, ANA.id, "en").actions if x.needs)
    picker = await pp.answer(svc, CHAT, ANA, ids.Press(ids.NEEDS, table.version, add_ai.id, 1), table, "en", now=0)
    assert (picker.form, picker.page, picker.resume) == (pp.PICKER, 1, False)
    stale = await pp.answer(svc, CHAT, ANA, ids.Press(ids.NEEDS, table.version - 1, add_ai.id), table, "en", now=0)
    assert (stale.form, stale.page, stale.resume) == (pp.PANEL, 0, False)
    join = ids.Press(ids.ACT, table.version, a.encode(c.Join()))
    done = await pp.answer(svc, CHAT, BEN, join, table, "en", now=0)
    assert done.form == pp.PANEL and done.outcome is not None and not done.resume
    again = await pp.answer(svc, CHAT, BEN, join, table, "en", now=0)
    assert again.form == pp.PANEL and again.refused and again.notes[0].startswith(pp.WARNING)


async def test_the_form_of_an_answer_on_the_public_message() -> None:
    """On the status message everyone sees: a refusal is told to the member
    alone, and a lobby command the status shows is only acknowledged."""
    svc = await lobby()
    table = await svc.table(CHAT)
    assert table is not None
    join = ids.Press(ids.ACT, table.version, a.encode(c.Join()))
    done = await pp.answer(svc, CHAT, BEN, join, table, "en", now=0, on_panel=False)
    assert done.form == pp.ACK and done.outcome is not None
    again = await pp.answer(svc, CHAT, BEN, join, table, "en", now=0, on_panel=False)
    assert again.form == pp.TELL and again.refused and again.outcome is None
    forged = await pp.answer(svc, CHAT, BEN, ids.Press(ids.ACT, table.version, "zz"), table, "en", now=0,
                             on_panel=False)
    assert forged.form == pp.TELL and forged.notes == [pp.WARNING + error_text("bad_move", "en")]



class Forgetful(ChatService):
    """A service that answers an accepted command with no table and keeps
    none (a game another process removed meanwhile): the case core guards."""

    async def handle(self, chat_id: str, person: c.Person, command: c.Command) -> Outcome:
        out = await super().handle(chat_id, person, command)
        await self.store.delete_game(str(await self.store.chat_game(chat_id)))
        self.forget(chat_id)
        return Outcome(ok=True, changed=True, notices=out.notices)


async def test_a_game_gone_after_a_press_on_the_panel() -> None:
    """The table is gone after an accepted press on the panel: the panel
    becomes plain text (what the service said), not a panel of no table."""
    svc = Forgetful(MemoryStore(), rng=random.Random(3))
    assert (await ChatService.handle(svc, CHAT, ANA, c.NewGame())).ok
    table = await svc.table(CHAT)
    assert table is not None
    join = ids.Press(ids.ACT, table.version, a.encode(c.Join()))
    gone = await pp.answer(svc, CHAT, BEN, join, table, "en", now=0)
    assert gone.form == pp.GONE and gone.table is None and gone.outcome is not None
    assert gone.notes == gone.outcome.notices and gone.notes


async def test_a_press_reads_the_table_in_the_members_language_and_only_on_the_status_message() -> None:
    """`press` reads the table itself: an id that did not parse, no game, or
    a public message that is not the table's status message, is told to the
    member alone; answers
    are in the member's own language when spoken here, else the table's."""
    svc = ChatService(MemoryStore(), rng=random.Random(3))
    look = ids.Press(ids.REFRESH, 1)
    nothing = await pp.press(svc, CHAT, c.Person("2", "Ben", lang="es-ES"), look, now=0)
    assert nothing.form == pp.TELL and nothing.table is None and nothing.lang == "es"
    assert nothing.notes == [pp.WARNING + error_text("no_game", "es")]
    forged = await pp.press(svc, CHAT, c.Person("2", "Ben", lang="es"), None, now=0)  # an id that did not parse
    assert forged.form == pp.TELL and forged.notes == [pp.WARNING + error_text("bad_move", "es")]
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    assert await svc.set_adapter_data(CHAT, {"status": 77}) is not None
    table = await svc.table(CHAT)
    assert table is not None
    join = ids.Press(ids.ACT, table.version, a.encode(c.Join()))
    older = await pp.press(svc, CHAT, BEN, join, now=0, message=76)
    assert older.form == pp.TELL and older.refused and older.outcome is None and older.lang == "en"
    assert older.notes == [pp.WARNING + "That button belongs to an older message."]
    unknown = c.Person("2", "Ben", lang="tlh")  # not spoken here: the table's language
    done = await pp.press(svc, CHAT, unknown, join, now=0, message=77)
    assert done.form == pp.ACK and done.outcome is not None and done.lang == table.lang
    panel = await pp.press(svc, CHAT, c.Person("2", "Ben", lang="es"), look, now=0)
    assert panel.form == pp.PANEL and panel.resume and panel.lang == "es" and panel.table is not None
