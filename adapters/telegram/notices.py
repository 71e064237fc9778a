"""What a person is told when handling their update failed (core's
`render.failure_text`), and the log line for it.

Why one place: the error handler and the button handler (which must
answer its callback query itself, in the same call) say the same thing, in
the chat's language when the store can still tell it, and whether the
store keeps anything on disk decides what an outage may promise. The
traceback goes to the log only.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from unobot.chat.i18n import Msg
from unobot.chat.render import REDELIVERED_OUTAGE
from unobot.chat.render import failure_text as said
from unobot.delivery import ask_again
from unobot.store import StoreDataError, StoreUnavailable

from .runtime import runtime

log = logging.getLogger("unobot.adapters.telegram.handlers")


async def failure_text(context: Any, chat_id: int | None, error: BaseException | None, what: object = None,
                       *, person_lang: str | None = None) -> tuple[str, str]:
    """Log `error` and return (what to tell the person, their chat's language).
    `person_lang`: the person's own (their app's), for an update of no chat (an inline query)."""
    lang = person_lang or "en"
    if chat_id is not None:
        with contextlib.suppress(Exception):
            service = runtime(context).service
            # a store that fails is not asked again (another timeout): the language last read
            lang = (service.known_language(str(chat_id)) if isinstance(error, StoreUnavailable)
                    else await service.language(str(chat_id)))
    if error is not None and (again := ask_again(error, changes=changes_something(what))) is not None:
        # Telegram sends it again (a webhook answered 503) until the store is back: said once.
        log.warning("store unavailable while handling an update, to be delivered again: %s", error)
        return ("" if again.told else Msg(REDELIVERED_OUTAGE).text(lang)), lang
    if isinstance(error, StoreUnavailable):
        log.warning("store unavailable while handling an update: %s", error)
        keeps_nothing = False  # the store keeps nothing on disk: no promise that nothing was lost
        with contextlib.suppress(Exception):
            keeps_nothing = runtime(context).service.keeps_nothing
        return said(error, lang, keeps_nothing=keeps_nothing), lang
    if isinstance(error, StoreDataError):
        log.error("unreadable data in the store: %s", error)
    else:
        log.error("update failed: %r", what, exc_info=error)
    return said(error or Exception(), lang), lang  # no error given: the plain apology


#: Commands that only read: met with the store down, they are answered "try again"
#: (an answer minutes later, when Telegram delivers them again, helps nobody).
READING_COMMANDS = frozenset({"help", "stats", "top", "me", "last"})


def changes_something(update: object) -> bool:
    """Whether `update` would change a game or a chat's setting: a button press, a
    card picked from the inline hand, a group's migration, a command other than a
    reading one. An inline query (a look at one's hand) and a reading command do not."""
    from telegram import Update

    if not isinstance(update, Update) or update.inline_query is not None:
        return False
    if update.callback_query is not None or update.chosen_inline_result is not None:
        return True
    message = update.effective_message
    if message is None:
        return update.my_chat_member is not None or update.chat_member is not None
    if message.migrate_to_chat_id or message.migrate_from_chat_id:
        return True
    text = message.text or ""
    if not text.startswith("/"):
        return False
    return text[1:].split(maxsplit=1)[0].partition("@")[0].lower() not in READING_COMMANDS if len(text) > 1 else False
