"""What a press on a member's panel comes to (the presses of `panel_ids`):
their panel again, an action's picker, or the action done or refused; and
how the pressed message answers it.

Why in core: the steps are the table model's, not a platform's: an
action that still needs a pick opens its choices unless the panel is
stale, an action id is rebuilt into a command on the table the member saw
(`actions.decode`), the service judges it, and a refusal is shown over a
fresh table (none is read when the store is down). Which answer a press
gets depends only on that and on where it was made (the member's own
panel, or the public status message everyone sees), so that is decided
here too (`Answer.form`). A front-end only draws the answer: Discord
updates the pressed panel, tells the member, or acknowledges.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from . import commands as c
from .actions import Action, decode, menu
from .i18n import N_, gettext_for
from .lobby import again_note, last_match
from .outcome import Outcome, reader_lang
from .panel_ids import ACT, NEEDS, Press
from .render import error_text
from .service import ChatService
from .table import Table
from .waker import STORE_DOWN

WARNING = "⚠️ "
OLDER_MESSAGE = N_("That button belongs to an older message.")

#: How the pressed message answers (`Answer.form`): the member's panel of
#: `table` under `notes` (on page `page`); `picker`'s choices; `notes` told
#: to the member alone (the press was on the public message, or the store is
#: down: the panel stays as it is); nothing to say, the status message shows
#: it (an acknowledgement); or `notes` as plain text, the game being gone.
PANEL, PICKER, TELL, ACK, GONE = "panel", "picker", "tell", "ack", "gone"

#: Commands pressed on the public message whose effect the status message
#: shows: their private lines (none, usually) are not told apart.
SHOWN_ON_STATUS = (c.AddAI, c.Join, c.Leave, c.Start, c.NextRound)


@dataclass(frozen=True)
class Answer:
    """A press's answer: the member's panel of `table` (None: there is no
    game, or it is gone) under `notes` (a refusal, the cards they drew), or `picker`'s
    choices instead; `form` says which, `page` which page of it. `command`
    is what the press sent; `outcome` the service's when it accepted it;
    `refused`, it did not (`keep`: for a store outage: say so, and redraw
    nothing). `resume`: the press only looked, so a front-end that planned
    no timers for this table yet (a restart, another process's game) may
    plan them now."""

    table: Table | None
    notes: list[str] = field(default_factory=list)
    picker: Action | None = None
    command: c.Command | None = None
    outcome: Outcome | None = None
    refused: bool = False
    keep: bool = False
    form: str = PANEL
    page: int = 0
    resume: bool = False
    #: The language it is said in: the member's own when spoken here, else the table's.
    lang: str = ""


async def press(service: ChatService, chat: str, person: c.Person, pressed: Press | None, *, now: float,
                message: int | None = None, commands: Mapping[str, str] | None = None) -> Answer:
    """The answer to `pressed` (None: an id `panel_ids.parse` did not take) by
    `person` in `chat`: on their own panel, or (`message`: its id) on a public
    message, which must be the table's status message (the id kept in
    `adapter["status"]`: an older message's buttons act on nothing). Reads
    the table; said in the member's language, a command a refusal names
    spelled as `commands` says (`render.error_text`)."""
    if pressed is None:
        lang = reader_lang(person.lang, None, service.defaults.lang)
        return Answer(None, [WARNING + error_text("bad_move", lang)], refused=True, form=TELL, lang=lang)
    table = await service.table(chat)
    lang = reader_lang(person.lang, table, service.defaults.lang)
    again = decode(pressed.arg) if pressed.verb == ACT else None
    if isinstance(again, c.Again):  # the match's end has no table to act on, and a lobby it opened is its answer
        return replace(await _again(service, chat, person, lang, again, on_panel=message is None,
                                    commands=commands), lang=lang)
    if table is None:
        ended = await last_match(service, chat) if message is None else None
        if ended is not None and (ended.seat_of(person.id) is not None or person.is_admin):
            # a panel open when the match ended: how it ended, and "Play again" (as its message offers)
            return Answer(ended, form=PANEL, lang=lang)
        return Answer(None, [WARNING + error_text("no_game", lang, commands)], refused=True, form=TELL, lang=lang)
    if message is not None and table.adapter.get("status") != message:
        return Answer(table, [WARNING + gettext_for(lang)(OLDER_MESSAGE)], refused=True, form=TELL, lang=lang)
    return replace(await answer(service, chat, person, pressed, table, lang, now=now, on_panel=message is None,
                                commands=commands), lang=lang)


async def _again(service: ChatService, chat: str, person: c.Person, lang: str, again: c.Again, *,
                 on_panel: bool, commands: Mapping[str, str] | None) -> Answer:
    """"Play again", pressed on a finished match's message (or a panel of it): `again`
    names that match. Why apart from `answer`: the chat has no game then (the press is
    about the match that ended, not the table `service.table` finds), and a later
    press, once someone opened the lobby, is that lobby (`lobby.open_again`: a seat
    in it for a presser not seated yet), not "an older message". The presser is told
    what became of them (`lobby.again_note`) where the lobby posted does not say it."""
    out = await service.handle(chat, person, again)
    if not out.ok:
        return Answer(out.table, [WARNING + out.refusal(lang, commands)], command=again, refused=True,
                      keep=out.code in STORE_DOWN, form=TELL)
    note = again_note(out, person.id, lang)
    if on_panel and out.table:
        return Answer(out.table, [note] if note else [], command=again, outcome=out, form=PANEL)
    return Answer(out.table, [note] if note else [], command=again, outcome=out, form=TELL if note else ACK)


async def answer(service: ChatService, chat: str, person: c.Person, press: Press, table: Table, lang: str, *,
                 now: float, on_panel: bool = True, commands: Mapping[str, str] | None = None) -> Answer:
    """The answer to `press` by `person` on the panel of `table` (the chat's,
    just read), in `lang`; `on_panel`: it was made on the member's own panel,
    not on the public message (where a refusal is told, not drawn)."""
    if press.verb == NEEDS:
        found = menu(table, person.id, lang, now=now, is_admin=person.is_admin).lookup(press.arg)
        if found is None or not found.needs or press.version != table.version:
            return Answer(table, [WARNING + error_text("stale", lang)])
        return Answer(table, picker=found, form=PICKER, page=press.page)
    if press.verb != ACT:  # "My cards", a page, refresh: the panel as it is
        return Answer(table, page=press.page, resume=True)
    cmd = decode(press.arg, press.version, table, person.id)
    if cmd is None:
        return Answer(table, [WARNING + error_text("bad_move", lang)], refused=True,
                      form=PANEL if on_panel else TELL)
    out = await service.handle(chat, person, cmd)
    if not out.ok:
        down = out.code in STORE_DOWN
        after = out.table or (None if down else await service.table(chat))
        return Answer(after or table, [WARNING + out.refusal(lang, commands)], command=cmd, refused=True, keep=down,
                      form=PANEL if on_panel and not down else TELL)
    notes = out.private_for(person.id, lang)
    if not on_panel:
        told = notes and not isinstance(cmd, SHOWN_ON_STATUS)
        return Answer(out.table, notes, command=cmd, outcome=out, form=TELL if told else ACK)
    fresh = out.table if out.table is not None else await service.table(chat)
    if fresh is None:
        return Answer(None, notes + out.notices, command=cmd, outcome=out, form=GONE)
    return Answer(fresh, notes, command=cmd, outcome=out)
