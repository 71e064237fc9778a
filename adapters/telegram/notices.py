"""What a person is told when handling their update failed.

Why one place: the error handler and the button handler (which must
answer its callback query itself, in the same call) say the same thing: a
store outage is "try again shortly, nothing was lost" (not that, when the
store keeps nothing on disk: a restart of it lost every game), damaged data is said
so, anything else is a short apology. All of it in the chat's language when
the store can still tell it; the traceback goes to the log only.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from unobot.chat.i18n import gettext_for
from unobot.chat.render import error_text, store_error_code
from unobot.store import StoreDataError, StoreUnavailable

from .runtime import runtime

log = logging.getLogger("unobot.adapters.telegram.handlers")


def forgetful_outage(lang: str) -> str:
    """A store outage, said without "nothing was lost": the store keeps nothing on disk."""
    _ = gettext_for(lang)
    return _("The game store is not reachable right now. Try again shortly. It keeps nothing "
             "on disk: if it restarted, the running games are gone.")


def _persistence(context: Any) -> Any:
    with contextlib.suppress(Exception):
        return runtime(context).persistence
    return None


async def failure_text(context: Any, chat_id: int | None, error: BaseException | None, what: object = None
                       ) -> tuple[str, str]:
    """Log `error` and return (what to tell the person, their chat's language)."""
    lang = "en"
    if chat_id is not None and not isinstance(error, StoreUnavailable):
        with contextlib.suppress(Exception):
            lang = await runtime(context).service.language(str(chat_id))
    if isinstance(error, StoreUnavailable):
        log.warning("store unavailable while handling an update: %s", error)
        persistence = _persistence(context)
        if persistence is not None and persistence.persistent is False:
            # A store that keeps nothing on disk may have lost every game: no promise.
            return forgetful_outage(lang), lang
        return error_text(store_error_code(error), lang), lang
    if isinstance(error, StoreDataError):
        log.error("unreadable data in the store: %s", error)
        return error_text("store_data", lang), lang
    log.error("update failed: %r", what, exc_info=error)
    _ = gettext_for(lang)
    return _("Something went wrong. Please try again."), lang
