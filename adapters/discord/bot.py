"""The Discord bot: a discord.py client that turns interactions into neutral
chat commands and renders their outcomes.

A channel is a chat (`dc_<channel id>`); a member is a `Person` (their
Discord id, display name, Discord locale, and Manage Server as "admin").
Every game decision is the `ChatService`'s; this module only decides which
message shows what:

* the status message (one per game, public) is the answer to `/uno new`
  and is edited as the game goes; its id is kept in the table's adapter
  data, so any process, and a restarted one, edits the same message;
* "My cards" answers with an ephemeral message, which only the member who
  pressed it sees: their hand, a select menu of the cards they may play,
  the colour or target picker, draw / pass / UNO / catch / challenge. A
  press on it is answered by updating that same ephemeral message.

Jobs (AI pauses, turn timers) are asyncio tasks of this process carrying
the table version they were planned for; the service refuses a stale one,
so a job that fires twice or late does nothing. A process that starts plans
the jobs of the games already running in the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for, known
from unobot.chat.render import describe_private, error_text
from unobot.chat.service import ChatService, Outcome
from unobot.chat.table import LOBBY, PLAYING, Table
from unobot.chat.views import hand_view, rule_facts
from unobot.moves import Move
from unobot.store import StoreError

from . import ids, render
from .commands import Translator, uno_group

log = logging.getLogger(__name__)

CHAT_PREFIX = "dc_"
GUILD_PREFIX = "dcg_"
#: Who the bot's own jobs act as (timers, AI pacing).
SYSTEM = c.Person("0", "UNO", None, True)


def chat_id(guild_id: int | None, channel_id: int) -> str:
    """A channel's chat id: `dc_<guild>_<channel>` (the guild's settings are its defaults)."""
    return f"{CHAT_PREFIX}{guild_id or 0}_{channel_id}"


def chat_of(interaction: discord.Interaction[Any]) -> str:
    assert interaction.channel_id is not None
    return chat_id(interaction.guild_id, interaction.channel_id)


def _parts(chat: str) -> tuple[int, int] | None:
    rest = chat[len(CHAT_PREFIX):].split("_") if chat.startswith(CHAT_PREFIX) else []
    if len(rest) != 2 or not all(p.isascii() and p.isdecimal() for p in rest):
        return None
    return int(rest[0]), int(rest[1])


def channel_of(chat: str) -> int | None:
    parts = _parts(chat)
    return parts[1] if parts else None


def guild_chat(guild_id: int) -> str:
    """Where a guild's own settings are kept (the defaults of its channels)."""
    return f"{GUILD_PREFIX}{guild_id}"


def guild_of(chat: str) -> str | None:
    parts = _parts(chat)
    return guild_chat(parts[0]) if parts and parts[0] else None


class DiscordChatService(ChatService):
    """The chat service with Discord's two levels of settings: a channel's
    own settings, over its guild's (set with `/uno rules scope:server`), over
    the bot's defaults. A setting a channel changes is its own from then on."""

    async def settings(self, chat_id: str) -> dict[str, Any]:
        merged = await super().settings(chat_id)
        guild = guild_of(chat_id)
        if guild is None:
            return merged
        own = await self.store.get_chat_settings(chat_id)
        inherited = await self.store.get_chat_settings(guild)
        for key, value in inherited.items():
            if key not in own and value not in (None, ""):
                merged[key] = value
        return merged


@dataclass(frozen=True)
class Options:
    """Timings and start-up behaviour; tests shorten them."""

    #: Seconds AI seats wait while a person could jump in, catch or say UNO.
    continue_delay: float = 3.0
    #: Extra seconds after a turn timer runs out before the skip is sent.
    timer_grace: float = 0.3
    #: At start-up, plan the jobs of the games already in the store.
    replan_at_start: bool = True
    #: At start-up, register the slash commands with Discord.
    sync_commands: bool = True


