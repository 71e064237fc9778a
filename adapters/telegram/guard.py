"""What comes in from Telegram, checked once: numbers, ids, names, whole updates.

Why one place: anything in an update may be forged or odd (a channel post
with no sender, an anonymous admin, `'²'` that isdigit calls a
digit and `int()` refuses, a chat id of 300 digits, a name of 500
characters with line breaks). Every handler reads numbers through
`parse_int`, names through core's `display_name`, and `admit` turns away, before
any handler runs, the updates no handler could serve.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update, User
from telegram.ext import ApplicationHandlerStop

from unobot.adapters import metrics
from unobot.chat.commands import Person
from unobot.chat.names import display_name  # names are core's: every front-end shows them

log = logging.getLogger(__name__)

#: Telegram ids fit in 52 bits; an id beyond this is forged.
MAX_ID = 2 ** 53
#: Number arguments longer than this are refused before `int()` sees them.
MAX_DIGITS = 20


def parse_int(text: object, lo: int | None = None, hi: int | None = None) -> int | None:
    """`text` as an int if `int()` takes it (and it is within `lo`..`hi`), else None."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        value = text
    else:
        if not isinstance(text, str) or len(text) > MAX_DIGITS:
            return None
        try:
            value = int(text)
        except ValueError:
            return None
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        return None
    return value


def telegram_id(text: object) -> int | None:
    """A Telegram chat or user id in its canonical decimal form (`-100123`, `42`),
    or a forum topic's place (`place`), else None."""
    if isinstance(text, str):
        if len(text) > PLACE_DIGITS:
            return None
        try:
            value = int(text)
        except ValueError:
            return None
        if text != str(value):  # "+5", " 5", "٣": not how Telegram writes an id
            return None
    elif isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        return None
    if value == 0 or value > MAX_ID or (value < -MAX_ID and split_place(value)[1] is None):
        return None
    return value


# -- forum topics -----------------------------------------------------------------------
#
# A game per topic: the chat id the chat service sees is the topic's *place*,
# one integer for (chat, topic), so everything keyed by a chat (the store's
# binding of a chat to its game, jobs, the status editor, inline result ids,
# "My cards") keys a topic's game with no second field. A place is the chat
# id itself outside a topic (General, a plain group, a private chat) and
# -(|chat| * TOPIC + thread) in a topic: beyond any id Telegram makes (2^53),
# so it can never be mistaken for one, and `UnoBot._post` turns it back into
# the chat id and `message_thread_id` before any call leaves the process.

#: Topic ids (message ids) are below this.
TOPIC = 10 ** 10
#: The largest place: a supergroup id (below 2^53) times TOPIC, plus a topic.
MAX_PLACE = MAX_ID * TOPIC + TOPIC
PLACE_DIGITS = len(str(MAX_PLACE)) + 1


def place(chat_id: int, thread: int | None) -> int:
    """The place of a chat's topic `thread` (the chat itself when None)."""
    if not thread or chat_id >= 0 or not 0 < thread < TOPIC:
        return chat_id
    return -(-chat_id * TOPIC + thread)


def split_place(value: int) -> tuple[int, int | None]:
    """(chat id, topic or None) of a place."""
    if value >= -MAX_ID:
        return value, None
    chat, thread = divmod(-value, TOPIC)
    if not thread or not 0 < chat <= MAX_ID:
        return value, None
    return -chat, thread


def chat_of(value: int | str) -> int:
    """The chat a place is in (settings, stats, admins are the chat's)."""
    return split_place(int(value))[0]


def thread_of(message: Any) -> int | None:
    """The forum topic a message is in (None: General, or no forum)."""
    if message is None or not getattr(message, "is_topic_message", False):
        return None
    thread = getattr(message, "message_thread_id", None)
    return thread if isinstance(thread, int) and 0 < thread < TOPIC else None


def where(update: Update) -> int:
    """The place an update comes from: its chat, and its forum topic if any."""
    chat = update.effective_chat
    assert chat is not None
    message = update.effective_message
    return place(chat.id, thread_of(message))


def is_user_id(text: object) -> bool:
    """A person's Telegram id (positive); AI seats and anonymous admins (the group's id) are not."""
    value = telegram_id(text)
    return value is not None and value > 0


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def clip16(text: str, limit: int) -> str:
    """At most `limit` UTF-16 units (how Telegram counts text lengths)."""
    if utf16_len(text) <= limit:
        return text
    out = text[:limit]
    while utf16_len(out) > limit - 1:
        out = out[:-1]
    return out + "…"


def person_of(user: User, admin: bool = False) -> Person:
    return Person(str(user.id), display_name(user.full_name, str(user.id)), None, admin)


def _ids(update: Update) -> list[Any]:
    out: list[Any] = []
    if update.effective_user is not None:
        out.append(update.effective_user.id)
    if update.effective_chat is not None:
        out.append(update.effective_chat.id)
    message = update.effective_message
    if message is not None:
        if message.sender_chat is not None:
            out.append(message.sender_chat.id)
        replied = message.reply_to_message
        if replied is not None and replied.from_user is not None:
            out.append(replied.from_user.id)
        out += [i for i in (message.migrate_to_chat_id, message.migrate_from_chat_id) if i]
    return out


def admissible(update: Update) -> bool:
    """True for an update some handler can serve: it names who sent it, and
    every id in it is an id Telegram could have made."""
    if not all(isinstance(i, int) and not isinstance(i, bool) and 0 < abs(i) < MAX_ID for i in _ids(update)):
        return False
    message = update.effective_message
    if update.effective_user is None:
        # A group's upgrade may come without a sender; nothing else is served without one.
        return message is not None and bool(message.migrate_to_chat_id or message.migrate_from_chat_id)
    if update.callback_query is not None and update.callback_query.data is not None:
        return len(update.callback_query.data.encode()) <= 64
    return True


async def admit(update: object, context: Any) -> None:
    """Runs before every handler: an update no handler could serve stops here, quietly."""
    if isinstance(update, Update) and admissible(update):
        metrics.UPDATES.labels("telegram", "admitted").inc()
        return
    metrics.UPDATES.labels("telegram", "ignored").inc()
    log.debug("ignored an update no handler can serve: %r", update)
    if isinstance(update, Update) and update.callback_query is not None:
        # A button press takes an answer, or its client keeps spinning.
        try:
            await update.callback_query.answer()
        except Exception as exc:  # noqa: BLE001 - an answer to junk may fail in any way
            log.debug("junk callback not answered: %s", exc)
    raise ApplicationHandlerStop
