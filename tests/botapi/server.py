"""A local, offline Telegram Bot API server for end-to-end tests.

Why a real HTTP server instead of mocking ``telegram.Bot``: the bugs that hurt a
Telegram bot live at the boundary (how python-telegram-bot encodes a request,
which error class a 400 becomes, long polling and ``offset`` confirmation,
"message is not modified", 429 flood control, privacy mode). A mock re-states
our own assumptions; this server states Telegram's, and the real client is
pointed at it with ``ApplicationBuilder().base_url(server.base_url)``.

What it models, on purpose:

* the JSON shapes Telegram returns (``{"ok": true, "result": ...}``, errors with
  ``error_code``/``description``/``parameters``, HTTP status = error code);
* per-chat message state, so a test can read what a group currently shows;
* the validation Telegram does that a bot can trip over: HTML entity parsing
  (unescaped ``<`` or ``&`` in a player's name is a 400), empty or too long
  texts, callback data over 64 bytes, answering a query twice, editing without a
  change, writing first to a user who never started the bot;
* privacy mode: in groups the bot only sees commands, replies to its own
  messages, mentions and messages sent via it (unless it is an admin).

Typical use::

    async with BotAPIServer() as server:
        app = (Application.builder().token(server.token).base_url(server.base_url)
               .base_file_url(server.base_file_url).build())
        ...  # add handlers, start polling
        table, alice = server.group(), server.user(1, "Alice")
        update = server.send_command(table, alice, "/new")
        call = await server.wait_answer(update, "sendMessage")
        assert server.shown(table)[-1]["text"] == call.params["text"]

What it does not model: media uploads beyond recording them, Markdown parse
modes (the text is kept verbatim), payments, business connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, NamedTuple

from aiohttp import ClientError, ClientSession, ClientTimeout, web

JSON = dict[str, Any]
ChatRef = JSON | int
UserRef = JSON | int

_DEFAULT_BOT_ID = 7000000001
_TOKEN_SECRET = "AAtest-token-for-the-local-bot-api-server"
BOT_API_SERVER_TOKEN = f"{_DEFAULT_BOT_ID}:{_TOKEN_SECRET}"
"""A token of the right shape for the default bot; the server accepts any token."""

# Telegram's own id for the account anonymous group admins post as.
GROUP_ANONYMOUS_BOT: JSON = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}

# The account a member posting *as a channel* writes from (their message's
# `sender_chat` is the channel), and Telegram's own, which a linked channel's
# posts come from when Telegram forwards them into the discussion group.
CHANNEL_BOT: JSON = {
    "id": 136817688,
    "is_bot": True,
    "first_name": "Channel",
    "username": "Channel_Bot",
}
TELEGRAM_SERVICE: JSON = {"id": 777000, "is_bot": False, "first_name": "Telegram"}

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
GET_UPDATES_CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance "
    "is running"
)
WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to "
    "delete the webhook first"
)

# Form fields that are strings in the Bot API even when they look like numbers or JSON.
# Everything else sent form-encoded is JSON-decoded when it parses, because that is how
# python-telegram-bot encodes non-string values ("123", "true", '{"inline_keyboard":...}').
_STRING_FIELDS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "inline_query_id",
        "inline_message_id",
        "next_offset",
        "switch_pm_text",
        "switch_pm_parameter",
        "language_code",
        "url",
        "secret_token",
        "ip_address",
        "action",
        "sticker",
        "title",
        "description",
        "short_description",
        "name",
        "custom_title",
        "emoji",
        "message_effect_id",
        "business_connection_id",
        "query",
    }
)

# Update kinds Telegram leaves out unless a bot asks for them by name.
_OPT_IN_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
# Methods that count towards the simulated per-chat flood limit.
_FLOOD_METHODS = frozenset(
    {"sendMessage", "sendSticker", "editMessageText", "editMessageReplyMarkup"}
)
# Methods that change what a chat shows or answer a user: what "the bot answered" means.
_ANSWER_PREFIXES = ("send", "edit", "delete", "answer", "pin", "unpin", "copy", "forward")
_MAX_TEXT = 4096
_MAX_CALLBACK_DATA = 64
_MAX_INLINE_RESULTS = 50
# Telegram drops an inline or callback query the bot did not answer within about 15 s:
# a later answer is refused with QUERY_TOO_OLD.
QUERY_TIMEOUT = 15.0


class Call(NamedTuple):
    """One recorded Bot API request: the canonical method name and its decoded params."""

    method: str
    params: JSON


class ApiError(Exception):
    """A Bot API error reply; raised inside method handlers, turned into JSON by the server."""

    def __init__(self, code: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def payload(self) -> JSON:
        """The JSON body Telegram sends with this error."""
        body: JSON = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(message: str) -> ApiError:
    """Shorthand for the 400 errors that make up most of Telegram's refusals."""
    return ApiError(400, f"Bad Request: {message}")


# --------------------------------------------------------------------------------------
# HTML parse mode
# --------------------------------------------------------------------------------------

_HTML_ENTITY_RE = re.compile(r"&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(lt|gt|amp|quot));")
_START_TAG_RE = re.compile(
    r"<([A-Za-z][A-Za-z0-9-]*)"
    r"((?:\s+[A-Za-z][A-Za-z0-9-]*(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'>]+))?)*)\s*>"
)
_END_TAG_RE = re.compile(r"</([A-Za-z][A-Za-z0-9-]*)\s*>")
_ATTR_RE = re.compile(r"([A-Za-z][A-Za-z0-9-]*)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>]+)))?")
_SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
}
_SPECIAL_TAGS = frozenset({"a", "span", "blockquote", "tg-emoji"})
_MENTION_RE = re.compile(r"tg://user\?id=(\d+)$")


def _utf16_len(text: str) -> int:
    """Entity offsets are in UTF-16 code units, as in Telegram (emoji count twice)."""
    return len(text.encode("utf-16-le")) // 2


