"""What every handler and job of one bot process shares.

Nothing here is game state: the service and store are the way to the
games; the admin cache, the status editor's memory and the private
notices waiting to go out are short-lived conveniences that another
process does without.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from unobot.adapters.startup import Persistence
from unobot.chat.service import ChatService
from unobot.chat.waker import Waker
from unobot.store import Store

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
#: (`_bound`), so they hold what is fresh: the chats and people of the last
#: minute, whatever the cap.
CACHE_SIZE = 4096


@dataclass(frozen=True)
class Options:
    """Timings; tests shorten them."""

    #: Seconds AI seats wait while a person could jump in, catch or say UNO.
    continue_delay: float = 3.0
    #: Seconds an unstarted lobby lives.
    lobby_seconds: float = 30 * 60.0
    #: Extra seconds after a turn timer runs out before the skip is sent.
    timer_grace: float = 0.3
    #: Send "you drew ..." to players who started the bot in private.
    private_notices: bool = True
    #: At start-up, re-plan the jobs of the games already in the store.
    replan_at_start: bool = True
    #: A job that found the store down tries again after this many seconds.
    store_retry: float = 5.0
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
    #: user id -> (expiry, chats of their recent games): saves a store read
    #: per inline query; a miss or a stale entry falls back to the store.
    game_chats: dict[str, tuple[float, list[str]]] = field(default_factory=dict)

    #: old chat id -> lock: a chat's move to a new id runs once at a time (migrations are rare).
    moving: dict[int, asyncio.Lock] = field(default_factory=dict)

    #: chat id -> (expiry, id of its running game): saves a store read per inline query.
    game_ids: dict[str, tuple[float, str]] = field(default_factory=dict)

    def cached_game(self, chat_id: str) -> str | None:
        hit = self.game_ids.get(chat_id)
        return hit[1] if hit is not None and hit[0] >= time.monotonic() else None

    def cache_game(self, chat_id: str, game_id: str, ttl: float = 30.0) -> None:
        _bound(self.game_ids)
        self.game_ids.pop(chat_id, None)
        self.game_ids[chat_id] = (time.monotonic() + ttl, game_id)

    #: user id -> the language their own texts (hand, private notices) are shown in,
    #: from their Telegram app, when unobot speaks it; learnt from their updates.
    user_langs: dict[str, str] = field(default_factory=dict)

    def learn_lang(self, user_id: str, lang: str | None) -> None:
        if lang:
            _bound(self.user_langs)
            self.user_langs.pop(user_id, None)
            self.user_langs[user_id] = lang

    #: user id -> (expiry, may the bot write to them in private)
    private_ok: dict[str, tuple[float, bool]] = field(default_factory=dict)

    def cached_private(self, user_id: str) -> bool | None:
        hit = self.private_ok.get(user_id)
        return hit[1] if hit is not None and hit[0] >= time.monotonic() else None

    def cache_private(self, user_id: str, ok: bool, ttl: float = 60.0) -> None:
        _bound(self.private_ok)
        self.private_ok.pop(user_id, None)
        self.private_ok[user_id] = (time.monotonic() + ttl, ok)

    def cached_chats(self, user_id: str) -> list[str] | None:
        hit = self.game_chats.get(user_id)
        if hit is None or hit[0] < time.monotonic():
            return None
        return hit[1]

    def cache_chats(self, user_id: str, chats: list[str], ttl: float = 10.0) -> None:
        _bound(self.game_chats)
        self.game_chats.pop(user_id, None)
        self.game_chats[user_id] = (time.monotonic() + ttl, list(chats))


def _bound(cache: dict[str, Any]) -> None:
    """Keep a cache within `CACHE_SIZE`: the oldest entries go first (dicts keep
    insertion order; an entry written again is moved to the end by its writer).
    In a cache of (expiry, value) entries, the expired ones at the front go
    too: written in order with one lifetime, the oldest expire first, so the
    cache holds only what is fresh (an entry written with a longer lifetime
    only stops the sweep early: nothing fresh is ever dropped by it)."""
    now = time.monotonic()
    while cache:
        first = next(iter(cache))
        entry = cache[first]
        if len(cache) >= CACHE_SIZE or (isinstance(entry, tuple) and entry[0] < now):
            del cache[first]
        else:
            break


def telegram_chat(chat: str) -> bool:
    """Telegram chat ids are integers; other adapters sharing the store use other ids."""
    return telegram_id(chat) is not None


def runtime(context: Any) -> Runtime:
    """The runtime of the application a handler or job runs in."""
    return context.bot_data[KEY]
