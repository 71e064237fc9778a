"""A local, offline Discord API (REST) and gateway (websocket) for end-to-end tests.

Why a real server instead of mocking discord.py: what breaks a Discord bot
lives at the boundary (which payload a view becomes, how an interaction is
answered, ephemeral flags, the gateway handshake). The real discord.py
client is pointed at this server (`Route.BASE` and the gateway URL) and
speaks to it over HTTP and a websocket on 127.0.0.1.

What it models:

* the gateway: HELLO (op 10), IDENTIFY (op 2) answered by READY and one
  GUILD_CREATE per guild, heartbeats (op 1 -> op 11), RESUME answered with
  INVALID_SESSION (op 9, the client identifies again), and DISPATCH (op 0)
  of INTERACTION_CREATE for the interactions a test makes;
* REST: the bot user and application, command registration, channel
  messages (create, edit, get, delete), interaction callbacks (reply,
  deferred, update message, with `with_response`), follow-ups and edits of
  the original response through the interaction webhook;
* who sees what: an ephemeral message is seen only by the member whose
  interaction it answers; every version of every channel message is kept,
  so a test can scan all a channel ever showed;
* modals: a component answered with a modal (type 9), its submit (a type 5
  interaction with the typed values) answered like a component's press;
* timing: when each interaction was sent and answered (Discord fails one
  not answered in 3 s), and when each message edit was made and how (the
  channel's own edits are the ones its rate limit counts);
* threads (`thread`), and a thread archived for inactivity (`archived`):
  an edit there is refused (400, 50083) until the thread is unarchived
  (PATCH the channel with `archived: false`, or post a message in it);
* the bot's own permissions in each channel (`bot_permissions`, all by
  default): sent as each interaction's `app_permissions`, and a channel
  message the bot creates or edits without View Channel (403, 50001), Send
  Messages (in a thread: Send Messages in Threads; 50013) or, with a file,
  Attach Files (50013) is refused, as
  Discord refuses it; an interaction's own answer needs none of them;
* refusals Discord makes: answering an interaction twice (400, code 40060),
  an unknown interaction token (404, 10015), components over the limits
  (more than 5 rows, 5 buttons a row, 25 options, custom_id over 100).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

JSON = dict[str, Any]

EPHEMERAL = 64
#: The largest file a bot may upload (10 MiB, Discord's limit without a boosted server).
MAX_UPLOAD = 10 * 1024 * 1024
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
ATTACH_FILES = 1 << 15
SEND_MESSAGES_IN_THREADS = 1 << 38
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 31)  # view channel, send messages, use app commands
ALL_PERMISSIONS = (1 << 41) - 1
#: Gateway intents (Identify's `intents`): members is privileged, moderation is not.
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MODERATION_INTENT = 1 << 2


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class Member:
    id: int
    name: str
    locale: str = "en-US"
    manage_guild: bool = False

    def user(self) -> JSON:
        return {"id": str(self.id), "username": self.name.lower(), "global_name": self.name,
                "discriminator": "0", "avatar": None, "bot": False}

    @property
    def permissions(self) -> int:
        return MEMBER_PERMISSIONS | (MANAGE_GUILD if self.manage_guild else 0)


@dataclass
class Guild:
    id: int
    name: str
    channels: list[int]


@dataclass
class Message:
    """A message as the server keeps it, with every version it had."""

    id: int
    channel_id: int
    content: str
    components: list[JSON]
    flags: int = 0
    #: The member who alone sees it (ephemeral), else None (the whole channel).
    viewer: int | None = None
    versions: list[tuple[str, list[JSON]]] = field(default_factory=list)
    #: When each version after the first was made (time.monotonic()), and whether
    #: through the channel (a bot's own edit, which counts against the channel's
    #: rate limit) or an interaction's answer.
    edits: list[tuple[float, str]] = field(default_factory=list)
    deleted: bool = False
    interaction_id: int | None = None
    #: Its attachments (id, filename, size) and each one's bytes by id.
    attachments: list[JSON] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)

    def picture(self) -> bytes | None:
        """The bytes of its one attachment, if it has one."""
        return self.files[self.attachments[0]["id"]] if len(self.attachments) == 1 else None

    @property
    def ephemeral(self) -> bool:
        return self.viewer is not None

    def payload(self, bot: JSON, guild_id: int | None) -> JSON:
        data: JSON = {
            "id": str(self.id), "channel_id": str(self.channel_id), "author": bot,
            "content": self.content, "timestamp": _now(), "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [dict(a, url=f"https://cdn.example/{a['id']}/{a['filename']}",
                                 proxy_url=f"https://cdn.example/{a['id']}/{a['filename']}")
                            for a in self.attachments],
            "embeds": [], "pinned": False, "type": 0,
            "components": self.components, "flags": self.flags,
        }
        if guild_id is not None and not self.ephemeral:
            data["guild_id"] = str(guild_id)
        return data

    def labels(self) -> list[str]:
        """Every text on the message's components (button labels, select options)."""
        return component_texts(self.components)

    def custom_ids(self) -> list[tuple[str, str]]:
        """(label, custom_id) of each button and select option (`custom_id=value`)."""
        out: list[tuple[str, str]] = []
        for row in self.components:
            for comp in row.get("components", []):
                if comp.get("type") == 2 and comp.get("custom_id"):
                    out.append((comp.get("label") or "", comp["custom_id"]))
                elif comp.get("type") == 3:
                    for opt in comp.get("options", []):
                        out.append((opt["label"], f"{comp['custom_id']}={opt['value']}"))
        return out


