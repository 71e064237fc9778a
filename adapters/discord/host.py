"""What the slash commands and the settings presses need of the Discord client
(`Host`), and the client's timings (`Options`).

Why a module of its own: the client (bot.py) builds its `/uno` group from
commands.py, and the commands act through the client (its service, waker,
pacer, status message). Typed against this protocol, commands.py (and
table_link.py) import nothing of the client, so no module of the adapter
imports one that imports it back; the client satisfies it as it is.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord import app_commands

from unobot.chat import commands as c
from unobot.chat.pacer import Pacer
from unobot.chat.service import ChatService, Outcome
from unobot.chat.table import Table
from unobot.chat.wake import Pacing
from unobot.chat.waker import Waker

from .render import Shown
from .reply import Reply


@dataclass(frozen=True)
class Options(Pacing):
    """Timings and start-up behaviour; tests shorten them. A table's waits
    and how its timers keep time are core's `Pacing`."""

    #: At start-up, plan the jobs of the games already in the store.
    replan_at_start: bool = True
    #: At start-up, register the slash commands with Discord.
    sync_commands: bool = True
    #: Seconds after which an interaction not answered yet is deferred (Discord allows 3).
    defer_after: float = 2.0
    #: Seconds between two edits of one channel's status message (Discord's
    #: per-channel budget is about 5 messages in 5 seconds).
    status_interval: float = 1.0
    #: Ask for the privileged Server Members intent (`discord.members_intent`):
    #: a member who leaves the server loses their seats at once (departures.py).
    members_intent: bool = False


class Host(Protocol):
    """The Discord client as the commands see it (`bot.UnoBot`)."""

    service: ChatService
    options: Options
    waker: Waker
    pacer: Pacer[tuple[Table, Shown]]
    tree: app_commands.CommandTree[Any]

    def busy(self) -> AbstractAsyncContextManager[None]: ...

    def lang(self, it: discord.Interaction[Any]) -> str: ...

    def now(self) -> float: ...

    async def claim_status(self, chat: str, table: Table, mid: int, replacing: int | None,
                           shown: Shown) -> None: ...

    async def after(self, chat: str, out: Outcome, *, line: str = "") -> None: ...

    async def refresh(self, chat: str, table: Table, shown: Shown | None = None) -> None: ...

    async def press(self, it: discord.Interaction[Any], reply: Reply, custom_id: str,
                    values: list[str] | None, data: dict[str, Any], on_ephemeral: bool) -> None: ...

    async def delete_message(self, chat: str, mid: int) -> None: ...

    async def remove_departed(self, chat: str, *, version: int | None = None,
                              by: c.Person | None = None) -> Outcome | None: ...
