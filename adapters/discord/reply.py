"""Answering one Discord interaction within its 3 seconds, and saying what
went wrong when the store failed.

Why a module of its own: the slash commands (`commands.py`) and the presses
(`bot.py`) answer the same way, and the commands must not import the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from unobot.chat.render import failure_text
from unobot.store import StoreError

from . import render

UPDATE, EPHEMERAL, PUBLIC = "update", "ephemeral", "public"

log = logging.getLogger(__name__)


class Reply:
    """Answers one interaction within Discord's 3 seconds.

    Why: the answer usually needs the store, which may be slow (a paused
    Redis, a failover); Discord fails the press ("This interaction failed")
    when nothing is answered in 3 s. So a timer defers at `after` seconds
    unless the answer went out first, and the answer then edits the
    deferred response. `mode` says what the answer is: an update of the
    pressed message, a new ephemeral message, or a new public one."""

    def __init__(self, it: discord.Interaction[Any], mode: str, after: float) -> None:
        self.it = it
        self.mode = mode
        self._lock = asyncio.Lock()
        self._deferred = False
        loop = asyncio.get_running_loop()
        self._deferring: asyncio.Task[None] | None = None
        # A timer, not a sleeping task: once it fires, the deferral runs to its
        # end (cancelling it midway would leave Discord answered and us unaware).
        self._timer: asyncio.TimerHandle | None = loop.call_later(after, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._deferring = asyncio.get_running_loop().create_task(self.defer())

    async def defer(self) -> None:
        async with self._lock:
            if self.it.response.is_done():
                return
            with contextlib.suppress(discord.HTTPException):
                if self.mode == UPDATE:
                    await self.it.response.defer()
                else:
                    await self.it.response.defer(ephemeral=self.mode == EPHEMERAL, thinking=True)
                self._deferred = True

    def close(self) -> None:
        """No deferral from now on (the answer is going out, or went)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def show(self, shown: render.Shown) -> int | None:
        """The answer itself; returns the id of the message it is on."""
        self.close()
        async with self._lock:
            r = self.it.response
            if not r.is_done():
                if self.mode == UPDATE:
                    await r.edit_message(content=shown.content, view=shown.view, attachments=shown.files())
                    return self.it.message.id if self.it.message else None
                answer = await r.send_message(shown.content, view=shown.components, files=shown.files(),
                                              ephemeral=self.mode == EPHEMERAL)
                mid = answer.message_id if answer is not None else None
                return mid if mid is not None else (await self.it.original_response()).id
            msg = await self.it.edit_original_response(content=shown.content, view=shown.view,
                                                       attachments=shown.files())
            return msg.id

    async def tell(self, text: str) -> None:
        """A note only the member sees (a refusal), whatever the mode.

        A public answer deferred by the timer left "thinking..." in the
        channel; a note only the member sees cannot take its place, so that
        placeholder is deleted once the note is sent: else it stays for
        everyone, empty, and Discord ends it with "The application did not
        respond" (a refused or failed /uno new under a slow store)."""
        self.close()
        async with self._lock:
            r = self.it.response
            if not r.is_done():
                await r.send_message(text, ephemeral=True)
            elif self.mode == EPHEMERAL and self._deferred:
                await self.it.edit_original_response(content=text, view=None, attachments=[])
            else:
                await self.it.followup.send(text, ephemeral=True)
                if self.mode == PUBLIC and self._deferred:
                    with contextlib.suppress(discord.HTTPException):
                        await self.it.delete_original_response()

    async def ack(self) -> None:
        """Nothing to say (the status message shows it): acknowledge the press."""
        self.close()
        async with self._lock:
            r = self.it.response
            if not r.is_done():
                await r.defer()
            elif self.mode == EPHEMERAL and self._deferred:
                await self.it.edit_original_response(content="✓")


async def answered(reply: Reply, what: str, lang: Callable[[], str], keeps_nothing: bool,
                   run: Callable[[], Awaitable[None]]) -> None:
    """Run the work behind one interaction (`what` names it in the log) with
    any failure answered to the member, never raised: a store outage in
    core's words (as on every front-end), a bug logged with its traceback;
    Discord refusing the answer itself is only logged. Why one place: the
    slash commands and the presses fail the same way."""
    try:
        await run()
    except discord.HTTPException as exc:
        log.warning("%s: Discord refused an answer: %s", what, exc)
    except Exception as exc:  # a store outage, damaged data, a bug
        if isinstance(exc, StoreError):
            log.warning("%s: the store failed: %s", what, exc)
        else:
            log.exception("%s failed", what)
        with contextlib.suppress(discord.HTTPException):
            await reply.tell("⚠️ " + failure_text(exc, lang(), keeps_nothing=keeps_nothing,
                                                   commands=render.COMMANDS))
    finally:
        reply.close()