def person_of(interaction: discord.Interaction[Any]) -> c.Person:
    user = interaction.user
    perms = interaction.permissions
    return c.Person(str(user.id), user.display_name, lang=str(interaction.locale),
                    is_admin=bool(perms.manage_guild or perms.administrator))


def lang_of(interaction: discord.Interaction[Any], fallback: str) -> str:
    return known(str(interaction.locale)) or fallback


class UnoBot(discord.Client):
    def __init__(self, service: ChatService, *, options: Options | None = None,
                 shard_id: int | None = None, shard_count: int | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(),
                         shard_id=shard_id, shard_count=shard_count)
        self.service = service
        self.options = options or Options()
        self.tree: app_commands.CommandTree[UnoBot] = app_commands.CommandTree(self)
        self.tree.add_command(uno_group(self))
        self._busy = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._jobs: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._shown: dict[str, int] = {}

    # -- life -------------------------------------------------------------------------
    async def setup_hook(self) -> None:
        await self.tree.set_translator(Translator())
        if self.options.sync_commands:
            await self.tree.sync()
        if self.options.replan_at_start:
            self.spawn(self.replan_all())

    async def close(self) -> None:
        for task in list(self._jobs.values()) + list(self._tasks):
            task.cancel()
        await super().close()

    @contextlib.asynccontextmanager
    async def busy(self) -> AsyncIterator[None]:
        """Marks work in progress, so `idle()` can wait for it."""
        self._busy += 1
        try:
            yield
        finally:
            self._busy -= 1

    def spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]:
        async def run() -> None:
            await coro

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until no interaction is being handled and no short task runs
        (AI pauses included; turn timers excluded)."""
        end = time.monotonic() + timeout
        while True:
            await asyncio.sleep(0)
            pending = [t for t in self._tasks if not t.done()]
            if not pending and self._busy == 0:
                await asyncio.sleep(0.01)
                if self._busy == 0 and not any(not t.done() for t in self._tasks):
                    return
                continue
            if time.monotonic() > end:
                raise TimeoutError(f"bot still busy: {self._busy} handlers, {len(pending)} tasks")
            await asyncio.sleep(0.005)

    # -- interactions ---------------------------------------------------------------------
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type != discord.InteractionType.component or interaction.channel_id is None:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        values = [str(v) for v in data.get("values", [])] if "values" in data else None
        async with self.busy():
            try:
                if custom_id in ("rules|toggle|channel", "rules|toggle|server"):
                    from .commands import toggle_rule

                    await toggle_rule(self, interaction, values or [], custom_id.rsplit("|", 1)[1])
                    return
                action = ids.parse(custom_id, values)
                if action is None:
                    await self.refuse(interaction, "bad_move")
                elif action.verb in ids.TABLE_VERBS:
                    await self.table_button(interaction, action)
                else:
                    await self.hand_action(interaction, action)
            except discord.HTTPException as exc:
                log.warning("interaction %s: Discord refused an answer: %s", custom_id, exc)

    async def refuse(self, interaction: discord.Interaction[Any], code: str, text: str | None = None) -> None:
        lang = lang_of(interaction, self.service.defaults.lang)
        await interaction.response.send_message("⚠️ " + (text or error_text(code, lang)), ephemeral=True)

    async def _table(self, it: discord.Interaction[Any]) -> tuple[str, c.Person, Table, str] | None:
        """The channel's table for a press (chat, person, table, language), or
        None after refusing the press when there is no game."""
        chat = chat_of(it)
        table = await self.service.table(chat)
        if table is None:
            await self.refuse(it, "no_game")
            return None
        return chat, person_of(it), table, lang_of(it, table.lang)

    async def table_button(self, it: discord.Interaction[Any], action: ids.Action) -> None:
        found = await self._table(it)
        if found is None:
            return
        chat, person, table, lang = found
        if it.message is None or table.adapter.get("status") != it.message.id:
            _ = gettext_for(lang)
            await self.refuse(it, "old", _("That button belongs to an older message."))
            return
        if action.verb == "hand":
            shown = render.hand(table, person.id, lang)
            await it.response.send_message(shown.content, view=shown.components, ephemeral=True)
            self.ensure_jobs(chat, table)
            return
        cmd: c.Command = {"join": c.Join(), "start": c.Start(), "ai": c.AddAI(), "leave": c.Leave(),
                          "next": c.NextRound(), "skip": c.Skip()}[action.verb]
        out = await self.service.handle(chat, person, cmd)
        if not out.ok or out.table is None:
            await self.refuse(it, out.code or "bad_move", error_text(out.code or "bad_move", lang))
            return
        shown = render.status(out.table)
        await it.response.edit_message(content=shown.content, view=shown.view)
        self._shown[chat] = out.table.version
        self.after(chat, out)

    async def hand_action(self, it: discord.Interaction[Any], action: ids.Action) -> None:
        found = await self._table(it)
        if found is None:
            return
        chat, person, table, lang = found
        if action.verb == "r":
            await self.show_hand(it, render.hand(table, person.id, lang))
            self.ensure_jobs(chat, table)
            return
        cmd: c.Command
        if action.verb == "p":
            if not action.color and not action.target and action.version == table.version:
                hv = hand_view(table, person.id)
                moves: list[Move] = next((hc.moves for hc in hv.cards if hc.card.text == action.card), []) if hv else []
                if len(moves) > 1:
                    await self.show_hand(it, render.picker(table, action.card, moves, action.uno, lang))
                    return
                if len(moves) == 1:
                    m = moves[0]
                    target = table.seats[m.target].id if m.target is not None and 0 <= m.target < len(table.seats) \
                        else None
                    action = ids.Action("p", action.version, action.card, m.color or "", target or "", action.uno)
            cmd = c.Play(action.card, color=action.color or None, target=action.target or None, uno=action.uno,
                         version=action.version)
        elif action.verb == "ca":
            cmd = c.Catch(target=action.target or None, version=action.version)
        else:
            cmd = {"d": c.Draw(version=action.version), "dp": c.Draw(then_play=True, version=action.version),
                   "pa": c.Pass(version=action.version), "un": c.SayUno(version=action.version),
                   "ch": c.Challenge(version=action.version)}[action.verb]
        out = await self.service.handle(chat, person, cmd)
        notes: list[str] = []
        if not out.ok:
            notes.append("⚠️ " + error_text(out.code or "bad_move", lang))
        else:
            seat = (out.table or table).seat_of(person.id)
            notes += [line for e in out.events if e.cards and e.player == seat
                      and (line := describe_private(e, lang))]
        after = out.table if out.table is not None else await self.service.table(chat)
        if after is None:
            await self.show_hand(it, render.Shown("\n".join(notes) or "-", None))
        else:
            await self.show_hand(it, render.hand(after, person.id, lang, notes))
        if out.ok and out.changed and out.table is not None:
            await self.refresh(chat, out.table)
            self.after(chat, out)

    @staticmethod
    async def show_hand(it: discord.Interaction[Any], shown: render.Shown) -> None:
        """Answer a press with a hand: by updating the ephemeral message it was
        made on; never by editing a public one (a press that names a hand
        action on the status message is forged: it gets a new ephemeral)."""
        if it.message is not None and it.message.flags.ephemeral:
            await it.response.edit_message(content=shown.content, view=shown.view)
        else:
            await it.response.send_message(shown.content, view=shown.components, ephemeral=True)

    # -- the status message ------------------------------------------------------------------
    def lock(self, chat: str) -> asyncio.Lock:
        if len(self._locks) > 10000:
            self._locks = {k: v for k, v in self._locks.items() if v.locked()}
        return self._locks.setdefault(chat, asyncio.Lock())

    async def refresh(self, chat: str, table: Table, shown: render.Shown | None = None) -> None:
        """Edit the game's status message to show `table` (newer edits win;
        a deleted status message is posted again)."""
        cid = channel_of(chat)
        if cid is None:
            return
        async with self.lock(chat):
            if table.version < self._shown.get(chat, 0):
                return
            self._shown[chat] = table.version
            shown = shown or render.status(table)
            channel = self.get_partial_messageable(cid)
            mid = table.adapter.get("status")
            if isinstance(mid, int):
                try:
                    await channel.get_partial_message(mid).edit(content=shown.content, view=shown.view)
                    return
                except discord.NotFound:  # deleted: posted again below
                    pass
                except discord.HTTPException as exc:
                    log.warning("chat %s: status not edited: %s", chat, exc)
                    return
            try:
                msg = await channel.send(shown.content, view=shown.components)
            except discord.HTTPException as exc:
                log.warning("chat %s: status not posted: %s", chat, exc)
                return
            await self.service.set_adapter_data(chat, {"status": msg.id}, seed=table.seed)

    # -- jobs -------------------------------------------------------------------------------
    def after(self, chat: str, out: Outcome) -> None:
        table = out.table
        if table is None:
            return
        self.cancel_jobs(chat)
        if table.phase != PLAYING:
            return
        if out.paused:
            self.plan(chat, "cont", self.options.continue_delay, table.version,
                      lambda v: c.Continue(version=v))
        self.plan_timer(chat, table)

    def plan_timer(self, chat: str, table: Table, not_before: float = 0.0) -> None:
        seconds = rule_facts(table)[0]
        if not seconds or table.phase != PLAYING:
            return
        delay = max(table.turn_started + seconds - time.time(), not_before) + self.options.timer_grace
        self.plan(chat, "timer", delay, table.version, lambda v: c.Skip(auto=True, version=v), short=False)

    def ensure_jobs(self, chat: str, table: Table, not_before: float = 0.0) -> None:
        """Plan what a game needs if this process planned nothing for it (a
        game another process or an earlier run served)."""
        if table.phase != PLAYING or any(k[1] == chat and not t.done() for k, t in self._jobs.items()):
            return
        self.plan(chat, "cont", self.options.continue_delay, table.version, lambda v: c.Continue(version=v))
        self.plan_timer(chat, table, not_before)

    def cancel_jobs(self, chat: str) -> None:
        for kind in ("cont", "timer"):
            task = self._jobs.pop((kind, chat), None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    def plan(self, chat: str, kind: str, delay: float, version: int,
             command: Callable[[int], c.Command], short: bool = True) -> None:
        old = self._jobs.pop((kind, chat), None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()

        async def job() -> None:
            await asyncio.sleep(max(0.0, delay))
            async with self.busy():
                try:
                    out = await self.service.handle(chat, SYSTEM, command(version))
                except StoreError as exc:
                    log.warning("chat %s: %s job failed: %s", chat, kind, exc)
                    return
                if self._jobs.get((kind, chat)) is asyncio.current_task():
                    del self._jobs[(kind, chat)]
                if out.ok and out.changed and out.table is not None:
                    await self.refresh(chat, out.table)
                    self.after(chat, out)

        loop = asyncio.get_running_loop()
        task = self.spawn(job()) if short else loop.create_task(job())
        self._jobs[(kind, chat)] = task

    async def replan_all(self) -> None:
        """Once at start-up: the games already running get their jobs; the
        player on turn gets a whole turn from now (nobody could move while
        no bot ran)."""
        planned = 0
        try:
            async for chat in self.service.store.bound_chats():
                if channel_of(chat) is None:
                    continue
                try:
                    table = await self.service.table(chat)
                except (StoreError, ValueError) as exc:
                    log.warning("chat %s: jobs not re-planned: %s", chat, exc)
                    continue
                if table is None or table.phase == LOBBY:
                    continue
                self.ensure_jobs(chat, table, not_before=rule_facts(table)[0])
                planned += 1
        except StoreError as exc:
            log.warning("start-up re-planning stopped: %s", exc)
        log.info("re-planned the jobs of %d running games", planned)
