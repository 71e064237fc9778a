"""The Discord bot: a discord.py client that turns interactions into neutral
chat commands and renders the table model (`unobot.chat.actions`).

A channel is a chat (`dc_<guild>_<channel>`); a member is a `Person` (their
Discord id, display name, Discord locale, and Manage Server as "admin").
Every game decision is the `ChatService`'s; what a member may do is the
model's menu; this module only decides which message shows what:

* the status message (one per game, public) is the answer to `/uno new`
  and is edited as the game goes, paced to Discord's per-channel budget
  (core's `Pacer`: one edit in flight per channel, the newest state next);
  its id is kept in the table's adapter data, so any process edits it;
* "My cards" answers with an ephemeral panel only the member sees: their
  hand and every action of their menu (`render.panel`); a press on it is
  answered by updating that same message.

Every interaction is answered within Discord's 3 seconds however slow the
store is (`Reply` defers at `Options.defer_after` if the answer is not
ready), and a store outage is answered with the service's outage text.

Timers are core's `Waker` (turn timer, AI pause, a rule's round clock,
lobby expiry, retries through an outage, re-planning at start-up) on
core's asyncio timers; this module only shows what a wake changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import discord
from discord import app_commands

from unobot.changes import stop_following
from unobot.chat import commands as c
from unobot.chat import panel_ids as ids
from unobot.chat import panel_press
from unobot.chat.pacer import Pacer
from unobot.chat.place_names import DISCORD as PLACE_DISCORD
from unobot.chat.service import ChatService, Outcome
from unobot.chat.status_text import outcome_text
from unobot.chat.table import Table
from unobot.chat.wake import SYSTEM, TIMER
from unobot.chat.waker import AsyncioTimers, WakeData, Waker, follow_changes
from unobot.store import StoreError

from . import departures, permissions, render
from .commands import Translator, settings_press, uno_group
from .host import Options
from .panels import OpenPanels
from .place import channel_of, chat_id, chat_of, guild_id_of, lang_of, person_of, place_name
from .reply import EPHEMERAL, UPDATE, Reply, answered

log = logging.getLogger(__name__)

#: Discord's error code for a change in an archived thread.
THREAD_ARCHIVED = 50083

__all__ = ["SYSTEM", "Options", "UnoBot", "chat_id"]


class UnoBot(discord.Client):
    def __init__(self, service: ChatService, *, options: Options | None = None,
                 shard_id: int | None = None, shard_count: int | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # A ban (moderation, not privileged) and, when the operator enabled it, a leave or kick
        # (members, privileged) remove the member's seats: departures.py.
        intents.moderation = True
        intents.members = (options or Options()).members_intent
        # The bot never joins a voice channel: discord.py's two start-up WARNINGs that
        # voice needs PyNaCl and davey only told an operator of a feature unobot does not use.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # With the members intent, no member list is downloaded or kept: only their departures count.
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(),
                         shard_id=shard_id, shard_count=shard_count, chunk_guilds_at_startup=False,
                         member_cache_flags=discord.MemberCacheFlags.none())
        self.service = service
        self.options = options or Options()
        o = self.options
        self.timers = AsyncioTimers(service.clock, self._ring, poll=o.clock_poll)
        self.waker = Waker(service, self.timers, o)
        self.tree: app_commands.CommandTree[UnoBot] = app_commands.CommandTree(self)
        self.tree.add_command(uno_group(self))
        self._busy = 0
        self._tasks: set[asyncio.Task[None]] = set()
        #: The status message's edits, paced to the channel's budget (core's `Pacer`).
        self.pacer: Pacer[tuple[Table, render.Shown]] = Pacer(self._send_status, self.options.status_interval)
        #: Members' open hand panels, brought up to date when their turn comes.
        self.panels = OpenPanels(lambda table, person, lang: self.panel(table, person, lang),
                                 self.options.status_interval)
        self._following: asyncio.Task[None] | None = None

    # -- life -------------------------------------------------------------------------
    async def setup_hook(self) -> None:
        await self.tree.set_translator(Translator())
        if self.options.sync_commands:
            try:
                await self.tree.sync()
            except discord.HTTPException as exc:
                # The commands Discord already has still work: a refused sync (a text over a limit,
                # the applications.commands scope missing) is the operator's to read, not a crash.
                log.error("the /uno commands were not registered with Discord (the ones it has stay): %s", exc)
        if self.options.replan_at_start:
            self.spawn(self.replan_all())
        # Moves other processes save (a separate `unobot web`, another shard) show here at once.
        self._following = follow_changes(self.waker, self.service.store.changes(), self.served, self.refresh)

    async def close(self) -> None:
        await stop_following(self._following)
        self.timers.close()
        for task in list(self._tasks):
            task.cancel()
        self.pacer.close()
        self.panels.close()
        await super().close()

    @contextlib.asynccontextmanager
    async def busy(self) -> AsyncIterator[None]:
        """Marks work in progress, so `idle()` can wait for it."""
        self._busy += 1
        try:
            yield
        finally:
            self._busy -= 1

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def served(self, chat: str) -> str | None:
        """`chat` if its channel is this process's to watch: its timers and the
        changes other processes make to it. With gateway sharding, Discord
        sends a server's events to one shard, `(guild_id >> 22) % shards`;
        each shard process watches its own servers' tables, so a change is
        shown, and a timer rung, once, not once per process (every shard
        edited every status message: N times the channel's edit budget)."""
        if channel_of(chat) is None:
            return None
        if self.shard_id is None or not self.shard_count or self.shard_count < 2:
            return chat
        guild = guild_id_of(chat) or 0
        return chat if (guild >> 22) % self.shard_count == self.shard_id else None

    # -- interactions ---------------------------------------------------------------------
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.channel_id is not None and interaction.guild_id is not None:
            # How the channel is known, for a member's /uno me read elsewhere (core's place_names):
            # aside, as it may read the store, never before the 3-second answer.
            self.spawn(self.service.note_place(chat_of(interaction), PLACE_DISCORD, place_name(interaction)))
        kind = interaction.type
        if kind not in (discord.InteractionType.component, discord.InteractionType.modal_submit) \
                or interaction.channel_id is None:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        values = [str(v) for v in data.get("values", [])] if "values" in data else None
        on_ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
        reply = Reply(interaction, UPDATE if on_ephemeral else EPHEMERAL, self.options.defer_after)
        async with self.busy():
            await answered(reply, f"interaction {custom_id}", lambda: self.lang(interaction),
                           self.service.keeps_nothing,
                           lambda: self.press(interaction, reply, custom_id, values, data, on_ephemeral))

    async def press(self, it: discord.Interaction[Any], reply: Reply, custom_id: str,
                    values: list[str] | None, data: dict[str, Any], on_ephemeral: bool) -> None:
        """A press on a settings message or on a table's: what its custom_id
        says (core's `panel_ids`), answered as core's `panel_press` decides."""
        setting = ids.parse_setting(custom_id)
        if setting is not None:
            await settings_press(self, it, reply, setting, values, modal_value(data))
            return
        chat, person = chat_of(it), person_of(it)
        message = None if on_ephemeral else (it.message.id if it.message is not None else 0)
        ans = await panel_press.press(self.service, chat, person, ids.parse(custom_id, values), now=self.now(),
                                      message=message, commands=render.COMMANDS)
        # The channel's status message cannot be updated: whoever presses is told what to grant.
        lacking = permissions.warning(gaps, ans.lang) if (gaps := permissions.missing(it)) else ""
        if ans.picker is not None and ans.table is not None:
            await reply.show(render.picker(ans.table, ans.picker, ans.lang, ans.page))
        elif ans.form == panel_press.PANEL and ans.table is not None:
            notes = [*ans.notes, lacking] if lacking else ans.notes
            await reply.show(self.panel(ans.table, person, ans.lang, notes=notes, page=ans.page))
            self.panels.shown(chat, it, person, ans.lang, ans.table.version)
        elif ans.form == panel_press.GONE:
            await reply.show(render.Shown("\n".join(ans.notes) or "✓", None))
        elif ans.form == panel_press.TELL:  # a refusal is core's text; a private line is escaped
            told = ans.notes if ans.refused else [render.esc(n) for n in ans.notes]
            await reply.tell("\n".join([*told, render.esc(lacking)] if lacking else told))
        elif lacking:
            await reply.tell(render.esc(lacking))
        else:
            await reply.ack()
        if ans.outcome is not None:
            if isinstance(ans.command, c.Again) and ans.outcome.changed:  # a new game here: as /uno new starts one
                self.waker.cancel(chat)
                self.pacer.reset(chat)  # its versions start again (the lobby's status is posted anew)
            await self.after(chat, ans.outcome)
        elif ans.resume and ans.table is not None:
            self.waker.ensure(chat, ans.table)

    def lang(self, it: discord.Interaction[Any]) -> str:
        return lang_of(it, self.service.defaults.lang)

    def now(self) -> float:
        return self.service.clock()

    def panel(self, table: Table, person: c.Person, lang: str, *, notes: list[str] | None = None,
              page: int = 0) -> render.Shown:
        return render.panel(table, person.id, lang, now=self.now(), is_admin=person.is_admin,
                            notes=notes or (), page=page)

    # -- after an outcome ---------------------------------------------------------------------
    async def after(self, chat: str, out: Outcome, *, line: str = "") -> None:
        """Show what an accepted command changed (core's `outcome_text`: `line`
        says why a game ended) and plan the table's jobs anew (none once it ended)."""
        table = out.table
        if out.changed and table is not None:  # a table command's outcome always holds its table
            st = outcome_text(table, line, rules=render.RULES_COMMAND, now=self.now(), live_clock=render.live_clock,
                              commands=render.COMMANDS)
            await self.refresh(chat, table, render.status(table, st))
            self.waker.after(chat, table, out)

    async def refresh(self, chat: str, table: Table, shown: render.Shown | None = None) -> None:
        """Show `table` (as `shown`, else its status) on the channel's status message (paced)."""
        self.pacer.show(chat, table.version, (table, shown or render.status(table, now=self.now())))
        self.panels.table_changed(chat, table)

    async def _send_status(self, chat: str, state: tuple[Table, render.Shown]) -> None:
        """The pacer's sender: edit the game's status message (a deleted one is posted again)."""
        table, shown = state
        cid = channel_of(chat)
        if cid is None:
            return
        channel = self.get_partial_messageable(cid)
        mid = table.adapter.get("status")
        if isinstance(mid, int):
            try:
                await self._edit_status(cid, mid, shown)
                return
            except discord.NotFound as exc:  # deleted: posted again below (unless its channel is gone)
                if exc.code == departures.UNKNOWN_CHANNEL:
                    self.spawn(self.place_gone([chat]))
                    return
            except discord.HTTPException as exc:
                log.warning("chat %s: status not edited: %s", chat, exc)
                return
        try:
            msg = await channel.send(shown.content, view=shown.components, files=shown.files())
        except discord.HTTPException as exc:
            if isinstance(exc, discord.NotFound) and exc.code == departures.UNKNOWN_CHANNEL:
                self.spawn(self.place_gone([chat]))
                return
            log.warning("chat %s: status not posted: %s", chat, exc)
            return
        await self.claim_status(chat, table, msg.id, mid if isinstance(mid, int) else None, shown)

    async def _edit_status(self, cid: int, mid: int, shown: render.Shown) -> None:
        """Edit the status message `mid` of channel `cid`. In a thread Discord
        archived for inactivity (messages count, edits do not: a game played
        on its status message alone is archived mid-game after the thread's
        hour or day), an edit is refused (50083) until the thread is
        unarchived, which the bot, a member of it, may do: then edited."""
        message = self.get_partial_messageable(cid).get_partial_message(mid)
        try:
            await message.edit(content=shown.content, view=shown.view, attachments=shown.files())
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED:
                raise
            await self.http.edit_channel(cid, archived=False)
            await message.edit(content=shown.content, view=shown.view, attachments=shown.files())

    async def claim_status(self, chat: str, table: Table, mid: int, replacing: int | None,
                           shown: render.Shown) -> None:
        """Make a message just posted (showing `shown`) the game's status
        message, unless another process's, posted meanwhile for the same
        reason (none recorded yet, or the old one deleted), was recorded
        first (core's `claim_status`): then this one is deleted and the game
        shown on that one, so a channel keeps one status message however
        many processes serve it."""
        try:
            saved = await self.service.claim_status(chat, mid, seed=table.seed, replacing=replacing)
        except StoreError:
            return
        winner = saved.adapter.get("status") if saved is not None else None
        cid = channel_of(chat)
        if not isinstance(winner, int) or winner == mid or cid is None:
            return
        channel = self.get_partial_messageable(cid)
        try:
            await channel.get_partial_message(mid).delete()
            await channel.get_partial_message(winner).edit(content=shown.content, view=shown.view,
                                                           attachments=shown.files())
        except discord.HTTPException as exc:
            log.info("chat %s: a second status message %s not tidied away: %s", chat, mid, exc)

    # -- members who left the server: departures.py ------------------------------------
    async def on_member_ban(self, guild: discord.Guild, user: discord.User | discord.Member) -> None:
        await self.member_gone(guild.id, user.id)

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        await self.member_gone(payload.guild_id, payload.user.id)

    async def member_gone(self, guild_id: int, user_id: int) -> None:
        """`user_id` is no longer in the server: their seats there are removed."""
        async with self.busy():
            for chat, out in await departures.leave_guild(self.service, guild_id, str(user_id)):
                await self.after(chat, out)

    # -- channels, threads and servers gone: departures.py ------------------------------
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.place_gone([chat_id(channel.guild.id, channel.id)])

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.place_gone([chat_id(payload.guild_id, payload.thread_id)])

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.place_gone(await departures.guild_chats(self.service, guild.id))

    async def place_gone(self, chats: list[str]) -> None:
        """These chats' channels are gone (or the bot from their server): their
        games are stopped and their timers end; nothing is shown (no channel to show it in)."""
        async with self.busy():
            for chat in chats:
                if await departures.stop_table(self.service, chat):
                    self.waker.cancel(chat)
                    self.panels.forget_chat(chat)

    async def remove_departed(self, chat: str, *, version: int | None = None,
                              by: c.Person | None = None) -> Outcome | None:
        """The seat of the member on turn removed (as `/uno leave`) if Discord
        says they are no longer in the server: nobody told the bot (the members
        intent off), and their turn would otherwise wait for them forever (no
        turn timer) or run out turn after turn. Asked when their turn timer
        rings (`version`: the table it was planned on) and by `/uno skip`
        (`by`: a player of the game or an admin). The outcome, if removed."""
        guild = guild_id_of(chat)
        if guild is None:
            return None
        try:
            table = await self.service.table(chat)
        except (StoreError, ValueError):
            return None  # the command or the wake meets the outage itself
        game = table.game if table is not None else None
        if table is None or game is None or not 0 <= game.turn < len(table.seats) \
                or (version is not None and table.version != version) \
                or (by is not None and not by.is_admin and table.seat_of(by.id) is None):
            return None
        on_turn = table.seats[game.turn].id
        leave = departures.leave_of(table, on_turn)
        if leave is None or not await departures.is_gone(self.http, guild, on_turn):
            return None
        out = await self.service.handle(chat, *leave)
        return out if out.ok else None

    async def delete_message(self, chat: str, mid: int) -> None:
        """Delete the bot's message `mid` in the channel of `chat` (one already gone is no matter)."""
        cid = channel_of(chat)
        if cid is None:
            return
        try:
            await self.get_partial_messageable(cid).get_partial_message(mid).delete()
        except discord.HTTPException as exc:
            log.info("chat %s: message %s not deleted: %s", chat, mid, exc)

    # -- timers: core's waker -------------------------------------------------------------
    async def _ring(self, kind: str, chat: str, data: WakeData) -> None:
        async with self.busy():
            if kind == TIMER and (gone := await self.remove_departed(chat, version=data.get("version"))):
                await self.after(chat, gone)
                return
            fired = await self.waker.fire(kind, chat, data)
            if fired.changed and fired.outcome is not None:
                await self.after(chat, fired.outcome, line=fired.line)

    async def replan_all(self) -> None:
        """Once at start-up: the stored tables of this bot's channels get their
        timers (core's `Waker.replan`), and each one's status message is brought
        up to date (a process that stopped right after a move may never have
        shown it; paced as any edit; Telegram's start-up does the same)."""
        async for chat, table in self.waker.replan(self.service.store.bound_chats(), self.served):
            await self.refresh(chat, table)


def modal_value(data: dict[str, Any]) -> str | None:
    """The text typed in a modal's one input, if this is a modal submit."""
    for row in data.get("components") or []:
        for comp in row.get("components") or []:
            if "value" in comp:
                return str(comp["value"])
    return None