def parse_html(source: str, users: dict[int, JSON] | None = None) -> tuple[str, list[JSON]]:
    """Turn ``parse_mode="HTML"`` text into plain text plus MessageEntity dicts.

    Why it exists: Telegram stores and compares the parsed text, and refuses text
    with an unescaped ``<`` or an unbalanced tag. A bot that forgets to escape a
    player's name ("<Bob>") must fail here as it would in production.

    Raises ApiError 400 "can't parse entities: ..." with Telegram's wording.
    """
    out: list[str] = []
    pos = 0  # current length of the output in UTF-16 units
    stack: list[tuple[str, JSON | None, int]] = []
    entities: list[JSON] = []
    i = 0

    def fail(reason: str) -> ApiError:
        return bad_request(f"can't parse entities: {reason}")

    def byte_offset(index: int) -> int:
        return len(source[:index].encode())

    while i < len(source):
        char = source[i]
        if char == "&":
            match = _HTML_ENTITY_RE.match(source, i)
            if match:
                if match.group(1) or match.group(2):
                    code = int(match.group(1)) if match.group(1) else int(match.group(2), 16)
                    piece = chr(code) if 0 < code <= 0x10FFFF else "\ufffd"
                else:
                    piece = html.unescape(match.group(0))
                out.append(piece)
                pos += _utf16_len(piece)
                i = match.end()
                continue
            out.append("&")  # Telegram keeps an ampersand that starts no known entity
            pos += 1
            i += 1
            continue
        if char != "<":
            out.append(char)
            pos += _utf16_len(char)
            i += 1
            continue
        if source.startswith("</", i):
            end = _END_TAG_RE.match(source, i)
            if end is None:
                raise fail(f"Unclosed end tag at byte offset {byte_offset(i)}")
            name = end.group(1).lower()
            if not stack:
                raise fail(f'Unexpected end tag "{name}" at byte offset {byte_offset(i)}')
            open_name, entity, start = stack.pop()
            if name != open_name:
                raise fail(
                    f'Unmatched end tag at byte offset {byte_offset(i)}, expected "</{open_name}>", '
                    f'found "</{name}>"'
                )
            if entity is not None and pos > start:
                inside_pre = any(tag == "pre" for tag, _, _ in stack)
                language = entity.pop("_language", None)
                if entity["type"] == "code" and inside_pre:
                    if language:  # <pre><code class="language-x"> sets the pre's language
                        for tag, outer, _ in reversed(stack):
                            if tag == "pre" and outer is not None:
                                outer["language"] = language
                                break
                else:
                    entity.update(offset=start, length=pos - start)
                    entities.append(entity)
            i = end.end()
            continue
        start_tag = _START_TAG_RE.match(source, i)
        if start_tag is None:
            name_match = re.match(r"<([A-Za-z0-9-]*)", source[i:])
            if not name_match or not name_match.group(1):
                raise fail(f"Empty tag name at byte offset {byte_offset(i)}")
            raise fail(f"Unclosed start tag at byte offset {byte_offset(i)}")
        name = start_tag.group(1).lower()
        attrs = {
            m.group(1).lower(): next((g for g in m.groups()[1:] if g is not None), "")
            for m in _ATTR_RE.finditer(start_tag.group(2))
        }
        entity: JSON | None
        if name in _SIMPLE_TAGS:
            entity = {"type": _SIMPLE_TAGS[name]}
            css = attrs.get("class", "")
            if name == "code" and css.startswith("language-"):
                entity["_language"] = css[len("language-") :]
        elif name == "span" and attrs.get("class") == "tg-spoiler":
            entity = {"type": "spoiler"}
        elif name == "blockquote":
            kind = "expandable_blockquote" if "expandable" in attrs else "blockquote"
            entity = {"type": kind}
        elif name == "a":
            href = html.unescape(attrs.get("href", ""))
            mention = _MENTION_RE.match(href)
            if mention and users and int(mention.group(1)) in users:
                entity = {"type": "text_mention", "user": users[int(mention.group(1))]}
            elif href:
                entity = {"type": "text_link", "url": href}
            else:
                entity = None
        elif name == "tg-emoji" and attrs.get("emoji-id"):
            entity = {"type": "custom_emoji", "custom_emoji_id": attrs["emoji-id"]}
        else:
            raise fail(f'Unsupported start tag "{name}" at byte offset {byte_offset(i)}')
        stack.append((name, entity, pos))
        i = start_tag.end()
    if stack:
        raise fail(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


# --------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------


@dataclass
class _FloodRule:
    """A per-chat cap on sends/edits, to make Telegram's 429 reproducible on demand."""

    per_second: int
    retry_after: int | None
    stamps: list[float]


class BotAPIServer:
    """An aiohttp server that answers like ``api.telegram.org`` for one bot.

    Use as ``async with BotAPIServer() as server:`` (or ``await server.start()`` /
    ``await server.stop()``), then build the bot with
    ``.base_url(server.base_url).base_file_url(server.base_file_url)``.

    State a test can read: ``calls`` (every request, in order, unknown methods
    included), ``messages[chat_id][message_id]`` (what each chat shows, as
    Telegram Message dicts), ``chats``, ``users``, ``statuses``, ``commands``,
    ``inline_answers``, ``pending_updates``, ``errors`` (server-side crashes).
    """

    def __init__(
        self,
        *,
        bot_id: int = _DEFAULT_BOT_ID,
        bot_username: str = "unobot_test_bot",
        bot_first_name: str = "UNO Test Bot",
        privacy_mode: bool = True,
        inline_feedback: bool = True,
    ) -> None:
        """Describe the bot this server pretends to be.

        ``privacy_mode`` is on by default, as BotFather sets it; ``inline_feedback``
        decides whether picking an inline result also sends ``chosen_inline_result``
        (BotFather's ``/setinlinefeedback``).
        """
        self.bot_user: JSON = {
            "id": bot_id,
            "is_bot": True,
            "first_name": bot_first_name,
            "username": bot_username,
        }
        self.privacy_mode = privacy_mode
        self.inline_feedback = inline_feedback
        self.token = f"{bot_id}:{_TOKEN_SECRET}"

        self.calls: list[Call] = []
        self.errors: list[BaseException] = []
        self.messages: dict[int, dict[int, JSON]] = {}
        self.chats: dict[int, JSON] = {}
        self.users: dict[int, JSON] = {}
        self.statuses: dict[int, dict[int, str]] = {}
        #: Chats where the bot may not send messages: restricted by an admin, or
        #: "Send messages" off for every member (`mute_bot`).
        self.muted: set[int] = set()
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.inline_answers: dict[str, JSON] = {}
        #: Sticker sets the bot created, by lower-case name (with their owner).
        self.sticker_sets: dict[str, JSON] = {}
        self.files: dict[str, bytes] = {}
        self.webhook_url = ""
        self.webhook_secret: str | None = None
        self.webhook_deliveries: list[tuple[int, int]] = []

        self._updates: list[JSON] = []
        #: forum chat id -> {topic id (message_thread_id): name}
        self.topics: dict[int, dict[int, str]] = {}
        #: (chat id, topic) of the topics closed (`close_topic`).
        self.closed_topics: set[tuple[int, int]] = set()
        #: The update the webhook pump is posting now (None: none), until it is answered.
        self.webhook_posting: int | None = None
        #: Tokens answered 401 Unauthorized (revoked), whatever they call.
        self.rejected_tokens: set[str] = set()
        #: Seconds a method waits before it is answered (a slow Bot API, or a slow network).
        self.slow: dict[str, float] = {}
        self._update_ids = itertools.count(100001)
        self._query_ids = itertools.count(4_000_000_000_000_000_001)
        self._group_ids = itertools.count(-1001000000001, -1)
        self._basic_group_ids = itertools.count(-400000001, -1)
        self._next_message_id: dict[int, int] = {}
        self._allowed_updates: list[str] = []
        self._open_callback_queries: set[str] = set()
        self._open_inline_queries: dict[str, JSON] = {}
        #: Seconds after which an unanswered inline or callback query is too old to answer.
        self.query_timeout = QUERY_TIMEOUT
        #: Ids of the queries answered too late (refused with QUERY_TOO_OLD).
        self.too_old: list[str] = []
        self._query_made: dict[str, float] = {}
        self._last_inline_answer: dict[int, str] = {}
        #: inline_message_id -> the message a picked result posted (edited through that id).
        self._inline_messages: dict[str, JSON] = {}
        self._flood: dict[int, _FloodRule] = {}
        self._migrated: dict[int, int] = {}  # old group id -> its supergroup's id
        self._marks: dict[int, int] = {}
        self._mark = 0
        self._poll_generation = 0
        self._closing = False
        # Replaced on every state change; waiters grab the current one before checking,
        # so a change between the check and the wait cannot be missed.
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._pump: asyncio.Task[None] | None = None

        handlers: dict[str, Callable[[JSON], Any]] = {
            "getMe": self._get_me,
            "logOut": self._true,
            "close": self._true,
            "getUpdates": self._get_updates,
            "setWebhook": self._set_webhook,
            "deleteWebhook": self._delete_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "sendMessage": self._send_message,
            "sendSticker": self._send_sticker,
            "editMessageText": self._edit_message_text,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "deleteMessage": self._delete_message,
            "deleteMessages": self._delete_messages,
            "answerCallbackQuery": self._answer_callback_query,
            "answerInlineQuery": self._answer_inline_query,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "getChatMember": self._get_chat_member,
            "getChatAdministrators": self._get_chat_administrators,
            "getChat": self._get_chat,
            "sendChatAction": self._send_chat_action,
            "uploadStickerFile": self._upload_sticker_file,
            "createNewStickerSet": self._create_new_sticker_set,
            "addStickerToSet": self._add_sticker_to_set,
            "getStickerSet": self._get_sticker_set,
            "deleteStickerSet": self._delete_sticker_set,
        }
        self._handlers = handlers
        self._canonical = {name.lower(): name for name in handlers}

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> BotAPIServer:
        """Listen on 127.0.0.1 on a free port; returns self for chaining."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_route("GET", "/file/bot{token}/{path:.*}", self._handle_file)
        # A short shutdown timeout: a held getUpdates must not delay the end of a test.
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        self._closing = False
        return self

    async def stop(self) -> None:
        """Release held long polls, stop webhook delivery and close the socket."""
        self._closing = True
        self._notify()
        await self._stop_pump()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> BotAPIServer:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        """The TCP port picked by the OS at start()."""
        return self._port

    @property
    def base_url(self) -> str:
        """What ``ApplicationBuilder.base_url`` wants: the token is appended by the client."""
        return f"http://127.0.0.1:{self._port}/bot"

    @property
    def base_file_url(self) -> str:
        """What ``ApplicationBuilder.base_file_url`` wants; serves ``self.files``."""
        return f"http://127.0.0.1:{self._port}/file/bot"

    @property
    def bot_username(self) -> str:
        """The bot's @username without the @, for ``/cmd@username`` and mentions."""
        return str(self.bot_user["username"])

    # ---------------------------------------------------------------- HTTP plumbing

    async def _handle_api(self, request: web.Request) -> web.Response:
        raw_method = request.match_info["method"]
        method = self._canonical.get(raw_method.lower(), raw_method)
        if request.match_info["token"] in self.rejected_tokens:  # a revoked token, as Telegram answers it
            return self._reply({"ok": False, "error_code": 401, "description": "Unauthorized"}, 401)
        try:
            params = await self._read_params(request)
        except ValueError as exc:
            self.calls.append(Call(method, {}))
            self._notify()
            return self._reply(bad_request(f"can't parse request: {exc}").payload(), 400)
        self.calls.append(Call(method, params))
        self._notify()
        if self.slow.get(method):
            await asyncio.sleep(self.slow[method])
        handler = self._handlers.get(method)
        if handler is None:
            error = ApiError(404, "Not Found: method not found")
            return self._reply(error.payload(), 404)
        try:
            self._check_flood(method, params)
            result = handler(params)
            if asyncio.iscoroutine(result):
                result = await result
        except ApiError as error:
            return self._reply(error.payload(), error.code)
        except Exception as exc:  # a bug in this server: surface it to the test
            self.errors.append(exc)
            return self._reply(
                {"ok": False, "error_code": 500, "description": f"Internal Server Error: {exc!r}"},
                500,
            )
        body: JSON = {"ok": True, "result": result}
        return self._reply(body, 200)

    @staticmethod
    def _reply(body: JSON, status: int) -> web.Response:
        return web.json_response(
            body, status=status, dumps=lambda o: json.dumps(o, ensure_ascii=False)
        )

    async def _handle_file(self, request: web.Request) -> web.Response:
        path = request.match_info["path"]
        if path not in self.files:
            return self._reply(ApiError(404, "Not Found").payload(), 404)
        return web.Response(body=self.files[path])

    @staticmethod
    def _decode_field(name: str, value: str) -> Any:
        """Undo python-telegram-bot's form encoding: JSON for everything but strings."""
        if name in _STRING_FIELDS:
            return value
        try:
            return json.loads(value)
        except ValueError:
            return value

    async def _read_params(self, request: web.Request) -> JSON:
        """Merge query string and body (JSON, urlencoded or multipart), as Telegram does."""
        params: JSON = {k: self._decode_field(k, v) for k, v in request.query.items()}
        if not request.body_exists:
            return params
        if request.content_type == "application/json":
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("JSON body must be an object")
            params.update(body)
            return params
        if request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    data = value.file.read()
                    params[key] = {
                        "filename": value.filename,
                        "content_type": value.content_type,
                        "size": len(data),
                    }
                else:
                    params[key] = self._decode_field(key, str(value))
        return params

    def _notify(self) -> None:
        """Wake every waiter (long polls, wait_for, webhook pump) to re-check state."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def _wait_change(self, timeout: float) -> None:
        event = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    # ---------------------------------------------------------------- recorded calls

    def calls_to(self, method: str) -> list[JSON]:
        """The params of every call to ``method`` (any letter case), oldest first."""
        name = self._canonical.get(method.lower(), method)
        return [call.params for call in self.calls if call.method == name]

    def last(self, method: str) -> JSON | None:
        """The params of the latest call to ``method``, or None if it was never called."""
        found = self.calls_to(method)
        return found[-1] if found else None

    def mark(self) -> int:
        """A cursor into ``calls``: pass it as ``after=`` to wait for calls made from now on."""
        return len(self.calls)

    async def wait_for(
        self,
        method: str,
        predicate: Callable[[JSON], bool] | None = None,
        timeout: float = 5.0,
        *,
        after: int | None = None,
    ) -> Call:
        """Wait for the first call to ``method`` at index >= ``after`` matching ``predicate``.

        ``after`` defaults to the point where the last update was injected, so the usual
        "inject, then wait for the answer" needs no bookkeeping and cannot miss an answer
        that arrived before the wait started. Raises AssertionError (listing what the bot
        did call) on timeout, so a failing test explains itself.
        """
        name = self._canonical.get(method.lower(), method)
        start = self._mark if after is None else after
        deadline = asyncio.get_running_loop().time() + timeout
        checked = start
        while True:
            for call in self.calls[checked:]:
                if call.method == name and (predicate is None or predicate(call.params)):
                    return call
            checked = max(checked, len(self.calls))
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                seen = [c.method for c in self.calls[start:] if c.method != "getUpdates"]
                raise AssertionError(
                    f"no {name} call within {timeout}s after call #{start}; the bot called: {seen}"
                )
            await self._wait_change(remaining)

    async def wait_answer(
        self, update: JSON, method: str | None = None, *, timeout: float = 5.0
    ) -> Call:
        """Wait until the bot answers an injected update.

        A callback query is answered by answerCallbackQuery with its id, an inline query
        by answerInlineQuery with its id; a message by any send/edit/delete/answer call
        into its chat; a chosen inline result by any such call. ``method`` narrows the
        wait to that method (e.g. "editMessageText" after a button press).
        """
        after = self._marks.get(update.get("update_id", -1), self._mark)
        if "callback_query" in update and method in (None, "answerCallbackQuery"):
            query_id = update["callback_query"]["id"]
            return await self.wait_for(
                "answerCallbackQuery",
                lambda p: p.get("callback_query_id") == query_id,
                after=after,
                timeout=timeout,
            )
        if "inline_query" in update and method in (None, "answerInlineQuery"):
            query_id = update["inline_query"]["id"]
            return await self.wait_for(
                "answerInlineQuery",
                lambda p: p.get("inline_query_id") == query_id,
                after=after,
                timeout=timeout,
            )
        chat_id = None
        for key in ("message", "callback_query"):
            if key in update:
                message = update[key] if key == "message" else update[key].get("message", {})
                chat_id = message.get("chat", {}).get("id")
        wanted = self._canonical.get(method.lower(), method) if method else None
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for call in self.calls[after:]:
                if wanted is not None and call.method != wanted:
                    continue
                if wanted is None and not call.method.startswith(_ANSWER_PREFIXES):
                    continue
                if chat_id is None or call.params.get("chat_id") == chat_id:
                    return call
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                seen = [c.method for c in self.calls[after:] if c.method != "getUpdates"]
                raise AssertionError(
                    f"the bot did not answer update {update.get('update_id')} within "
                    f"{timeout}s; it called: {seen}"
                )
            await self._wait_change(remaining)

    async def wait_consumed(self, update: JSON, *, timeout: float = 5.0) -> None:
        """Wait until the bot confirmed (getUpdates offset past) or received (webhook) it."""
        update_id = update["update_id"]
        deadline = asyncio.get_running_loop().time() + timeout
        while any(u["update_id"] == update_id for u in self._updates):
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise AssertionError(f"update {update_id} was not consumed within {timeout}s")
            await self._wait_change(remaining)

    # ---------------------------------------------------------------- test-side setup

    def user(
        self,
        id: int,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "en",
        *,
        last_name: str | None = None,
    ) -> JSON:
        """A Telegram User dict, remembered so getChatMember and mentions can find it."""
        user: JSON = {"id": id, "is_bot": False, "first_name": first_name}
        if last_name:
            user["last_name"] = last_name
        if username:
            user["username"] = username
        if language_code:
            user["language_code"] = language_code
        self.users[id] = user
        return user

    def group(
        self, chat_id: int | None = None, title: str = "UNO table", *, type: str = "supergroup"
    ) -> JSON:
        """A group Chat dict (``type`` "group" or "supergroup"), registered so the bot can write."""
        if type not in ("group", "supergroup"):
            raise ValueError(f"not a group chat type: {type!r}")
        if chat_id is None:
            chat_id = next(self._group_ids if type == "supergroup" else self._basic_group_ids)
        chat: JSON = {"id": chat_id, "type": type, "title": title}
        self.chats[chat_id] = chat
        return chat

    def forget(self) -> None:
        """Drop what the server remembers of the chats, people and calls so
        far (a soak's finished games), so that what grows is the bot's, not
        this double's. Only when nothing waits on a mark or a message."""
        for store in (self.messages, self.chats, self.users, self.statuses, self.muted, self.inline_answers,
                      self._next_message_id, self._open_inline_queries, self._query_made,
                      self._last_inline_answer, self._inline_messages, self._marks, self.topics,
                      self.closed_topics):
            store.clear()
        self._open_callback_queries.clear()
        self.calls.clear()
        self.too_old.clear()
        self.webhook_deliveries.clear()
        self._mark = 0

    def forum(self, title: str = "UNO forum") -> JSON:
        """A supergroup with topics (``is_forum``): General, and the topics
        made with ``create_topic``."""
        chat = self.group(title=title)
        chat["is_forum"] = True
        self.topics[chat["id"]] = {}
        return chat

    def create_topic(self, chat: ChatRef, user: UserRef, name: str) -> int:
        """A member opens a topic in a forum, as Telegram does it: a service
        message with ``forum_topic_created``, whose id is the topic's
        ``message_thread_id`` from then on. Returns that id."""
        the_chat = self._chat(chat, user)
        if not the_chat.get("is_forum"):
            raise ValueError(f"chat {the_chat['id']} is not a forum")
        message = self._new_message(the_chat, self._user(user),
                                    forum_topic_created={"name": name, "icon_color": 7322096})
        message["message_thread_id"] = message["message_id"]
        message["is_topic_message"] = True
        self._store(message)
        self.topics[the_chat["id"]][message["message_id"]] = name
        return int(message["message_id"])

    def close_topic(self, chat: ChatRef, user: UserRef, thread: int) -> JSON:
        """`user` closes a forum topic: a ``forum_topic_closed`` service message
        in it, which every bot gets whatever its privacy mode; from then on
        only admins may post there (a bot that is none is refused
        "TOPIC_CLOSED"), though its messages may still be edited."""
        the_chat = self._chat(chat, user)
        if thread not in self.topics.get(the_chat["id"], {}):
            raise ValueError(f"no topic {thread} in chat {the_chat['id']}")
        self.closed_topics.add((the_chat["id"], thread))
        message = self._new_message(the_chat, self._user(user))
        message.update(forum_topic_closed={}, message_thread_id=thread, is_topic_message=True)
        self._store(message)
        return self._inject({"message": message}, queue=True)

    def delete_topic(self, chat: ChatRef, thread: int) -> None:
        """An admin deletes a forum topic, with every message in it (Telegram
        tells a bot nothing): a send into it is refused ("message thread not
        found") and an edit of one of its messages finds none."""
        the_chat = self._chat(chat)
        del self.topics[the_chat["id"]][thread]
        kept = self.messages.get(the_chat["id"], {})
        for message_id in [i for i, m in kept.items() if self.in_topic(m) == thread or i == thread]:
            del kept[message_id]

    def _into_topic(self, chat: JSON, message: JSON, thread: Any) -> None:
        """Put a message into forum topic ``thread`` (Telegram's fields:
        ``message_thread_id``, ``is_topic_message``), refusing a topic that
        does not exist as Telegram does. A reply to a topic's message without
        a thread lands in that topic."""
        if thread is None:
            replied = message.get("reply_to_message") or {}
            if not replied.get("is_topic_message"):
                return
            thread = replied["message_thread_id"]
        try:
            thread = int(thread)
        except (TypeError, ValueError):
            raise bad_request("message thread not found") from None
        if not chat.get("is_forum") or thread not in self.topics.get(chat["id"], {}):
            raise bad_request("message thread not found")
        status = self.statuses.get(chat["id"], {}).get(self.bot_user["id"])
        if (chat["id"], thread) in self.closed_topics and status not in ("creator", "administrator"):
            raise bad_request("TOPIC_CLOSED")
        message["message_thread_id"] = thread
        message["is_topic_message"] = True

    def in_topic(self, message: JSON) -> int | None:
        """The topic a stored message is in (None: General, or no forum)."""
        return message.get("message_thread_id") if message.get("is_topic_message") else None

    def private_chat(self, user: UserRef) -> JSON:
        """The private Chat with a user; registering it means the user has started the bot."""
        person = self._user(user)
        chat: JSON = {"id": person["id"], "type": "private", "first_name": person["first_name"]}
        for key in ("last_name", "username"):
            if key in person:
                chat[key] = person[key]
        self.chats[person["id"]] = chat
        return chat

    def set_status(self, chat: ChatRef, user: UserRef, status: str) -> None:
        """Set what getChatMember answers: creator, administrator, member, left or kicked."""
        if status not in ("creator", "administrator", "member", "left", "kicked", "restricted"):
            raise ValueError(f"unsupported chat member status: {status!r}")
        chat_id = chat["id"] if isinstance(chat, dict) else chat
        user_id = user["id"] if isinstance(user, dict) else user
        self.statuses.setdefault(chat_id, {})[user_id] = status

    def remove_bot(self, chat: ChatRef, by: UserRef, *, status: str = "kicked", queue: bool = True) -> JSON:
        """`by` (an admin) removes the bot from a group (``kicked``: banned;
        ``left``: removed): Telegram tells the bot with a ``my_chat_member``
        update, and refuses every later post there with 403."""
        if status not in ("left", "kicked"):
            raise ValueError(f"not a removal: {status!r}")
        the_chat = self._chat(chat)
        old = self.statuses.get(the_chat["id"], {}).get(self.bot_user["id"], "member")
        self.statuses.setdefault(the_chat["id"], {})[self.bot_user["id"]] = status
        update: JSON = {"my_chat_member": {
            "chat": the_chat, "from": self._user(by), "date": int(time.time()),
            "old_chat_member": {"status": old, "user": self.bot_user},
            "new_chat_member": self._member(the_chat["id"], self.bot_user["id"]),
        }}
        return self._inject(update, queue=queue)

    def mute_bot(self, chat: ChatRef, by: UserRef | None = None, *, muted: bool = True,
                 queue: bool = True) -> JSON | None:
        """The bot may no longer send messages in `chat` (`muted=False`: may again).
        With `by` (an admin), the admin restricted the bot: Telegram tells the bot
        with a ``my_chat_member`` update (its status ``restricted``, without
        ``can_send_messages``; back to ``member`` when lifted), returned. Without,
        "Send messages" was turned off for every member: no update, only refusals.
        Either way every later sendMessage or sendSticker there is answered 400
        "not enough rights to send ... to the chat"; edits still go through."""
        the_chat = self._chat(chat)
        old = self._member(the_chat["id"], self.bot_user["id"])
        if muted:
            self.muted.add(the_chat["id"])
        else:
            self.muted.discard(the_chat["id"])
        if by is None:
            return None
        self.statuses.setdefault(the_chat["id"], {})[self.bot_user["id"]] = "restricted" if muted else "member"
        update: JSON = {"my_chat_member": {
            "chat": the_chat, "from": self._user(by), "date": int(time.time()),
            "old_chat_member": old, "new_chat_member": self._member(the_chat["id"], self.bot_user["id"]),
        }}
        return self._inject(update, queue=queue)

    def flood_limit(
        self, chat: ChatRef, per_second: int | None, *, retry_after: int | None = None
    ) -> None:
        """Answer 429 once a chat gets more than ``per_second`` sends/edits in a second.

        ``retry_after`` defaults to the seconds until the window frees up (at least 1,
        as Telegram only sends whole seconds). ``per_second=None`` switches it off.
        """
        chat_id = chat["id"] if isinstance(chat, dict) else chat
        if per_second is None:
            self._flood.pop(chat_id, None)
        else:
            self._flood[chat_id] = _FloodRule(per_second, retry_after, [])

    def shown(self, chat: ChatRef) -> list[JSON]:
        """What a chat currently shows, oldest first (deleted messages are gone)."""
        chat_id = chat["id"] if isinstance(chat, dict) else chat
        return [self.messages[chat_id][mid] for mid in sorted(self.messages.get(chat_id, {}))]

    def buttons(self, chat: ChatRef, message_id: int) -> list[JSON]:
        """The inline buttons on a message, flattened row by row (empty if none)."""
        chat_id = chat["id"] if isinstance(chat, dict) else chat
        markup = self.messages[chat_id][message_id].get("reply_markup") or {}
        return [button for row in markup.get("inline_keyboard", []) for button in row]

    def my_commands(self, scope: JSON | None = None, language_code: str = "") -> list[JSON]:
        """The command list set for a scope and language ("" = all languages)."""
        return self.commands.get((self._scope_key(scope), language_code), [])

    @property
    def pending_updates(self) -> list[JSON]:
        """Updates not yet confirmed by the bot (getUpdates offset or webhook 2xx)."""
        return list(self._updates)

    # ---------------------------------------------------------------- update injection

    def send_command(
        self,
        chat: ChatRef,
        user: UserRef,
        command: str,
        args: str = "",
        *,
        anonymous: bool = False,
        queue: bool = True,
        thread: int | None = None,
        as_chat: JSON | None = None,
    ) -> JSON:
        """A user types ``/command args`` (``/command@botname`` works too) in a chat
        (in forum topic ``thread``, if given; as channel ``as_chat``, if given)."""
        if not command.startswith("/") or " " in command:
            raise ValueError(f"not a bot command: {command!r}")
        text = f"{command} {args}" if args else command
        entity = {"type": "bot_command", "offset": 0, "length": _utf16_len(command)}
        return self.send_text(chat, user, text, entities=[entity], anonymous=anonymous, queue=queue,
                              thread=thread, as_chat=as_chat)

    def reply_command(
        self,
        chat: ChatRef,
        user: UserRef,
        command: str,
        reply_to_message_id: int,
        args: str = "",
        *,
        queue: bool = True,
    ) -> JSON:
        """A user answers a message with a command (e.g. ``/kick`` replying to a player)."""
        if not command.startswith("/") or " " in command:
            raise ValueError(f"not a bot command: {command!r}")
        text = f"{command} {args}" if args else command
        entity = {"type": "bot_command", "offset": 0, "length": _utf16_len(command)}
        return self.send_text(
            chat,
            user,
            text,
            entities=[entity],
            reply_to_message_id=reply_to_message_id,
            queue=queue,
        )

    def send_text(
        self,
        chat: ChatRef,
        user: UserRef,
        text: str,
        *,
        entities: list[JSON] | None = None,
        reply_to_message_id: int | None = None,
        anonymous: bool = False,
        queue: bool = True,
        thread: int | None = None,
        as_chat: JSON | None = None,
    ) -> JSON:
        """A user writes a message. It is stored in the chat; with privacy mode on, the bot
        only receives it if Telegram would deliver it (see ``_bot_sees``).

        ``anonymous=True`` posts as an anonymous group admin: from GroupAnonymousBot,
        with ``sender_chat`` set to the group. ``as_chat`` (a ``channel()``) posts as
        that channel, as a member may in a group (a channel's discussion group, most
        often): from Channel_Bot, with ``sender_chat`` set to the channel.
        """
        the_chat = self._chat(chat, user)
        sender = GROUP_ANONYMOUS_BOT if anonymous else CHANNEL_BOT if as_chat else self._user(user)
        if entities is None:
            entities = self._auto_entities(text)
        message = self._new_message(the_chat, sender, text=text, entities=entities)
        if anonymous:
            message["sender_chat"] = the_chat
        elif as_chat:
            message["sender_chat"] = as_chat
        if reply_to_message_id is not None:
            try:
                message["reply_to_message"] = self._quoted(the_chat["id"], reply_to_message_id)
            except ApiError as exc:  # a test bug, not a Bot API answer
                raise ValueError(
                    f"no message {reply_to_message_id} in chat {the_chat['id']}"
                ) from exc
        if thread is not None:
            if thread not in self.topics.get(the_chat["id"], {}):
                raise ValueError(f"no topic {thread} in chat {the_chat['id']}")
            message["message_thread_id"] = thread
            message["is_topic_message"] = True
            # Telegram sends a topic's message as a reply to the topic's first message.
            message.setdefault("reply_to_message", self._quoted(the_chat["id"], thread))
        self._store(message)
        update: JSON = {"message": message}
        return self._inject(update, queue=queue and self._bot_sees(message))

    def channel(self, title: str = "UNO news") -> JSON:
        """A channel Chat dict (whose posts a linked discussion group receives)."""
        chat: JSON = {"id": next(self._group_ids), "type": "channel", "title": title}
        self.chats[chat["id"]] = chat
        return chat

    def automatic_forward(self, group: ChatRef, channel: JSON, text: str) -> JSON:
        """A post of `channel` that Telegram forwards into its linked discussion
        `group`: from Telegram's service account, ``sender_chat`` the channel,
        ``is_automatic_forward``. A post starting with a command carries its entity."""
        the_chat = self._chat(group)
        post_id = self._next_message_id.get(channel["id"], 1)
        self._next_message_id[channel["id"]] = post_id + 1
        message = self._new_message(the_chat, TELEGRAM_SERVICE, text=text, entities=self._auto_entities(text))
        message.update(sender_chat=channel, is_automatic_forward=True,
                       forward_origin={"type": "channel", "chat": channel, "message_id": post_id,
                                       "date": message["date"]})
        self._store(message)
        return self._inject({"message": message}, queue=self._bot_sees(message))

    def migrate_group(self, chat: ChatRef, user: UserRef, *, queue: bool = True) -> tuple[JSON, JSON]:
        """A basic group is upgraded to a supergroup, as Telegram does it: the
        supergroup gets a new id (members and statuses carry over), the old
        group answers every call with "group chat was upgraded" naming the
        new id, and two service messages reach the bot whatever its privacy
        mode: ``migrate_to_chat_id`` in the old group, then
        ``migrate_from_chat_id`` in the new one. Returns (new chat, the old
        group's update)."""
        old = self._chat(chat)
        if old["type"] != "group":
            raise ValueError("only a basic group can be upgraded to a supergroup")
        new = self.group(title=old.get("title", ""), type="supergroup")
        self.statuses[new["id"]] = dict(self.statuses.get(old["id"], {}))
        self._migrated[old["id"]] = new["id"]
        sender = self._user(user)
        to_message = self._new_message(old, sender, migrate_to_chat_id=new["id"])
        from_message = self._new_message(new, GROUP_ANONYMOUS_BOT, migrate_from_chat_id=old["id"])
        from_message["sender_chat"] = new
        self._store(to_message)
        self._store(from_message)
        update = self._inject({"message": to_message}, queue=queue)
        self._inject({"message": from_message}, queue=queue)
        return new, update

    def press_button(
        self,
        chat: ChatRef,
        user: UserRef,
        message_id: int,
        callback_data: str,
        *,
        strict: bool = True,
        queue: bool = True,
    ) -> JSON:
        """A user taps an inline button; the callback query carries the message as stored.

        ``strict`` refuses data that no button on the message carries (a test bug);
        pass ``strict=False`` to forge a stale or malicious press.
        """
        chat_id = chat["id"] if isinstance(chat, dict) else chat
        message = self.messages.get(chat_id, {}).get(message_id)
        if message is None:
            raise ValueError(f"no message {message_id} in chat {chat_id}")
        if strict and callback_data not in [
            b.get("callback_data") for b in self.buttons(chat_id, message_id)
        ]:
            raise ValueError(f"message {message_id} has no button with data {callback_data!r}")
        query_id = str(next(self._query_ids))
        self._open_callback_queries.add(query_id)
        self._query_made[query_id] = time.monotonic()
        query: JSON = {
            "id": query_id,
            "from": self._user(user),
            "message": json.loads(json.dumps(message)),
            "chat_instance": str((chat_id * 7919) % 10**18),
            "data": callback_data,
        }
        return self._inject({"callback_query": query}, queue=queue)

    def inline_query(
        self,
        user: UserRef,
        query: str,
        chat_type: str | None = "supergroup",
        *,
        offset: str = "",
        queue: bool = True,
    ) -> JSON:
        """A user types ``@bot query``; ``chat_type`` is where they type it (None = unknown)."""
        query_id = str(next(self._query_ids))
        inline: JSON = {"id": query_id, "from": self._user(user), "query": query, "offset": offset}
        if chat_type is not None:
            inline["chat_type"] = chat_type
        self._open_inline_queries[query_id] = inline
        self._query_made[query_id] = time.monotonic()
        return self._inject({"inline_query": inline}, queue=queue)

    def choose_inline_result(
        self,
        user: UserRef,
        result_id: str,
        query: str = "",
        *,
        inline_message_id: str | None = None,
        queue: bool = True,
    ) -> JSON:
        """Only the ``chosen_inline_result`` feedback update (no message in the group)."""
        chosen: JSON = {"result_id": result_id, "from": self._user(user), "query": query}
        if inline_message_id is not None:
            chosen["inline_message_id"] = inline_message_id
        return self._inject({"chosen_inline_result": chosen}, queue=queue)

    def via_bot_message(
        self,
        chat: ChatRef,
        user: UserRef,
        text: str | None = None,
        *,
        sticker: str | None = None,
        entities: list[JSON] | None = None,
        reply_markup: JSON | None = None,
        queue: bool = True,
        thread: int | None = None,
    ) -> JSON:
        """The message a user posts into a chat by picking an inline result ("via @bot")."""
        if (text is None) == (sticker is None):
            raise ValueError("give exactly one of text or sticker")
        the_chat = self._chat(chat, user)
        if sticker is not None:
            message = self._new_message(the_chat, self._user(user), sticker=self._sticker(sticker))
        else:
            message = self._new_message(the_chat, self._user(user), text=text, entities=entities)
        message["via_bot"] = dict(self.bot_user)
        if reply_markup and "inline_keyboard" in reply_markup:
            message["reply_markup"] = reply_markup
        if thread is not None:
            self._into_topic(the_chat, message, thread)
        self._store(message)
        return self._inject({"message": message}, queue=queue)

    def pick_inline_result(
        self, chat: ChatRef, user: UserRef, result_id: str, *, queue: bool = True, thread: int | None = None
    ) -> tuple[JSON, JSON | None]:
        """A user picks one of the results the bot last offered them, as a client would.

        Posts the result into the chat via the bot (a sticker for sticker results, the
        ``input_message_content`` text otherwise) and, with inline feedback on, sends the
        ``chosen_inline_result``. Returns (message update, chosen update or None).
        """
        person = self._user(user)
        query_id = self._last_inline_answer.get(person["id"])
        if query_id is None:
            raise ValueError(f"the bot never answered an inline query of user {person['id']}")
        answer = self.inline_answers[query_id]
        result = next((r for r in answer["results"] if str(r.get("id")) == result_id), None)
        if result is None:
            offered = [r.get("id") for r in answer["results"]]
            raise ValueError(f"result {result_id!r} was not offered; offered: {offered}")
        content = result.get("input_message_content") or {}
        markup = result.get("reply_markup")
        if "message_text" in content:
            text, entities = self._render(
                content["message_text"], content.get("parse_mode"), content.get("entities")
            )
            message_update = self.via_bot_message(
                chat, person, text, entities=entities, reply_markup=markup, queue=queue, thread=thread
            )
        elif "sticker_file_id" in result:
            message_update = self.via_bot_message(
                chat, person, sticker=result["sticker_file_id"], reply_markup=markup, queue=queue,
                thread=thread)
        else:
            title = str(result.get("title") or result.get("description") or result_id)
            message_update = self.via_bot_message(
                chat, person, title, reply_markup=markup, queue=queue, thread=thread
            )
        if not self.inline_feedback:
            return message_update, None
        inline_message_id = f"BAAAA{next(self._query_ids)}" if markup else None
        if inline_message_id is not None:
            self._inline_messages[inline_message_id] = message_update["message"]
        chosen = self.choose_inline_result(
            person,
            result_id,
            answer["query"]["query"],
            inline_message_id=inline_message_id,
            queue=queue,
        )
        return message_update, chosen

    def queue_update(self, update: JSON) -> JSON:
        """Queue any hand-built update dict (an ``update_id`` is added if missing)."""
        return self._inject(dict(update), queue=True)

    async def post_update_to(self, url: str, update: JSON, secret_token: str | None = None) -> int:
        """POST an update to a bot's webhook as Telegram does; returns the HTTP status."""
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret_token} if secret_token else {}
        if "update_id" not in update:
            update = {"update_id": next(self._update_ids), **update}
        async with (
            ClientSession(timeout=ClientTimeout(total=10)) as session,
            session.post(url, json=update, headers=headers) as response,
        ):
            await response.read()
            return response.status

    # ---------------------------------------------------------------- injection internals

    def _inject(self, update: JSON, *, queue: bool) -> JSON:
        update.setdefault("update_id", next(self._update_ids))
        self._mark = len(self.calls)
        self._marks[update["update_id"]] = self._mark
        if queue:
            self._updates.append(update)
            self._notify()
        return update

    def _bot_sees(self, message: JSON) -> bool:
        """Privacy mode: what Telegram delivers to a bot from a group it is no admin of."""
        chat = message["chat"]
        if chat["type"] == "private" or not self.privacy_mode:
            return True
        status = self.statuses.get(chat["id"], {}).get(self.bot_user["id"])
        if status in ("creator", "administrator"):
            return True
        text = message.get("text", "")
        for entity in message.get("entities", []):
            if entity["type"] == "bot_command" and entity["offset"] == 0:
                command = text[: entity["length"]]
                target = command.partition("@")[2]
                return not target or target.lower() == self.bot_username.lower()
        if f"@{self.bot_username}".lower() in text.lower():
            return True
        replied = message.get("reply_to_message", {})
        if replied.get("from", {}).get("id") == self.bot_user["id"]:
            return True
        return message.get("via_bot", {}).get("id") == self.bot_user["id"]

    def _auto_entities(self, text: str) -> list[JSON]:
        """The entities a Telegram client would mark: a leading command and @mentions."""
        entities: list[JSON] = []
        command = re.match(r"/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]+)?", text)
        if command:
            entities.append(
                {"type": "bot_command", "offset": 0, "length": _utf16_len(command.group(0))}
            )
        for mention in re.finditer(r"@[A-Za-z0-9_]{5,32}", text):
            if command and mention.start() < command.end():
                continue
            offset = _utf16_len(text[: mention.start()])
            entities.append(
                {"type": "mention", "offset": offset, "length": _utf16_len(mention.group(0))}
            )
        return entities

    def _user(self, user: UserRef) -> JSON:
        if isinstance(user, dict):
            self.users.setdefault(user["id"], user)
            return user
        known = self.users.get(user)
        if known is None:
            known = {"id": user, "is_bot": False, "first_name": f"User{user}"}
            self.users[user] = known
        return known

    def _chat(self, chat: ChatRef, user: UserRef | None = None) -> JSON:
        """Resolve a chat reference; a user writing in private starts the bot there."""
        if isinstance(chat, dict):
            self.chats[chat["id"]] = chat
            return chat
        if chat in self.chats:
            return self.chats[chat]
        if chat < 0:
            return self.group(chat, f"Group {chat}")
        return self.private_chat(user if user is not None else chat)

    def _sticker(self, file_id: str) -> JSON:
        return {
            "file_id": file_id,
            "file_unique_id": f"AgAD{abs(hash(file_id)) % 10**8}",
            "type": "regular",
            "width": 512,
            "height": 512,
            "is_animated": False,
            "is_video": False,
        }

    def _new_message(self, chat: JSON, sender: JSON, **content: Any) -> JSON:
        chat_id = chat["id"]
        message_id = self._next_message_id.get(chat_id, 1)
        self._next_message_id[chat_id] = message_id + 1
        message: JSON = {
            "message_id": message_id,
            "from": sender,
            "chat": chat,
            "date": int(time.time()),
        }
        for key, value in content.items():
            if value:
                message[key] = value
        return message

    def _store(self, message: JSON) -> None:
        self.messages.setdefault(message["chat"]["id"], {})[message["message_id"]] = message

    def _quoted(self, chat_id: int, message_id: int) -> JSON:
        """A stored message as it appears in ``reply_to_message`` (one level deep only)."""
        stored = self.messages.get(chat_id, {}).get(message_id)
        if stored is None:
            raise bad_request("message to be replied not found")
        return {k: v for k, v in stored.items() if k != "reply_to_message"}

    # ---------------------------------------------------------------- shared method helpers

    @staticmethod
    def _require(params: JSON, name: str) -> Any:
        value = params.get(name)
        if value is None or value == "":
            raise bad_request(f"{name} is empty" if name != "text" else "message text is empty")
        return value

    def _target_chat(self, params: JSON) -> JSON:
        chat_id = self._require(params, "chat_id")
        if isinstance(chat_id, str) and not chat_id.startswith("@"):
            with contextlib.suppress(ValueError):
                chat_id = int(chat_id)
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat_id in self._migrated:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           {"migrate_to_chat_id": self._migrated[chat_id]})
        if chat is None:
            if isinstance(chat_id, int) and chat_id > 0:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
            raise bad_request("chat not found")
        if chat["type"] != "private":
            status = self.statuses.get(chat["id"], {}).get(self.bot_user["id"])
            if status in ("left", "kicked"):
                kind = "supergroup chat" if chat["type"] == "supergroup" else "group chat"
                raise ApiError(403, f"Forbidden: bot was kicked from the {kind}" if status == "kicked"
                               else f"Forbidden: bot is not a member of the {kind}")
        return chat

    def _render(
        self, text: Any, parse_mode: str | None, entities: list[JSON] | None
    ) -> tuple[str, list[JSON]]:
        """Text as Telegram stores it: HTML parsed into entities, limits enforced."""
        if text is None or str(text).strip() == "":
            raise bad_request("message text is empty")
        text = str(text)
        if parse_mode and parse_mode.lower() == "html":
            text, parsed = parse_html(text, self.users)
        else:  # Markdown modes are not parsed: the text is kept verbatim
            parsed = list(entities or [])
        if not text.strip():
            raise bad_request("message text is empty")
        if len(text) > _MAX_TEXT:
            raise bad_request("message is too long")
        return text, parsed

    @staticmethod
    def _inline_markup(markup: Any) -> JSON | None:
        """Only inline keyboards live on a message; reply keyboards are not echoed back."""
        if not isinstance(markup, dict) or "inline_keyboard" not in markup:
            return None
        for row in markup["inline_keyboard"]:
            for button in row:
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= _MAX_CALLBACK_DATA:
                    raise bad_request("BUTTON_DATA_INVALID")
                if not button.get("text"):
                    raise bad_request("text buttons are unallowed in the inline keyboard")
        return markup

    def _check_flood(self, method: str, params: JSON) -> None:
        if method not in _FLOOD_METHODS or not self._flood:
            return
        chat_id = params.get("chat_id")
        with contextlib.suppress(TypeError, ValueError):
            chat_id = int(chat_id)  # type: ignore[arg-type]
        rule = self._flood.get(chat_id)  # type: ignore[arg-type]
        if rule is None:
            return
        now = time.monotonic()
        rule.stamps = [t for t in rule.stamps if now - t < 1.0]
        if len(rule.stamps) >= rule.per_second:
            wait = rule.retry_after or max(1, int(1.0 - (now - rule.stamps[0]) + 0.999))
            raise ApiError(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})
        rule.stamps.append(now)

    def _message_to_edit(self, params: JSON) -> JSON:
        chat = self._target_chat(params)
        message_id = self._require(params, "message_id")
        message = self.messages.get(chat["id"], {}).get(int(message_id))
        if message is None:
            raise bad_request("message to edit not found")
        if message.get("from", {}).get("id") != self.bot_user["id"]:
            raise bad_request("message can't be edited")
        return message

    # ---------------------------------------------------------------- method handlers

    def _true(self, params: JSON) -> bool:
        return True

    def _get_me(self, params: JSON) -> JSON:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": True,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _get_updates(self, params: JSON) -> list[JSON]:
        """Long polling as Telegram does it: confirm by offset, hold until data or timeout.

        A newer getUpdates terminates an older one still waiting with 409, which is also
        what releases the poll a stopping python-telegram-bot abandoned.
        """
        if self.webhook_url:
            raise ApiError(409, WEBHOOK_ACTIVE)
        offset = params.get("offset")
        if offset is not None:
            offset = int(offset)
            if offset < 0:
                self._updates = self._updates[offset:]
            else:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
        if params.get("allowed_updates") is not None:
            self._allowed_updates = list(params["allowed_updates"])
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = max(float(params.get("timeout") or 0), 0.0)
        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if generation != self._poll_generation:
                raise ApiError(409, GET_UPDATES_CONFLICT)
            wanted = set(self._allowed_updates)
            if wanted:
                self._updates = [u for u in self._updates if wanted & u.keys()]
            else:
                self._updates = [u for u in self._updates if not (_OPT_IN_UPDATES & u.keys())]
            if self._updates or self._closing:
                return self._updates[:limit]
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            await self._wait_change(remaining)

    async def _set_webhook(self, params: JSON) -> bool:
        url = str(params.get("url") or "")
        if not url:
            return await self._delete_webhook(params)
        if not url.startswith(("http://", "https://")):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if params.get("drop_pending_updates"):
            self._updates.clear()
        self.webhook_url = url
        self.webhook_secret = params.get("secret_token") or None
        await self._stop_pump()
        self._pump = asyncio.create_task(self._webhook_pump(), name="botapi-webhook-pump")
        return True

    async def _delete_webhook(self, params: JSON) -> bool:
        if params.get("drop_pending_updates"):
            self._updates.clear()
        self.webhook_url = ""
        self.webhook_secret = None
        await self._stop_pump()
        return True

    def _get_webhook_info(self, params: JSON) -> JSON:
        info: JSON = {
            "url": self.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }
        if self.webhook_url:
            info["max_connections"] = 40
            info["ip_address"] = "127.0.0.1"
        return info

    async def _stop_pump(self) -> None:
        """Cancel the webhook pump until it really ends.

        Why a loop: on Python 3.11 `asyncio.wait_for` swallows a cancel that
        arrives as its inner wait completes, and every request wakes the
        pump's wait, so a single cancel may be lost.
        """
        pump, self._pump = self._pump, None
        if pump is not None and pump is not asyncio.current_task():
            while not pump.done():
                pump.cancel()
                await asyncio.wait([pump], timeout=0.05)
            with contextlib.suppress(asyncio.CancelledError):
                await pump

    async def _webhook_pump(self) -> None:
        """Deliver queued updates to the webhook in order; retry with backoff on failure."""
        failures = 0
        async with ClientSession(timeout=ClientTimeout(total=10)) as session:
            while not self._closing:
                if not self._updates:
                    await self._wait_change(60)
                    continue
                update = self._updates[0]
                headers = (
                    {"X-Telegram-Bot-Api-Secret-Token": self.webhook_secret}
                    if self.webhook_secret
                    else {}
                )
                self.webhook_posting = update["update_id"]
                self._notify()
                try:
                    async with session.post(self.webhook_url, json=update, headers=headers) as r:
                        await r.read()
                        status = r.status
                except (ClientError, TimeoutError):
                    status = 0
                finally:
                    self.webhook_posting = None
                self.webhook_deliveries.append((update["update_id"], status))
                if 200 <= status < 300:
                    failures = 0
                    if self._updates and self._updates[0] is update:
                        self._updates.pop(0)
                    self._notify()
                else:
                    failures += 1
                    await asyncio.sleep(min(2.0, 0.05 * 2**failures))

    def _may_send(self, chat: JSON, what: str) -> None:
        if chat["id"] in self.muted:
            raise bad_request(f"not enough rights to send {what} to the chat")

    def _send_message(self, params: JSON) -> JSON:
        chat = self._target_chat(params)
        self._may_send(chat, "text messages")
        text, entities = self._render(
            params.get("text"), params.get("parse_mode"), params.get("entities")
        )
        markup = self._inline_markup(params.get("reply_markup"))
        message = self._new_message(chat, dict(self.bot_user), text=text, entities=entities)
        self._attach_reply(message, params)
        self._into_topic(chat, message, params.get("message_thread_id"))
        if markup:
            message["reply_markup"] = markup
        self._store(message)
        return message

    def _send_sticker(self, params: JSON) -> JSON:
        chat = self._target_chat(params)
        self._may_send(chat, "stickers")
        sticker = self._require(params, "sticker")
        file_id = sticker if isinstance(sticker, str) else str(sticker.get("filename", "upload"))
        markup = self._inline_markup(params.get("reply_markup"))
        message = self._new_message(chat, dict(self.bot_user), sticker=self._sticker(file_id))
        self._attach_reply(message, params)
        self._into_topic(chat, message, params.get("message_thread_id"))
        if markup:
            message["reply_markup"] = markup
        self._store(message)
        return message

    # ---------------------------------------------------------------- sticker sets

    def _sticker_file(self, value: Any, params: JSON) -> str:
        """A sticker given as a file id, or uploaded (``attach://<field>`` or the file itself):
        uploads get a new file id, and their bytes' size is checked (512 KB for a static sticker)."""
        if isinstance(value, str) and value.startswith("attach://"):
            value = params.get(value[len("attach://"):])
        if isinstance(value, dict):  # an uploaded file (see _read_params)
            if not value.get("size") or int(value["size"]) > 512 * 1024:
                raise bad_request("STICKER_PNG_NOPNG")
            return f"CAACAgIAAx{next(self._query_ids)}"
        if isinstance(value, str) and value:
            return value
        raise bad_request("STICKER_FILE_INVALID")

    def _input_sticker(self, raw: Any, params: JSON) -> JSON:
        if isinstance(raw, str):  # "sticker" is a string field elsewhere (sendSticker): here it is JSON
            with contextlib.suppress(ValueError):
                raw = json.loads(raw)
        if not isinstance(raw, dict):
            raise bad_request("STICKER_INVALID")
        emoji = raw.get("emoji_list")
        if not isinstance(emoji, list) or not 1 <= len(emoji) <= 20:
            raise bad_request("STICKER_EMOJI_INVALID")
        if raw.get("format") not in ("static", "animated", "video"):
            raise bad_request("STICKER_FORMAT_INVALID")
        return {**self._sticker(self._sticker_file(raw.get("sticker"), params)), "emoji": emoji[0]}

    def _set_owner(self, params: JSON) -> int:
        user_id = int(self._require(params, "user_id"))
        if user_id not in self.users:
            raise bad_request("USER_ID_INVALID")
        return user_id

    def _upload_sticker_file(self, params: JSON) -> JSON:
        self._set_owner(params)
        file_id = self._sticker_file(self._require(params, "sticker"), params)
        return {"file_id": file_id, "file_unique_id": f"AQAD{abs(hash(file_id)) % 10**8}"}

    def _create_new_sticker_set(self, params: JSON) -> bool:
        owner = self._set_owner(params)
        name = str(self._require(params, "name"))
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,63}", name) or "__" in name or \
                not name.lower().endswith(f"_by_{self.bot_user['username']}".lower()):
            raise bad_request("STICKERSET_INVALID")
        if name.lower() in self.sticker_sets:
            raise bad_request("sticker set name is already occupied")
        stickers = self._require(params, "stickers")
        if not isinstance(stickers, list) or not 1 <= len(stickers) <= 50:
            raise bad_request("STICKERS_INVALID")
        title = str(self._require(params, "title"))
        if not 1 <= len(title) <= 64:
            raise bad_request("STICKERSET_TITLE_INVALID")
        self.sticker_sets[name.lower()] = {
            "name": name, "title": title, "sticker_type": "regular", "owner": owner,
            "stickers": [{**self._input_sticker(s, params), "set_name": name} for s in stickers],
        }
        return True

    def _sticker_set(self, params: JSON) -> JSON:
        found = self.sticker_sets.get(str(self._require(params, "name")).lower())
        if found is None:
            raise bad_request("STICKERSET_INVALID")
        return found

    def _add_sticker_to_set(self, params: JSON) -> bool:
        owner = self._set_owner(params)
        found = self._sticker_set(params)
        if found["owner"] != owner:
            raise bad_request("STICKERSET_NOT_MODIFIED")
        if len(found["stickers"]) >= 120:
            raise bad_request("STICKERS_TOO_MUCH")
        found["stickers"].append({**self._input_sticker(self._require(params, "sticker"), params),
                                  "set_name": found["name"]})
        return True

    def _get_sticker_set(self, params: JSON) -> JSON:
        found = self._sticker_set(params)
        return {k: v for k, v in found.items() if k != "owner"}

    def _delete_sticker_set(self, params: JSON) -> bool:
        found = self._sticker_set(params)
        del self.sticker_sets[found["name"].lower()]
        return True

    def _attach_reply(self, message: JSON, params: JSON) -> None:
        reply = params.get("reply_parameters") or {}
        if not reply and params.get("reply_to_message_id"):
            reply = {"message_id": params["reply_to_message_id"]}
        if not reply:
            return
        chat_id = reply.get("chat_id", message["chat"]["id"])
        try:
            message["reply_to_message"] = self._quoted(int(chat_id), int(reply["message_id"]))
        except ApiError:
            if not reply.get("allow_sending_without_reply"):
                raise

    def _edit_message_text(self, params: JSON) -> JSON | bool:
        if params.get("inline_message_id"):
            text, entities = self._render(
                params.get("text"), params.get("parse_mode"), params.get("entities")
            )
            # A message a picked result posted: a sticker has no text to edit (as Telegram
            # says); a text is changed, so a test reads what the chat shows now.
            posted = self._inline_messages.get(str(params["inline_message_id"]))
            if posted is not None:
                if "text" not in posted:
                    raise bad_request("there is no text in the message to edit")
                posted["text"] = text
                posted.pop("entities", None)
                if entities:
                    posted["entities"] = entities
                self._set_markup(posted, self._inline_markup(params.get("reply_markup")))
                posted["edit_date"] = int(time.time())
            return True
        message = self._message_to_edit(params)
        if "text" not in message:
            raise bad_request("there is no text in the message to edit")
        text, entities = self._render(
            params.get("text"), params.get("parse_mode"), params.get("entities")
        )
        markup = self._inline_markup(params.get("reply_markup"))
        old = (message.get("text"), message.get("entities", []), message.get("reply_markup"))
        if old == (text, entities, markup):
            raise bad_request(NOT_MODIFIED.removeprefix("Bad Request: "))
        message["text"] = text
        message.pop("entities", None)
        if entities:
            message["entities"] = entities
        self._set_markup(message, markup)
        message["edit_date"] = int(time.time())
        return message

    def _edit_message_reply_markup(self, params: JSON) -> JSON | bool:
        if params.get("inline_message_id"):
            self._inline_markup(params.get("reply_markup"))
            return True
        message = self._message_to_edit(params)
        markup = self._inline_markup(params.get("reply_markup"))
        if message.get("reply_markup") == markup:
            raise bad_request(NOT_MODIFIED.removeprefix("Bad Request: "))
        self._set_markup(message, markup)
        message["edit_date"] = int(time.time())
        return message

    @staticmethod
    def _set_markup(message: JSON, markup: JSON | None) -> None:
        """An edit without reply_markup removes the keyboard, as on Telegram."""
        if markup:
            message["reply_markup"] = markup
        else:
            message.pop("reply_markup", None)

    def _delete_message(self, params: JSON) -> bool:
        chat = self._target_chat(params)
        message_id = int(self._require(params, "message_id"))
        if self.messages.get(chat["id"], {}).pop(message_id, None) is None:
            raise bad_request("message to delete not found")
        return True

    def _delete_messages(self, params: JSON) -> bool:
        chat = self._target_chat(params)
        for message_id in self._require(params, "message_ids"):
            self.messages.get(chat["id"], {}).pop(int(message_id), None)
        return True

    def _refuse_too_old(self, query_id: str) -> None:
        made = self._query_made.get(query_id)
        if made is not None and time.monotonic() - made > self.query_timeout:
            self.too_old.append(query_id)
            raise bad_request(QUERY_TOO_OLD.removeprefix("Bad Request: "))

    def _answer_callback_query(self, params: JSON) -> bool:
        query_id = str(self._require(params, "callback_query_id"))
        if query_id not in self._open_callback_queries:
            raise bad_request(QUERY_TOO_OLD.removeprefix("Bad Request: "))
        self._refuse_too_old(query_id)
        if len(str(params.get("text") or "")) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        self._open_callback_queries.discard(query_id)
        return True

    def _answer_inline_query(self, params: JSON) -> bool:
        query_id = str(self._require(params, "inline_query_id"))
        query = self._open_inline_queries.get(query_id)
        if query is None:
            raise bad_request(QUERY_TOO_OLD.removeprefix("Bad Request: "))
        self._refuse_too_old(query_id)
        results = params.get("results")
        if not isinstance(results, list):
            raise bad_request("results is empty" if results is None else "can't parse results")
        if len(results) > _MAX_INLINE_RESULTS:
            raise bad_request("RESULTS_TOO_MUCH")
        seen: set[str] = set()
        for result in results:
            result_id = str(result.get("id", ""))
            if not result_id or len(result_id.encode()) > 64:
                raise bad_request("RESULT_ID_INVALID")
            if result_id in seen:
                raise bad_request("RESULT_ID_DUPLICATE")
            seen.add(result_id)
            self._inline_markup(result.get("reply_markup"))
            content = result.get("input_message_content") or {}
            if "message_text" in content:
                self._render(
                    content["message_text"], content.get("parse_mode"), content.get("entities")
                )
        del self._open_inline_queries[query_id]
        self.inline_answers[query_id] = {
            "query": query,
            "results": results,
            "cache_time": params.get("cache_time", 300),
            "is_personal": bool(params.get("is_personal")),
            "next_offset": params.get("next_offset", ""),
        }
        self._last_inline_answer[query["from"]["id"]] = query_id
        return True

    @staticmethod
    def _scope_key(scope: JSON | None) -> str:
        return json.dumps(scope or {"type": "default"}, sort_keys=True)

    def _set_my_commands(self, params: JSON) -> bool:
        commands = self._require(params, "commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request("can't parse commands")
        for command in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", str(command.get("command", ""))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", ""))) <= 256:
                raise bad_request("command description is empty")
        code = str(params.get("language_code") or "")
        if code and not re.fullmatch(r"[a-z]{2}", code):  # the Bot API: a two-letter ISO 639-1 code
            raise bad_request("language code is invalid")
        key = (self._scope_key(params.get("scope")), code)
        self.commands[key] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    def _get_my_commands(self, params: JSON) -> list[JSON]:
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        return self.commands.get(key, [])

    def _delete_my_commands(self, params: JSON) -> bool:
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.commands.pop(key, None)
        return True

    def _member(self, chat_id: int, user_id: int) -> JSON:
        status = self.statuses.get(chat_id, {}).get(user_id, "member")
        user = self.bot_user if user_id == self.bot_user["id"] else self._user(user_id)
        member: JSON = {"status": status, "user": user}
        if status == "creator":
            member["is_anonymous"] = False
        elif status == "administrator":
            member.update(
                can_be_edited=False,
                is_anonymous=False,
                can_manage_chat=True,
                can_delete_messages=True,
                can_manage_video_chats=True,
                can_restrict_members=True,
                can_promote_members=False,
                can_change_info=True,
                can_invite_users=True,
                can_post_stories=False,
                can_edit_stories=False,
                can_delete_stories=False,
                can_pin_messages=True,
            )
        elif status == "kicked":
            member["until_date"] = 0
        elif status == "restricted":
            may = chat_id not in self.muted
            member.update(is_member=True, until_date=0, can_send_messages=may, can_send_audios=may,
                          can_send_documents=may, can_send_photos=may, can_send_videos=may,
                          can_send_video_notes=may, can_send_voice_notes=may, can_send_polls=may,
                          can_send_other_messages=may, can_add_web_page_previews=may, can_change_info=False,
                          can_invite_users=False, can_pin_messages=False, can_manage_topics=False,
                          can_edit_tag=False, can_react_to_messages=may)
        return member

    def _get_chat_member(self, params: JSON) -> JSON:
        chat = self._target_chat(params)
        user_id = int(self._require(params, "user_id"))
        return self._member(chat["id"], user_id)

    def _get_chat_administrators(self, params: JSON) -> list[JSON]:
        chat = self._target_chat(params)
        if chat["type"] == "private":
            raise bad_request("there are no administrators in the private chat")
        table = self.statuses.get(chat["id"], {})
        admins = [uid for uid, status in table.items() if status in ("creator", "administrator")]
        admins.sort(key=lambda uid: table[uid] != "creator")
        return [self._member(chat["id"], uid) for uid in admins]

    def _get_chat(self, params: JSON) -> JSON:
        chat = self._target_chat(params)
        return {
            **chat,
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    def _send_chat_action(self, params: JSON) -> bool:
        self._target_chat(params)
        self._require(params, "action")
        return True
