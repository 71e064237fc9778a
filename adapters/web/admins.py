"""Who is an admin of the table a page shows, per kind of table.

Why the web table asks at all: the service lets a chat's admins start
someone else's lobby, stop a game, skip, and change the chat's settings
(`Person.is_admin`, core/chat/settings.py); a page's person was never an
admin, so none of that could be done from the page. Who is one:

- a **browser-only table** (`web....`): the person who made it with
  `POST /api/new`; their person id is kept in the chat's settings
  (`CREATOR_KEY`) when the table is made, and every page's person is
  compared with it.
- a **Telegram chat**, opened as a Mini App (the person is proved by
  `initData`): the group's administrators, asked of the Bot API
  (`getChatMember`, through the Telegram adapter's own `AdminCache`, so
  `unobot telegram` with the page inside shares the bot's cache). In a
  private chat only its owner is. The answer is kept `TTL` seconds; a Bot
  API that fails or takes longer than the web config's `admin_timeout`
  means "not admin" (the service then refuses with its own words), and a
  failure is kept a shorter time, so a page never hangs on Telegram. A
  move (`act`) does not wait at all: it takes the kept answer, else the
  page's last one, while the question is asked again aside.
- a Discord member's `/uno table` link: an admin when the member could
  manage the server when they asked (the flag is signed into the link,
  `links.player_token(admin=True)`, and lasts as long as the link: the page
  has no way to ask Discord again).
- anything else (the console's player link): not an admin.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from unobot.chat.bounded import BoundedCache

log = logging.getLogger(__name__)

#: (chat, person id) -> is that person an admin of that Telegram chat.
AdminCheck = Callable[[str, str], Awaitable[bool]]
#: The chat setting that names a browser table's creator (its admin).
CREATOR_KEY = "web_admin"
#: Seconds an answer of Telegram's is kept; an answer that did not come, `FAILED_TTL`.
TTL = 60.0
FAILED_TTL = 10.0


def telegram_check(bot: Any, cache: Any = None) -> AdminCheck:
    """An AdminCheck asking Telegram with `bot` (python-telegram-bot's `Bot`)
    through the Telegram adapter's `AdminCache` (`cache`, else a new one)."""
    from telegram import Chat, User

    from unobot.adapters.telegram.admins import AdminCache
    from unobot.adapters.telegram.guard import chat_of

    admins = cache if cache is not None else AdminCache(ttl=TTL)

    async def check(place: str, person: str) -> bool:
        try:
            chat_id, user_id = chat_of(place), int(person)
        except ValueError:
            return False
        if chat_id > 0:  # a private chat: its owner alone (a forwarded link is someone else's)
            return chat_id == user_id
        if not getattr(bot, "_bot_initialized", True):
            await bot.initialize()
        chat = Chat(chat_id, Chat.SUPERGROUP)
        user = User(user_id, str(user_id), is_bot=False)
        return bool(await admins.is_admin(bot, chat, user))

    return check


def telegram_bot(token: str, base_url: str | None = None, timeout: float = 3.0) -> Any:
    """A Bot API client for a web process without a bot of its own (`unobot web`)."""
    from telegram import Bot
    from telegram.request import HTTPXRequest

    request = HTTPXRequest(connect_timeout=timeout, read_timeout=timeout, write_timeout=timeout,
                           pool_timeout=timeout)
    return Bot(token, base_url=base_url or "https://api.telegram.org/bot", request=request)


class Admins:
    """The web table's answer to "is this person an admin here", kept a short while."""

    def __init__(self, check: AdminCheck | None, timeout: float = 3.0, size: int = 4096) -> None:
        self.check = check
        self.timeout = timeout
        self.cache: BoundedCache[tuple[str, str], bool] = BoundedCache(size, TTL)
        #: Questions being asked now (one at a time per person and chat).
        self.asking: dict[tuple[str, str], asyncio.Task[bool]] = {}

    def known(self, chat: str, person: str, otherwise: bool) -> bool:
        """The kept answer, without waiting: a move is never held up by Telegram. An answer
        no longer kept is asked again in the background, and `otherwise` (the page's last) stands."""
        hit = self.cache.get((chat, person))
        if hit is not None:
            return hit
        if self.check is not None:
            self._ask(chat, person)
        return otherwise

    def _ask(self, chat: str, person: str) -> asyncio.Task[bool]:
        key = (chat, person)
        task = self.asking.get(key)
        if task is None:
            task = self.asking[key] = asyncio.ensure_future(self._answer(chat, person))
            task.add_done_callback(lambda _t: self.asking.pop(key, None))
        return task

    async def telegram(self, chat: str, person: str) -> bool:
        """Whether `person` administers the Telegram chat `chat` (False when it cannot be known in time)."""
        if self.check is None:
            return False
        hit = self.cache.get((chat, person))
        if hit is not None:
            return hit
        return await asyncio.shield(self._ask(chat, person))

    async def _answer(self, chat: str, person: str) -> bool:
        assert self.check is not None
        key = (chat, person)
        try:
            answer = await asyncio.wait_for(self.check(chat, person), self.timeout)
        except Exception as exc:  # down, slow, or refusing: not an admin for now
            log.info("chat %s: could not ask whether %s is an admin: %r", chat, person, exc)
            self.cache.put(key, False, FAILED_TTL)
            return False
        self.cache.put(key, answer)
        return answer
