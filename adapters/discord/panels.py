"""Each member's open hand panel, brought up to date when their turn comes.

Why: a panel is an ephemeral message, which only an interaction may edit
(its webhook token, for 15 minutes). It changed only when its member pressed
something on it, so a member who opened it while others played met their
turn on the hand of several moves ago, and every card they picked was
refused as "an old hand" until they pressed 🔄. So the interaction that last
showed a member's panel is kept (per channel and member, for 14 minutes),
and when the turn comes to them on a newer table than it shows, it is edited
to the table as it is, paced as the status is (core's `Pacer`: one edit in
flight per panel, the newest table next). A panel dismissed meanwhile is
forgotten at its first refused edit. Per process: only the process that
answered the interaction holds its token, so it refreshes that panel, on a
move made anywhere: its own, or one another process saved (a second
`unobot discord`, the web table), which the store's change feed hands to
`UnoBot.refresh` (tests/discord/test_open_panels.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from unobot.chat import commands as c
from unobot.chat.bounded import BoundedCache
from unobot.chat.pacer import Pacer
from unobot.chat.table import PLAYING, Table

from . import render

log = logging.getLogger(__name__)

#: Panels kept at once (the oldest out first), and for how long: an
#: interaction's token edits its answer for 15 minutes.
SIZE = 4096
TTL = 14 * 60.0


@dataclass
class Open:
    it: discord.Interaction[Any]
    person: c.Person
    lang: str
    version: int


class OpenPanels:
    def __init__(self, render_panel: Callable[[Table, c.Person, str], render.Shown], interval: float) -> None:
        self._render = render_panel
        self._open: BoundedCache[str, Open] = BoundedCache(SIZE, TTL)
        self.pacer: Pacer[Table] = Pacer(self._send, interval)

    @staticmethod
    def _key(chat: str, person_id: str) -> str:
        return f"{chat}|{person_id}"

    def shown(self, chat: str, it: discord.Interaction[Any], person: c.Person, lang: str, version: int) -> None:
        """`it` answered with `person`'s panel of the table at `version`."""
        self._open.put(self._key(chat, person.id), Open(it, person, lang, version))

    def table_changed(self, chat: str, table: Table) -> None:
        """The table of `chat` changed: the panel of the member on turn, if open
        on an older table, is brought up to date."""
        game = table.game
        if table.phase != PLAYING or game is None or not 0 <= game.turn < len(table.seats):
            return
        key = self._key(chat, table.seats[game.turn].id)
        panel = self._open.get(key)
        if panel is not None and panel.version < table.version:
            self.pacer.show(key, table.version, table)

    async def _send(self, key: str, table: Table) -> None:
        panel = self._open.get(key)
        if panel is None or panel.version >= table.version:
            return
        shown = self._render(table, panel.person, panel.lang)
        try:
            await panel.it.edit_original_response(content=shown.content, view=shown.view, attachments=shown.files())
        except discord.HTTPException as exc:  # dismissed, or its token expired: no panel to refresh
            log.debug("panel %s not refreshed: %s", key, exc)
            self._open.pop(key)
            return
        panel.version = table.version

    def forget_chat(self, chat: str) -> None:
        """The channel of `chat` is gone: none of its panels is refreshed again."""
        for key in [k for k in self._open if k.startswith(f"{chat}|")]:
            self._open.pop(key)

    def close(self) -> None:
        self.pacer.close()
