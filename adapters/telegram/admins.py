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

from telegram import Bot, Chat, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError

from unobot.chat.bounded import BoundedCache

log = logging.getLogger(__name__)

ADMIN_STATUSES = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR})


class AdminCache:
    def __init__(self, ttl: float = 60.0, size: int = 4096) -> None:
        #: (chat id, user id) -> is an admin.
        self._cache: BoundedCache[tuple[int, int], bool] = BoundedCache(size, ttl)

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
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        try:
            member = await bot.get_chat_member(chat.id, user.id)
        except TelegramError as exc:
            log.info("getChatMember %s/%s failed: %s", chat.id, user.id, exc)
            return False
        admin = member.status in ADMIN_STATUSES
        self._cache.put(key, admin)
        return admin
