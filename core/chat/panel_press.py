"""What a press on a member's panel comes to (the presses of `panel_ids`):
their panel again, an action's picker, or the action done or refused.

Why in core: the steps are the table model's, not a platform's: an
action that still needs a pick opens its choices unless the panel is
stale, an action id is rebuilt into a command on the table the member saw
(`actions.decode`), the service judges it, and a refusal is shown over a
fresh table (none is read when the store is down). A front-end only draws
the answer: Discord updates the pressed panel or tells the member.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import commands as c
from .actions import Action, decode, menu
from .outcome import Outcome
from .panel_ids import ACT, NEEDS, Press
from .render import error_text
from .service import ChatService
from .table import Table
from .waker import STORE_DOWN

WARNING = "⚠️ "


@dataclass(frozen=True)
class Answer:
    """A press's answer: the member's panel of `table` (None: the game is
    gone) under `notes` (a refusal, the cards they drew), or `picker`'s
    choices instead. `command` is what the press sent; `outcome` the
    service's when it accepted it; `refused`, it did not (`keep`: for a
    store outage: say so, and redraw nothing)."""

    table: Table | None
    notes: list[str] = field(default_factory=list)
    picker: Action | None = None
    command: c.Command | None = None
    outcome: Outcome | None = None
    refused: bool = False
    keep: bool = False


async def answer(service: ChatService, chat: str, person: c.Person, press: Press, table: Table, lang: str, *,
                 now: float) -> Answer:
    """The answer to `press` by `person` on the panel of `table` (the chat's, just read), in `lang`."""
    if press.verb == NEEDS:
        found = menu(table, person.id, lang, now=now, is_admin=person.is_admin).lookup(press.arg)
        if found is None or not found.needs or press.version != table.version:
            return Answer(table, [WARNING + error_text("stale", lang)])
        return Answer(table, picker=found)
    if press.verb != ACT:  # "My cards", a page, refresh: the panel as it is
        return Answer(table)
    cmd = decode(press.arg, press.version, table, person.id)
    if cmd is None:
        return Answer(table, [WARNING + error_text("bad_move", lang)], refused=True)
    out = await service.handle(chat, person, cmd)
    if not out.ok:
        down = out.code in STORE_DOWN
        after = out.table or (None if down else await service.table(chat))
        return Answer(after or table, [WARNING + out.refusal(lang)], command=cmd, refused=True, keep=down)
    return Answer(out.table, out.private_for(person.id, lang), command=cmd, outcome=out)
