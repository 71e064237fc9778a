"""Who is a chat admin, asked of Telegram and cached for a minute.

Why a cache at all: admin checks guard /stop, /kick, rule changes and
friends, and each check is a `getChatMember` round trip. Why only a minute:
admins change, and a demoted admin must lose their powers soon. The cache
is per process and holds nothing a game needs, so several bot processes
need not share it. What expired leaves it whenever it is written, so it
holds the checks of the last minute (at most `size`).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict

from telegram import Bot, Chat, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError

log = logging.getLogger(__name__)

ADMIN_STATUSES = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR})


class AdminCache:
    def __init__(self, ttl: float = 60.0, size: int = 4096) -> None:
        self.ttl = ttl
        self.size = size
        self._cache: OrderedDict[tuple[int, int], tuple[float, bool]] = OrderedDict()

    async def is_admin(self, bot: Bot, chat: Chat, user: User | None,
                       sender_chat: Chat | None = None) -> bool:
        """True for chat admins; in a private chat the user owns the chat.

        An anonymous admin posts as the group itself (`sender_chat` is the
        chat): only admins can do that, so they count as admins.
        """
        if chat.type == ChatType.PRIVATE:
            return True
        if sender_chat is not None and sender_chat.id == chat.id:
            return True
        if user is None:
            return False
        key = (chat.id, user.id)
        now = time.monotonic()
        hit = self._cache.get(key)
        if hit is not None and hit[0] > now:
            return hit[1]
        try:
            member = await bot.get_chat_member(chat.id, user.id)
        except TelegramError as exc:
            log.info("getChatMember %s/%s failed: %s", chat.id, user.id, exc)
            return False
        admin = member.status in ADMIN_STATUSES
        self._cache[key] = (now + self.ttl, admin)
        self._cache.move_to_end(key)
        # Oldest first, all with one lifetime: what expired is at the front.
        while self._cache and (len(self._cache) > self.size or next(iter(self._cache.values()))[0] < now):
            self._cache.popitem(last=False)
        return admin