def component_texts(components: list[JSON]) -> list[str]:
    texts: list[str] = []
    for row in components:
        for comp in row.get("components", []):
            for key in ("label", "placeholder"):
                if comp.get(key):
                    texts.append(str(comp[key]))
            for opt in comp.get("options", []) or []:
                texts.append(str(opt.get("label", "")))
                if opt.get("description"):
                    texts.append(str(opt["description"]))
    return texts


@dataclass
class Sent:
    """An interaction a test made, and what the bot answered."""

    id: int
    token: str
    member: Member
    channel_id: int
    payload: JSON
    callbacks: list[JSON] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    #: The message the answer created or updated.
    message: Message | None = None
    followups: list[Message] = field(default_factory=list)
    #: When the interaction was dispatched and first answered (time.monotonic()).
    sent_at: float = 0.0
    answered_at: float | None = None

    @property
    def answer_seconds(self) -> float | None:
        """How long the bot took to answer (Discord fails an interaction after 3 s)."""
        return None if self.answered_at is None else self.answered_at - self.sent_at

    @property
    def text(self) -> str:
        return self.message.content if self.message is not None else ""


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class DiscordAPIServer:
    token = "MTAwMDAw.fake.discord-token"
    application_id = 990000000000000001
    bot_id = 990000000000000002

    def __init__(self) -> None:
        self._ids = itertools.count(1_100_000_000_000_000_000)
        self.guilds: dict[int, Guild] = {}
        self.channel_guild: dict[int, int] = {}
        #: The bot's permissions in a channel (ALL_PERMISSIONS unless a test takes some away).
        self.bot_permissions: dict[int, int] = {}
        #: Public threads (a channel's, or a forum channel's posts): thread id -> parent channel id.
        self.threads: dict[int, int] = {}
        #: The threads archived now (Discord archives a thread after its inactivity
        #: time: new messages count, edits do not).
        self.archived: set[int] = set()
        self.messages: dict[int, Message] = {}
        self.interactions: dict[str, Sent] = {}  # by token
        self.sessions: list[_Session] = []
        self.commands: list[JSON] = []
        self.errors: list[str] = []
        self.refusals: list[tuple[str, int]] = []
        self.requests = 0
        self.identified = asyncio.Event()
        #: Every member a test made, by id; a member is in every guild until removed from it.
        self.members: dict[int, Member] = {}
        #: (guild, member) pairs no longer in the guild (left, kicked or banned).
        self.gone: set[tuple[int, int]] = set()
        #: Whether the Developer Portal grants the privileged Server Members intent.
        self.members_intent_allowed = False
        #: The shards Discord requires of this bot (a bot in many servers); fewer is closed with 4011.
        self.shards_required = 1
        #: Refuse the bot's command registration (a description over Discord's limit, say).
        self.refuse_commands = False
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._tasks: set[asyncio.Task[None]] = set()

    # -- life ---------------------------------------------------------------------
    async def __aenter__(self) -> DiscordAPIServer:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def __aexit__(self, et: type[BaseException] | None, e: BaseException | None,
                        tb: TracebackType | None) -> None:
        for s in list(self.sessions):
            with contextlib.suppress(Exception):
                await s.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def snowflake(self) -> int:
        return next(self._ids)

    # -- the world ------------------------------------------------------------------
    def guild(self, name: str = "UNO club", channels: int = 1, *, gid: int | None = None) -> Guild:
        """A guild (`gid`: its id, else the next snowflake; a snowflake's time is
        its bits from 22 on, which decide its gateway shard)."""
        gid = gid if gid is not None else self.snowflake()
        guild = Guild(gid, name, [self.snowflake() for _ in range(channels)])
        self.guilds[gid] = guild
        for cid in guild.channels:
            self.channel_guild[cid] = gid
        return guild

    def member(self, name: str, locale: str = "en-US", manage_guild: bool = False) -> Member:
        member = Member(self.snowflake(), name, locale, manage_guild)
        self.members[member.id] = member
        return member

    async def remove_member(self, guild: int, member: Member, *, ban: bool = False) -> None:
        """`member` leaves `guild` (or is kicked; with `ban`, banned). Discord tells
        each gateway session what its intents ask for: GUILD_BAN_ADD with the
        moderation intent, GUILD_MEMBER_REMOVE with the (privileged) members one."""
        self.gone.add((guild, member.id))
        for session in [s for s in self.sessions if s.ready]:
            if ban and session.intents & GUILD_MODERATION_INTENT:
                await session.dispatch("GUILD_BAN_ADD", {"guild_id": str(guild), "user": member.user()})
            if session.intents & GUILD_MEMBERS_INTENT:
                await session.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(guild), "user": member.user()})

    @property
    def bot_user(self) -> JSON:
        return {"id": str(self.bot_id), "username": "unobot", "global_name": "UNO", "discriminator": "0",
                "avatar": None, "bot": True, "verified": True, "mfa_enabled": False, "flags": 0}

    def thread(self, parent: int, name: str = "uno night") -> int:
        """A public thread of channel `parent` (a forum channel's post is one too): a
        channel of its own for messages and interactions, where the bot posts with
        Send Messages in Threads instead of Send Messages."""
        tid = self.snowflake()
        self.channel_guild[tid] = self.channel_guild[parent]
        self.threads[tid] = parent
        return tid

    async def delete_channel(self, cid: int) -> None:
        """A member deletes a channel or a thread (a forum post): every gateway
        session hears CHANNEL_DELETE or THREAD_DELETE (the guilds intent), and from
        then on Discord answers its REST calls "Unknown Channel". Its threads go
        with it, told to nobody (a client infers them)."""
        gid = self.channel_guild[cid]
        thread = cid in self.threads
        data = self.channel_payload(cid)
        for child in [t for t, parent in self.threads.items() if parent == cid]:
            del self.threads[child], self.channel_guild[child]
        del self.channel_guild[cid]
        self.threads.pop(cid, None)
        if cid in self.guilds[gid].channels:
            self.guilds[gid].channels.remove(cid)
        for session in [s for s in self.sessions if s.ready]:
            if thread:
                await session.dispatch("THREAD_DELETE", {"id": str(cid), "guild_id": str(gid),
                                                         "parent_id": data["parent_id"], "type": 11})
            else:
                await session.dispatch("CHANNEL_DELETE", data)

    async def remove_bot(self, gid: int) -> None:
        """The bot is kicked from (or leaves) a server: GUILD_DELETE without
        `unavailable`, and every channel of it refuses the bot ("Missing Access")."""
        for cid, owner in self.channel_guild.items():
            if owner == gid:
                self.bot_permissions[cid] = 0
        for session in [s for s in self.sessions if s.ready]:
            await session.dispatch("GUILD_DELETE", {"id": str(gid)})

    def channel_payload(self, cid: int) -> JSON:
        if cid in self.threads:
            return {"id": str(cid), "type": 11, "guild_id": str(self.channel_guild[cid]), "name": f"uno-{cid % 1000}",
                    "parent_id": str(self.threads[cid]), "owner_id": str(self.bot_id), "last_message_id": None,
                    "rate_limit_per_user": 0, "message_count": 0, "member_count": 1, "flags": 0,
                    "thread_metadata": {"archived": cid in self.archived, "auto_archive_duration": 60,
                                        "archive_timestamp": _now(), "locked": False}}
        return {"id": str(cid), "type": 0, "guild_id": str(self.channel_guild[cid]), "name": f"uno-{cid % 1000}",
                "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
                "topic": None, "last_message_id": None, "rate_limit_per_user": 0}

    def guild_payload(self, guild: Guild) -> JSON:
        return {
            "id": str(guild.id), "name": guild.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(self.snowflake()), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": [{"id": str(guild.id), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS),
                       "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False,
                       "flags": 0}],
            "emojis": [], "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None, "description": None,
            "banner": None, "premium_tier": 0, "preferred_locale": "en-US", "public_updates_channel_id": None,
            "nsfw_level": 0, "premium_progress_bar_enabled": False, "stickers": [],
            "joined_at": _now(), "large": False, "unavailable": False, "member_count": 1,
            "voice_states": [], "members": [{"user": self.bot_user, "roles": [], "joined_at": _now(),
                                              "deaf": False, "mute": False, "flags": 0}],
            "channels": [self.channel_payload(c) for c in guild.channels], "threads": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }

    # -- what a channel shows ------------------------------------------------------------
    def channel_messages(self, cid: int) -> list[Message]:
        """Messages the whole channel sees (not ephemeral, not deleted), oldest first."""
        return [m for m in self.messages.values() if m.channel_id == cid and not m.ephemeral and not m.deleted]

    def public_texts(self, cid: int | None = None) -> list[str]:
        """Every version of every public message (content and component texts)."""
        out: list[str] = []
        for m in self.messages.values():
            if m.ephemeral or (cid is not None and m.channel_id != cid):
                continue
            for content, components in m.versions:
                out.append(content)
                out.extend(component_texts(components))
        return out

    # -- interactions a test makes ----------------------------------------------------------
    def _base_interaction(self, member: Member, cid: int, itype: int) -> tuple[JSON, str, int]:
        iid = self.snowflake()
        token = f"itoken-{iid}"
        gid = self.channel_guild[cid]
        payload: JSON = {
            "id": str(iid), "application_id": str(self.application_id), "type": itype, "token": token,
            "version": 1, "guild_id": str(gid), "channel_id": str(cid), "channel": self.channel_payload(cid),
            "member": {"user": member.user(), "roles": [], "joined_at": _now(), "deaf": False, "mute": False,
                       "flags": 0, "permissions": str(member.permissions)},
            "locale": member.locale, "guild_locale": "en-US",
            "app_permissions": str(self.bot_permissions.get(cid, ALL_PERMISSIONS)),
            "attachment_size_limit": 8 * 1024 * 1024, "entitlements": [], "context": 0,
            "authorizing_integration_owners": {"0": str(gid)},
        }
        return payload, token, iid

    async def slash(self, member: Member, cid: int, command: str, sub: str | None = None, /,
                    session: int | None = None, **options: Any) -> Sent:
        """A member runs `/name sub option:value ...` in a channel. A `Member`
        value is a user option (type 6), sent as Discord sends it: the id, and
        the user and their guild membership under `resolved`."""
        payload, token, iid = self._base_interaction(member, cid, 2)
        opts: list[JSON] = []
        users: JSON = {}
        members: JSON = {}
        for k, v in options.items():
            if v is None:
                continue
            if isinstance(v, Member):
                opts.append({"name": k, "type": 6, "value": str(v.id)})
                users[str(v.id)] = v.user()
                members[str(v.id)] = {"roles": [], "joined_at": _now(), "deaf": False, "mute": False, "flags": 0,
                                      "permissions": str(v.permissions)}
            else:
                opts.append({"name": k, "type": 4 if isinstance(v, int) else 3, "value": v})
        if sub is not None:
            opts = [{"name": sub, "type": 1, "options": opts}]
        cmd_id = next((c["id"] for c in self.commands if c["name"] == command), str(self.snowflake()))
        payload["data"] = {"id": cmd_id, "name": command, "type": 1, "options": opts}
        if users:
            payload["data"]["resolved"] = {"users": users, "members": members}
        return await self._send(payload, token, iid, member, cid, session)

    async def autocomplete(self, member: Member, cid: int, command: str, sub: str, focused: str,
                           typed: str) -> Sent:
        """A member types `typed` into option `focused` of `/command sub`: Discord asks
        the bot for choices (an autocomplete interaction, type 4), only for an option
        the bot registered with `autocomplete: true`. The answer (type 8) is in
        `Sent.callbacks`."""
        registered = next((c for c in self.commands if c["name"] == command), None)
        subs = {o["name"]: o for o in (registered or {}).get("options", [])}
        option = next((o for o in subs.get(sub, {}).get("options", []) if o["name"] == focused), None)
        if option is None or not option.get("autocomplete"):
            raise ApiError(400, 0, f"/{command} {sub} {focused}: not an autocomplete option, Discord asks nothing")
        payload, token, iid = self._base_interaction(member, cid, 4)
        payload["data"] = {"id": registered["id"], "name": command, "type": 1,  # type: ignore[index]
                           "options": [{"name": sub, "type": 1, "options": [
                               {"name": focused, "type": 3, "value": typed, "focused": True}]}]}
        return await self._send(payload, token, iid, member, cid, None)

    async def component(self, member: Member, message: Message, custom_id: str,
                        values: list[str] | None = None, session: int | None = None) -> Sent:
        """A member presses a button (or picks `values` in a select) on a message."""
        payload, token, iid = self._base_interaction(member, message.channel_id, 3)
        payload["data"] = {"custom_id": custom_id, "component_type": 3 if values is not None else 2,
                           **({"values": values} if values is not None else {})}
        payload["message"] = message.payload(self.bot_user, self.channel_guild.get(message.channel_id))
        return await self._send(payload, token, iid, member, message.channel_id, session)

    async def modal_submit(self, member: Member, message: Message | None, custom_id: str,
                           fields: dict[str, str], session: int | None = None) -> Sent:
        """A member submits a modal (opened from a component on `message`) with
        `fields` typed into its text inputs (custom_id: value)."""
        payload, token, iid = self._base_interaction(member, message.channel_id if message else
                                                     next(iter(self.channel_guild)), 5)
        payload["data"] = {"custom_id": custom_id, "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in fields.items()]}
        if message is not None:
            payload["message"] = message.payload(self.bot_user, self.channel_guild.get(message.channel_id))
        return await self._send(payload, token, iid, member, message.channel_id if message else
                                next(iter(self.channel_guild)), session)

    async def _send(self, payload: JSON, token: str, iid: int, member: Member, cid: int,
                    session: int | None) -> Sent:
        sent = Sent(iid, token, member, cid, payload, sent_at=time.monotonic())
        self.interactions[token] = sent
        live = [s for s in self.sessions if s.ready]
        if not live:
            raise RuntimeError("no bot is connected to the gateway")
        target = live[session % len(live)] if session is not None else live[-1]
        await target.dispatch("INTERACTION_CREATE", payload)
        return sent

    async def answer(self, sent: Sent, timeout: float = 10.0) -> Sent:
        await asyncio.wait_for(sent.answered.wait(), timeout)
        return sent

    # -- gateway --------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        session = _Session(self, ws)
        self.sessions.append(session)
        try:
            await session.run()
        finally:
            self.sessions.remove(session)
        return ws

    # -- REST ------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.Response:
        self.requests += 1
        path = request.match_info["path"].strip("/").split("/")
        method = request.method
        body: Any = None
        if request.can_read_body:
            if request.content_type.startswith("multipart"):
                body = await self._multipart(request)
            else:
                raw = await request.read()
                body = json.loads(raw) if raw else None
        if request.headers.get("Authorization") != f"Bot {self.token}" and path[0] != "interactions" \
                and path[0] != "webhooks":
            return self._error(401, 0, "401: Unauthorized")
        try:
            result = self._route(method, path, body or {}, request)
        except ApiError as exc:
            self.refusals.append((exc.message, exc.code))
            return self._error(exc.status, exc.code, exc.message)
        except Exception as exc:  # a bug in the server: fail the test
            self.errors.append(f"{method} {request.path}: {exc!r}")
            raise
        if result is None:
            return web.Response(status=204)
        return self._json(result)

    async def _multipart(self, request: web.Request) -> JSON:
        """A body with files, as Discord takes it: `payload_json` and `files[n]`;
        the files go beside the attachments list that names them (`_files`)."""
        body: JSON = {}
        files: dict[int, tuple[str, bytes]] = {}
        async for part in await request.multipart():
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                body = json.loads(await part.text())
            elif part.name and part.name.startswith("files[") and part.name.endswith("]"):
                files[int(part.name[6:-1])] = (part.filename or "", bytes(await part.read()))
        target = body.get("data") if isinstance(body.get("data"), dict) else body
        target["_files"] = files
        return body

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        # Discord's exact content type: discord.py parses JSON only when it is this.
        return web.Response(body=json.dumps(data).encode(), status=status,
                            headers={"Content-Type": "application/json"})

    @staticmethod
    def _error(status: int, code: int, message: str) -> web.Response:
        return DiscordAPIServer._json({"message": message, "code": code}, status=status)

    def _route(self, method: str, p: list[str], body: JSON, request: web.Request) -> Any:
        bot = self.bot_user
        if p == ["users", "@me"]:
            return bot
        if p == ["applications", "@me"] or p == ["oauth2", "applications", "@me"]:
            return {"id": str(self.application_id), "name": "unobot", "description": "", "icon": None,
                    "bot_public": True, "bot_require_code_grant": False, "owner": bot, "verify_key": "00",
                    "flags": 0, "summary": "", "team": None, "rpc_origins": [], "bot": bot,
                    "interactions_endpoint_url": None, "redirect_uris": [], "tags": []}
        if p == ["gateway", "bot"] or p == ["gateway"]:
            return {"url": self.gateway_url, "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                            "max_concurrency": 1}}
        if len(p) >= 3 and p[0] == "applications" and p[-1] == "commands":
            if method == "PUT":
                if self.refuse_commands:
                    raise ApiError(400, 50035, "Invalid Form Body: description must be 100 or fewer in length")
                for command in body:  # type: ignore[union-attr]
                    _check_command(command)
                self.commands = [dict(c, id=str(self.snowflake()), application_id=str(self.application_id),
                                      version="1", default_member_permissions=None, type=c.get("type", 1))
                                 for c in body]  # type: ignore[union-attr]
                return self.commands
            return self.commands
        if p[0] == "guilds" and len(p) == 4 and p[2] == "members" and method == "GET":
            # Get Guild Member: no intent needed (only listing every member needs one).
            gid, uid = int(p[1]), int(p[3])
            if gid not in self.guilds:
                raise ApiError(404, 10004, "Unknown Guild")
            found = self.members.get(uid)
            if found is None or (gid, uid) in self.gone:
                raise ApiError(404, 10007, "Unknown Member")
            return {"user": found.user(), "roles": [], "joined_at": _now(), "deaf": False, "mute": False,
                    "flags": 0, "nick": None, "avatar": None, "pending": False}
        if p[0] == "channels" and len(p) >= 3 and p[2] == "messages":
            cid = int(p[1])
            if cid not in self.channel_guild:
                raise ApiError(404, 10003, "Unknown Channel")
            self._check_bot_permissions(cid, method, body)
            if cid in self.archived:
                if method != "POST":
                    raise ApiError(400, 50083, "Thread is archived")
                self.archived.discard(cid)  # a new message unarchives its thread
            if len(p) == 3 and method == "POST":
                msg = self._new_message(cid, body, viewer=None)
                return msg.payload(bot, self.channel_guild[cid])
            msg = self._message(int(p[3]), cid)
            if method == "PATCH":
                self._edit(msg, body)
            elif method == "DELETE":
                msg.deleted = True
                return None
            return msg.payload(bot, self.channel_guild[cid])
        if p[0] == "channels" and len(p) == 2 and method == "PATCH" and int(p[1]) in self.threads:
            if body.get("archived") is False:  # a member of an unlocked thread may unarchive it
                self.archived.discard(int(p[1]))
            return self.channel_payload(int(p[1]))
        if p[0] == "interactions" and len(p) == 4 and p[3] == "callback":
            return self._callback(p[1], p[2], body, request.query.get("with_response") in ("1", "true", "True"))
        if p[0] == "webhooks" and len(p) >= 3:
            sent = self.interactions.get(p[2])
            if sent is None:
                raise ApiError(404, 10015, "Unknown Webhook")
            if len(p) == 3 and method == "POST":
                msg = self._new_message(sent.channel_id, body, viewer=sent.member.id
                                        if int(body.get("flags") or 0) & EPHEMERAL else None)
                sent.followups.append(msg)
                return msg.payload(bot, self.channel_guild[sent.channel_id])
            if len(p) == 5 and p[3] == "messages":
                if p[4] == "@original":
                    if sent.message is None:
                        raise ApiError(404, 10008, "Unknown Message")
                    msg = sent.message
                else:
                    msg = self._message(int(p[4]), sent.channel_id)
                if method == "PATCH":
                    self._edit(msg, body, "interaction")
                elif method == "DELETE":
                    msg.deleted = True
                    return None
                return msg.payload(bot, self.channel_guild[sent.channel_id])
        self.errors.append(f"unmodelled route {method} /{'/'.join(p)}")
        raise ApiError(404, 0, "404: Not Found")

    def _check_bot_permissions(self, cid: int, method: str, body: JSON) -> None:
        """What Discord checks of the bot's own channel messages (never of an interaction's answer)."""
        perms = self.bot_permissions.get(cid, ALL_PERMISSIONS)
        if not perms & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if method == "POST" and not perms & (SEND_MESSAGES_IN_THREADS if cid in self.threads else SEND_MESSAGES):
            raise ApiError(403, 50013, "Missing Permissions")
        if method in ("POST", "PATCH") and body.get("_files") and not perms & ATTACH_FILES:
            raise ApiError(403, 50013, "Missing Permissions")

    def _message(self, mid: int, cid: int) -> Message:
        msg = self.messages.get(mid)
        if msg is None or msg.deleted or msg.channel_id != cid:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _check_components(self, components: list[JSON]) -> None:
        if len(components) > 5:
            raise ApiError(400, 50035, "Invalid Form Body: more than 5 action rows")
        for row in components:
            items = row.get("components", [])
            if not items or len(items) > 5:
                raise ApiError(400, 50035, "Invalid Form Body: an action row holds 1 to 5 components")
            if any(i.get("type") == 3 for i in items) and len(items) != 1:
                raise ApiError(400, 50035, "Invalid Form Body: a select menu fills its row")
            for item in items:
                cid = item.get("custom_id") or ""
                if item.get("type") == 2 and item.get("style") == 5:  # a link button: a URL, no custom_id
                    url = str(item.get("url") or "")
                    if cid or not 0 < len(url) <= 512 or not url.startswith(("http://", "https://", "discord://")):
                        raise ApiError(400, 50035, "Invalid Form Body: a link button has a url of 1 to 512 "
                                                   "characters and no custom_id")
                    if len(item.get("label") or "") > 80:
                        raise ApiError(400, 50035, "Invalid Form Body: label over 80 characters")
                    continue
                if item.get("type") in (2, 3) and not (0 < len(cid) <= 100):
                    raise ApiError(400, 50035, "Invalid Form Body: custom_id must be 1 to 100 characters")
                if item.get("type") == 2 and len(item.get("label") or "") > 80:
                    raise ApiError(400, 50035, "Invalid Form Body: label over 80 characters")
                if item.get("type") == 3:
                    opts = item.get("options") or []
                    if not 0 < len(opts) <= 25:
                        raise ApiError(400, 50035, "Invalid Form Body: a select has 1 to 25 options")
                    values = [o["value"] for o in opts]
                    if len(set(values)) != len(values):
                        raise ApiError(400, 50035, "Invalid Form Body: select option values must be unique")
                    if any(len(o["label"]) > 100 or len(o["value"]) > 100 for o in opts):
                        raise ApiError(400, 50035, "Invalid Form Body: option label/value over 100")

    def _new_message(self, cid: int, body: JSON, viewer: int | None, interaction: int | None = None) -> Message:
        content = body.get("content") or ""
        components = body.get("components") or []
        if len(content) > 2000:
            raise ApiError(400, 50035, "Invalid Form Body: content over 2000 characters")
        if not content and not components and not body.get("embeds") and not body.get("_files"):
            raise ApiError(400, 50006, "Cannot send an empty message")
        self._check_components(components)
        msg = Message(self.snowflake(), cid, content, components, int(body.get("flags") or 0), viewer,
                      interaction_id=interaction)
        self._attach(msg, body)
        msg.versions.append((content, components))
        self.messages[msg.id] = msg
        return msg

    def _attach(self, msg: Message, body: JSON) -> None:
        """A body's `attachments` become the message's: an existing one kept by
        its id, a new one by its index among the uploaded files; without the
        list the message keeps what it had (Discord's rules for an edit)."""
        files: dict[int, tuple[str, bytes]] = body.get("_files") or {}
        if "attachments" not in body and not files:
            return
        listed = body.get("attachments")
        if listed is None:  # files with no list: every file is attached
            listed = [{"id": i} for i in files]
        out: list[JSON] = []
        for item in listed:
            old = next((a for a in msg.attachments if a["id"] == str(item.get("id"))), None)
            if old is not None:
                out.append(old)
                continue
            index = int(item.get("id"))
            if index not in files:
                raise ApiError(400, 50035, f"Invalid Form Body: attachment {index} names no uploaded file")
            name, data = files[index]
            if not name or len(data) > MAX_UPLOAD:
                raise ApiError(400, 50035 if name else 50006, "Invalid Form Body: a file needs a name, "
                               f"at most {MAX_UPLOAD} bytes")
            aid = str(self.snowflake())
            out.append({"id": aid, "filename": name, "size": len(data)})
            msg.files[aid] = data
        if len(out) > 10:
            raise ApiError(400, 50035, "Invalid Form Body: at most 10 attachments")
        msg.attachments = out

    def _edit(self, msg: Message, body: JSON, via: str = "channel") -> None:
        if "content" in body:
            if len(body["content"] or "") > 2000:
                raise ApiError(400, 50035, "Invalid Form Body: content over 2000 characters")
            msg.content = body["content"] or ""
        if "components" in body:
            self._check_components(body["components"] or [])
            msg.components = body["components"] or []
        self._attach(msg, body)
        msg.versions.append((msg.content, msg.components))
        msg.edits.append((time.monotonic(), via))

    def _callback(self, iid: str, token: str, body: JSON, with_response: bool) -> JSON | None:
        sent = self.interactions.get(token)
        if sent is None or str(sent.id) != iid:
            raise ApiError(404, 10062, "Unknown interaction")
        if sent.callbacks:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        kind = int(body["type"])
        data = body.get("data") or {}
        message: Message | None = None
        if kind == 4:
            viewer = sent.member.id if int(data.get("flags") or 0) & EPHEMERAL else None
            message = self._new_message(sent.channel_id, data, viewer, interaction=sent.id)
        elif kind == 7:
            if "message" not in sent.payload:
                raise ApiError(400, 40004, "Interaction is not a component interaction")
            message = self._message(int(sent.payload["message"]["id"]), sent.channel_id)
            self._edit(message, data, "interaction")
        elif kind == 5:
            viewer = sent.member.id if int(data.get("flags") or 0) & EPHEMERAL else None
            message = Message(self.snowflake(), sent.channel_id, "", [], 0, viewer, interaction_id=sent.id)
            self.messages[message.id] = message
        elif kind == 6:
            if "message" in sent.payload:
                message = self.messages.get(int(sent.payload["message"]["id"]))
        elif kind == 8:
            if sent.payload["type"] != 4:
                raise ApiError(400, 50035, "Only an autocomplete interaction is answered with choices")
            choices = data.get("choices")
            if not isinstance(choices, list) or len(choices) > 25 or any(
                    not 0 < len(str(ch.get("name") or "")) <= 100 or len(str(ch.get("value") or "")) > 100
                    for ch in choices):
                raise ApiError(400, 50035, "Invalid Form Body: 0 to 25 choices, each a name and value of 1 to 100")
        elif kind == 9:
            if sent.payload["type"] == 5:
                raise ApiError(400, 50035, "A modal submit cannot be answered with a modal")
            if not data.get("custom_id") or not data.get("title") or not data.get("components"):
                raise ApiError(400, 50035, "Invalid Form Body: a modal needs custom_id, title and components")
        else:
            raise ApiError(400, 50035, f"Invalid interaction response type {kind}")
        if kind == 7 and sent.payload["type"] == 5 and "message" not in sent.payload:
            raise ApiError(400, 40004, "Only a modal opened from a component can update its message")
        sent.answered_at = time.monotonic()
        sent.callbacks.append(body)
        sent.message = message
        sent.answered.set()
        if not with_response:
            return None
        result: JSON = {"interaction": {"id": str(sent.id), "type": sent.payload["type"],
                                        "response_message_loading": kind == 5,
                                        "response_message_ephemeral": bool(message and message.ephemeral)}}
        if message is not None:
            result["interaction"]["response_message_id"] = str(message.id)
            result["resource"] = {"type": kind, "message": message.payload(self.bot_user,
                                                                           self.channel_guild[sent.channel_id])}
        return result


class _Session:
    """One gateway connection."""

    def __init__(self, server: DiscordAPIServer, ws: web.WebSocketResponse) -> None:
        self.server = server
        self.ws = ws
        self.seq = 0
        self.ready = False
        self.session_id = f"session-{server.snowflake()}"
        self.lock = asyncio.Lock()
        #: The intents the client identified with.
        self.intents = 0

    async def send(self, payload: JSON) -> None:
        async with self.lock:
            await self.ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: JSON) -> None:
        self.seq += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})

    async def run(self) -> None:
        await self.send({"op": 10, "d": {"heartbeat_interval": 40000}})
        async for msg in self.ws:
            if msg.type != WSMsgType.TEXT:
                if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
                continue
            frame = json.loads(msg.data)
            op = frame.get("op")
            if op == 1:
                await self.send({"op": 11})
            elif op == 2:
                d = frame["d"]
                if d.get("token") != self.server.token:
                    await self.ws.close(code=4004, message=b"Authentication failed.")
                    return
                if self.server.shards_required > 1 and (d.get("shard") or [0, 1])[1] < self.server.shards_required:
                    await self.ws.close(code=4011, message=b"Sharding required.")
                    return
                self.intents = int(d.get("intents") or 0)
                if self.intents & GUILD_MEMBERS_INTENT and not self.server.members_intent_allowed:
                    await self.ws.close(code=4014, message=b"Disallowed intent(s).")
                    return
                shard, shards = d.get("shard") or [0, 1]
                # Discord's sharding: a guild's events go to shard (guild_id >> 22) % shards alone.
                guilds = [g for g in self.server.guilds.values() if (g.id >> 22) % shards == shard]
                await self.dispatch("READY", {
                    "v": 10, "user": self.server.bot_user, "session_id": self.session_id,
                    "resume_gateway_url": self.server.gateway_url,
                    "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                    "application": {"id": str(self.server.application_id), "flags": 0},
                    "shard": d.get("shard") or [0, 1], "private_channels": [], "relationships": [],
                })
                for g in guilds:
                    await self.dispatch("GUILD_CREATE", self.server.guild_payload(g))
                self.ready = True
                self.server.identified.set()
            elif op == 6:
                await self.send({"op": 9, "d": False})
            elif op in (3, 4, 8):
                pass
            else:
                self.server.errors.append(f"gateway: unknown op {op}")


