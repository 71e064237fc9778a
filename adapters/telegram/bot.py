"""The bot object: python-telegram-bot's ExtBot, with lean paths for the two hot calls.

Nearly every move costs one inline answer (the player's hand, ten-odd
results) and one edit of the status message. Through PTB's own methods,
measured, they cost more CPU than everything else a move does: each result
is a TelegramObject that `answer_inline_query` copies twice (to swap in
default values) and walks again in `to_dict`, and `edit_message_text`
builds the whole edited `Message` (entities, keyboard) from Telegram's
answer, which nobody here reads.

So `Article` is a result in its wire form from the start, and
`answer_articles` / `edit_quietly` post prebuilt JSON through ExtBot's
`_post`, the same path PTB's methods end in: the rate limiter, RetryAfter
handling, timeouts and error classes are all PTB's. Every other call takes
PTB's ordinary methods. `_post` is private: `tests/telegram/test_ptb_private.py`
pins the PTB versions it was checked with and its shape (why not the public
`do_api_request`: it is for endpoints PTB lacks, and warns on these two).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, NamedTuple, cast

from telegram import InlineKeyboardMarkup, InlineQueryResultsButton, Update
from telegram.error import BadRequest
from telegram.ext import ExtBot

from unobot.chat.bounded import BoundedCache
from unobot.chat.names import clip

from .guard import MAX_ID, clip16, split_place
from .limiter import POSTING
from .replies import ReplySender
from .transport import EDIT_GUARD, EditGuard

JSON = dict[str, Any]

log = logging.getLogger(__name__)

#: Telegram's limits: a message's text (UTF-16 units), results an answer, a result id's bytes.
MAX_TEXT = 4096
MAX_RESULTS = 50
MAX_RESULT_ID = 64
#: Titles and descriptions of results: no documented limit; long ones are only clutter.
MAX_TITLE = 256


#: How Telegram words a refused post in a chat where the bot may not write.
MUTED_REFUSALS = ("not enough rights to send", "have no rights to send", "chat_write_forbidden", "chat_restricted",
                  "need administrator rights in the channel")


def is_muted(exc: BaseException) -> bool:
    """Telegram refused a post because the bot may not send messages in that chat (`muted`)."""
    return isinstance(exc, BadRequest) and any(word in str(exc).lower() for word in MUTED_REFUSALS)


#: keyboard -> its wire form. Bounded: a game's "My cards" keyboard names its
#: chat, and chats keep coming; a finished game's leaves with it (`forget_wire`).
WIRE_FORMS: BoundedCache[InlineKeyboardMarkup, JSON] = BoundedCache(1024)


def markup_wire(markup: InlineKeyboardMarkup) -> JSON:
    """A keyboard's wire form; keyboards are immutable and shared, so computed once."""
    wire = WIRE_FORMS.get(markup)
    if wire is None:
        wire = markup.to_dict()
        WIRE_FORMS.put(markup, wire)
    return wire


def forget_wire(markup: InlineKeyboardMarkup) -> None:
    WIRE_FORMS.pop(markup)


class Article(NamedTuple):
    """An inline result that posts plain `text` (names need no escaping) with `markup` under it."""

    id: str
    title: str
    text: str
    markup: InlineKeyboardMarkup
    description: str | None = None
    #: Offered as this sticker (a card's picture) instead of a line of text.
    sticker: str | None = None
    #: A sticker result that, picked, posts `text` and not the sticker (a card not playable now).
    text_instead: bool = False

    def wire(self) -> JSON:
        if self.sticker:
            result: JSON = {"type": "sticker", "id": self.id, "sticker_file_id": self.sticker,
                            "reply_markup": markup_wire(self.markup)}
            if self.text_instead:
                result["input_message_content"] = {"message_text": clip16(self.text, MAX_TEXT)}
            return result
        out: JSON = {"type": "article", "id": self.id, "title": clip(self.title, MAX_TITLE),
                     "input_message_content": {"message_text": clip16(self.text, MAX_TEXT)},
                     "reply_markup": markup_wire(self.markup)}
        if self.description:
            out["description"] = clip(self.description, MAX_TITLE)
        return out


