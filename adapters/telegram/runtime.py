"""What every handler and job of one bot process shares.

Nothing here is game state: the service and store are the way to the
games; the admin cache, the status editor's memory and the private
notices waiting to go out are short-lived conveniences that another
process does without.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from unobot.adapters.store_factory import Persistence
from unobot.chat.bounded import BoundedCache
from unobot.chat.keyed_locks import KeyedLocks
from unobot.chat.seat_finder import SeatFinder
from unobot.chat.service import ChatService
from unobot.chat.wake import Pacing
from unobot.chat.waker import Waker
from unobot.store import Store

from . import users
from .admins import AdminCache
from .guard import telegram_id
from .outbox import NoticeSender
from .scheduler import Scheduler
from .status import StatusEditor
from .stickers import StickerMap

KEY = "unobot"

#: The most entries each of the runtime's per-chat and per-person caches holds.
#: Each saves one store read while it is fresh (10 to 60 s); a process serves
#: far fewer chats than this within that time, so a larger cap only held
#: stale entries: with 20,000 each, memory grew for the first 20,000 chats a
#: process met (issue 25's soak: ~29 MB per 1,000 games, not levelling off).
#: The caches with an expiry also drop what expired whenever they are written
#: (core's `BoundedCache`), so they hold what is fresh: the chats and people of
#: the last minute, whatever the cap.
CACHE_SIZE = 4096
#: Seconds a group found muted is not looked at again (`muted.REMEMBER`).
MUTED_FOR = 300.0


@dataclass(frozen=True)
class Options(Pacing):
    """Timings; tests shorten them. The waits of a table (AI pause, timer
    grace, lobby life, a retry through a store outage) are core's `Pacing`."""

    #: Send "you drew ..." to players who started the bot in private.
    private_notices: bool = True
    #: At start-up, re-plan the jobs of the games already in the store.
    replan_at_start: bool = True
    #: The Telegram user who owns the card sticker sets; None: the hand as text.
    sticker_owner: int | None = None


@dataclass
class Runtime:
    service: ChatService
    store: Store
    options: Options = field(default_factory=Options)
    admins: AdminCache = field(default_factory=AdminCache)
    status: StatusEditor = field(default_factory=StatusEditor)
    #: Private notices, sent by their own tasks (no handler waits for them).
    notices: NoticeSender = field(default_factory=NoticeSender)
    bot_username: str = ""
    #: Whether the store keeps games across its own restart (None: not asked, or not known).
    persistence: Persistence | None = None
    #: Plans the bot's own jobs on the service's clock (None: no job queue).
    scheduler: Scheduler | None = None
    #: Core's keeper of each table's wake plan, on `scheduler` (None without one).
    waker: Waker | None = None
    #: The card stickers, once made or read from the store (None: the hand as text).
    stickers: StickerMap | None = None
    #: old chat id -> its lock: a chat's move to a new
    #: id runs once at a time; kept only while in use (core's `KeyedLocks`).
    moving: KeyedLocks[int] = field(default_factory=KeyedLocks)

    # Each cache saves a store read while it is fresh (see `CACHE_SIZE`).
    #: user id -> the language their own texts (hand, private notices) are shown in,
    #: from their Telegram app, when unobot speaks it; learnt from their updates.
    user_langs: BoundedCache[str, str] = field(default_factory=lambda: user_langs())
    #: user id -> may the bot write to them in private.
    private_ok: BoundedCache[str, bool] = field(default_factory=lambda: BoundedCache(CACHE_SIZE, 60.0))

    #: group id -> the bot may not post there (`muted`): its games were stopped already.
    muted: BoundedCache[int, bool] = field(default_factory=lambda: BoundedCache(CACHE_SIZE, MUTED_FOR))
    #: Which table an inline query is about (core's), with its own caches:
    #: each chat's running game id (30 s), each user's recent game chats (10 s).
    finder: SeatFinder = field(init=False)

    def __post_init__(self) -> None:
        self.finder = SeatFinder(self.service, functools.partial(users.recent_games, self.store), size=CACHE_SIZE)

    def learn_lang(self, user_id: str, lang: str | None) -> None:
        if lang:
            self.user_langs.put(user_id, lang)

    def private_lang(self, chat_id: str) -> str | None:
        """`private_lang` over this runtime's languages."""
        return private_lang(self.user_langs, chat_id)


def user_langs() -> BoundedCache[str, str]:
    """Where the people's app languages are kept (`Runtime.user_langs`): made
    before the service, whose `reader_lang` reads it (`private_lang`)."""
    return BoundedCache(CACHE_SIZE)


def private_lang(langs: BoundedCache[str, str], chat_id: str) -> str | None:
    """A private chat's language while it has set none (core's
    `ChatService(reader_lang=...)`): its one person's app language, learnt
    from the update being handled (a private chat's id is its user's).
    Groups and topics (negative ids) have many readers: None."""
    value = telegram_id(chat_id)
    return langs.get(chat_id) if value is not None and value > 0 else None


def telegram_chat(chat: str) -> bool:
    """Telegram chat ids are integers; other adapters sharing the store use other ids."""
    return telegram_id(chat) is not None


def runtime(context: Any) -> Runtime:
    """The runtime of the application a handler or job runs in."""
    return context.bot_data[KEY]