def _valid_name(name: object) -> bool:
    """Discord's rule for a command's or an option's name (and each of its
    localizations): 1 to 32 of letters, digits, "-", "_" and "'" (Devanagari and
    Thai marks too), lowercase wherever a character has a lowercase form."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(ch in "-_'" or unicodedata.category(ch)[0] in "LN"
               or 0x0900 <= ord(ch) <= 0x097F or 0x0E00 <= ord(ch) <= 0x0E7F for ch in name)


def _check_command(command: JSON) -> None:
    """Refuse, as Discord does (50035), a command list Discord would refuse: a
    bad name or localized name, a description or localized one over 100
    characters, more than 25 options, names twice among one command's options
    in any language. One bad entry refuses the whole registration."""
    for name in [command.get("name"), *(command.get("name_localizations") or {}).values()]:
        if not _valid_name(name):
            raise ApiError(400, 50035, f"Invalid Form Body: name {name!r} does not match Discord's pattern")
    for text in [command.get("description", ""), *(command.get("description_localizations") or {}).values()]:
        if len(str(text)) > 100:
            raise ApiError(400, 50035, "Invalid Form Body: description must be 100 or fewer in length")
    options = command.get("options") or []
    if len(options) > 25:
        raise ApiError(400, 50035, "Invalid Form Body: at most 25 options")
    locales = {locale for o in options for locale in (o.get("name_localizations") or {})}
    for locale in [None, *locales]:
        names = [(o.get("name_localizations") or {}).get(locale, o["name"]) if locale else o["name"]
                 for o in options]
        if len(names) != len(set(names)):
            raise ApiError(400, 50035, f"Invalid Form Body: option names repeat in {locale or 'the default'}")
    for option in options:
        if option.get("type") in (1, 2):  # a subcommand or a group: its own options
            _check_command(option)
        else:
            for name in [option.get("name"), *(option.get("name_localizations") or {}).values()]:
                if not _valid_name(name):
                    raise ApiError(400, 50035, f"Invalid Form Body: option name {name!r} does not match")
            for choice in option.get("choices") or []:
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    raise ApiError(400, 50035, "Invalid Form Body: a choice's name has 1 to 100 characters")