class UnoBot(ExtBot[Any]):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Replies to commands, sent by their own tasks (`replies`): on the bot, as a
        #: handler's `reply` reaches it from the message (`Message.get_bot`).
        self._replies = ReplySender()

        #: update_id of updates that could not be parsed, each logged once (the last 1,000).
        self._unparsed: BoundedCache[int, bool] = BoundedCache(1000)
        #: Called with a group's id when Telegram refuses a post there because the bot
        #: may not send messages (`muted.is_muted`); set by `build_application`.
        self._on_muted: Callable[[int], None] | None = None

    @property
    def replies(self) -> ReplySender:
        return self._replies

    def when_muted(self, callback: Callable[[int], None]) -> None:
        """Have `callback(chat_id)` called when a post is refused for want of the right to send."""
        self._on_muted = callback

    async def _post(self, endpoint: str, data: JSON | None = None, **kwargs: Any) -> Any:
        """Every call, with a forum topic's place (`guard.place`) turned back
        into its chat id and, for a post, the topic's `message_thread_id`:
        a game's messages stay in its topic, and nothing else in the adapter
        needs to know that a chat may have topics."""
        if data:
            chat = data.get("chat_id")
            if isinstance(chat, int) and not isinstance(chat, bool) and chat < -MAX_ID:
                chat_id, thread = split_place(chat)
                data = {**data, "chat_id": chat_id}
                if thread is not None and endpoint in POSTING and not endpoint.startswith("edit") \
                        and data.get("message_thread_id") is None:
                    data["message_thread_id"] = thread
        try:
            return await super()._post(endpoint, data, **kwargs)
        except BadRequest as exc:
            # Every post passes here: the first one a group refuses for want of the right to
            # send messages (an admin restricted the bot) tells `muted`, whoever sent it.
            chat = data.get("chat_id") if data else None
            if self._on_muted is not None and endpoint in POSTING and isinstance(chat, int) and chat < 0 \
                    and is_muted(exc):
                self._on_muted(chat)
            raise

    async def get_updates(self, offset: int | None = None, limit: int | None = None,
                          timeout: Any = None, allowed_updates: Sequence[str] | None = None,
                          **kwargs: Any) -> tuple[Update, ...]:
        """getUpdates, each update parsed on its own.

        Why: PTB parses a batch in one go, and one update it cannot parse (a
        field of a newer Bot API, a malformed value) fails the whole batch
        ("Received data was *not* processed!"), the valid updates with it; the
        updater then asks for the same batch again, and fails again. Here a
        bad update stands as an empty `Update` with its id (which the
        `guard.admit` handler turns away quietly), so the offset moves past it
        and every other update of the batch is handled. It is logged once."""
        data: JSON = {"timeout": timeout, "offset": offset, "limit": limit, "allowed_updates": allowed_updates}
        read_timeout = kwargs.pop("read_timeout", None)
        base = read_timeout if isinstance(read_timeout, (int, float)) else (self._request[0].read_timeout or 0)
        seconds = timeout.total_seconds() if isinstance(timeout, dt.timedelta) else (timeout or 0)
        result = cast("list[JSON]", await self._post("getUpdates", data, read_timeout=base + seconds, **kwargs))
        updates: list[Update] = []
        for raw in result or []:
            update: Update | None
            try:
                update = Update.de_json(raw, self)
            except Exception as exc:  # noqa: BLE001 - any failure to parse is this update's alone
                update = self._unparsable(raw, exc)
            if update is None:
                continue
            self.insert_callback_data(update)
            updates.append(update)
        return tuple(updates)

    def _unparsable(self, raw: object, exc: Exception) -> Update | None:
        update_id = raw.get("update_id") if isinstance(raw, dict) else None
        if not isinstance(update_id, int) or isinstance(update_id, bool):
            log.warning("an update without an id could not be parsed (%s): skipped", exc)
            return None
        if update_id not in self._unparsed:
            log.warning("update %s could not be parsed and is skipped (%s: %s); the rest of its batch is handled",
                        update_id, type(exc).__name__, exc)
            self._unparsed.put(update_id, True)
        return Update(update_id)

    async def answer_articles(self, inline_query_id: str, articles: list[Article], *, next_offset: str = "",
                              button: InlineQueryResultsButton | None = None) -> bool:
        """answerInlineQuery with personal, uncached results (a hand changes every move)."""
        # Telegram's limits, kept whatever the caller built: 50 results, ids of 64 bytes.
        fit = [a for a in articles if 0 < len(a.id.encode()) <= MAX_RESULT_ID][:MAX_RESULTS]
        data: JSON = {"inline_query_id": inline_query_id, "results": [a.wire() for a in fit],
                      "cache_time": 0, "is_personal": True}
        if next_offset:
            data["next_offset"] = next_offset
        if button is not None:
            data["button"] = button.to_dict()
        return bool(await self._post("answerInlineQuery", data))

    async def edit_quietly(self, chat_id: int, message_id: int, text: str, *, bold: int = 0,
                           markup: InlineKeyboardMarkup | None = None,
                           still_current: Callable[[], Awaitable[bool]] | None = None) -> None:
        """editMessageText, with the first `bold` UTF-16 units bold, not reading back the Message.

        `still_current`: asked before an edit the rate limiter held back goes
        out; if it says no, the edit is dropped with `Superseded`."""
        data: JSON = {"chat_id": chat_id, "message_id": message_id, "text": text}
        if bold:
            data["entities"] = [{"type": "bold", "offset": 0, "length": bold}]
        if markup is not None:
            data["reply_markup"] = markup_wire(markup)
        token = EDIT_GUARD.set(EditGuard(still_current) if still_current is not None else None)
        try:
            await self._post("editMessageText", data)
        finally:
            EDIT_GUARD.reset(token)


def uno_bot(context: Any) -> UnoBot:
    """The handler context's bot, typed as what `build_application` installs."""
    return cast(UnoBot, context.bot)
