"""Callback buttons: the lobby (Join, Start, Add AI of a level, Leave), Next round, and the
/rules keyboard.

Every callback query is answered, also when refused or when something
fails, so no client is left with a spinning button. Refusals are short
notices; a rule conflict is an alert, because the admin must act on it.
An answer (a toast) is shown to the presser alone: it is said in their
app's language (`language_code`) when unobot speaks it, else the chat's,
as Discord's ephemeral refusals are (issue 26); what the press changes in
the group stays in the chat's language.
"""

from __future__ import annotations

import itertools
import logging
from functools import partial
from typing import Any

from telegram import CallbackQuery, InlineKeyboardMarkup, Message, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from unobot.chat import commands as c
from unobot.chat import settings_menu as sm
from unobot.chat import settings_press as sp
from unobot.chat.actions import ai_levels
from unobot.chat.i18n import gettext_for, known
from unobot.chat.lobby import again_note, last_match
from unobot.chat.outcome import Outcome, reader_lang
from unobot.chat.render import error_text

from . import inline_handlers, keyboards, publish
from .bot import uno_bot
from .guard import clip16, is_user_id, person_of, utf16_len, where
from .notices import failure_text
from .opening import open_lobby
from .reply import reply_to
from .runtime import runtime
from .status import Status
from .texts import options_text, rules_text

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE
#: The longest answer Telegram shows for a button press (a toast or an alert).
ANSWER_MAX = 200


async def rules_view(context: Context, chat_id: int, show: sm.Show | None = None) -> tuple[str, InlineKeyboardMarkup]:
    """The /rules message: the rules (a page of them), or one rule's options."""
    settings = await runtime(context).service.settings(str(chat_id))
    m = keyboards.menu(settings, settings["lang"])
    if show is not None and show.view in (sm.RULE, sm.OPTION):
        return options_text(m, show.rule), keyboards.options_keyboard(m, show.rule)
    page = show.page if show is not None and show.view == sm.RULES else 0
    variants = show.page if show is not None and show.view == sm.VARIANTS else 0
    return rules_text(m), keyboards.rules_keyboard(m, page, variants)


async def refresh_lobby(context: Context, chat_id: int, outcome: Outcome | None = None) -> None:
    """Settings reach a lobby that has not started: show it with them, and
    the lobbies of the forum's other topics that took them (`outcome.followers`)."""
    table = await runtime(context).service.lobby(str(chat_id))
    if table is not None:
        await publish.show(context, chat_id, table)
    for follower in outcome.followers if outcome is not None else []:
        await publish.show(context, int(follower.chat_id), follower)


_GAME_COMMANDS: dict[str, Any] = {
    keyboards.JOIN: (c.Join, False),
    keyboards.START: (c.Start, True),
    keyboards.ADD_AI: (c.AddAI, True),
    keyboards.LEAVE: (c.Leave, False),
    keyboards.NEXT_ROUND: (c.NextRound, True),
    **{keyboards.add_ai(level): (partial(c.AddAI, level=level), True) for level in ai_levels()},
}


async def on_button(update: Update, context: Context) -> None:
    query = update.callback_query
    assert query is not None
    text: str | None = None
    alert = False
    reader = known(query.from_user.language_code)
    try:
        text, alert = await _press(update, context)
    except Exception as exc:  # answered here: a callback query takes one answer only
        chat = update.effective_chat
        # The presser's language when known (no store read needed), else the chat's.
        where_from = chat.id if chat is not None and reader is None else None
        text, _lang = await failure_text(context, where_from, exc, update, person_lang=reader)
    finally:
        await answer_press(query, text, alert)


async def answer_press(query: CallbackQuery, text: str | None, alert: bool = False) -> None:
    """Answer a press with `text` (none: just stop the spinner).

    A press's answer shows 200 characters (UTF-16 units, as Telegram counts:
    an emoji is two): a longer one (which rules clash, and how to fix it)
    would lose its end, so it is said in the chat under the button's message
    instead, whole (paged if need be), and the press answered without text.
    Only a button under a message the bot cannot reply to (an inline one,
    under a picked card) has its answer shortened, with "…"."""
    if text and utf16_len(text) > ANSWER_MAX and isinstance(query.message, Message):
        reply_to(query.message, text)
        text, alert = None, False
    try:
        await query.answer(clip16(text, ANSWER_MAX) if text else None, show_alert=alert)
    except TelegramError as exc:
        log.info("callback answer failed: %s", exc)


async def _press(update: Update, context: Context) -> tuple[str | None, bool]:
    query = update.callback_query
    chat = update.effective_chat
    assert query is not None
    if chat is None:
        return None, False
    rt = runtime(context)
    data = query.data or ""
    user = query.from_user
    reader = known(user.language_code)  # the answer is the presser's alone: their language when known
    match = keyboards.again_match(data)
    if match is not None:
        return await _again(update, context, match)
    game_command = _GAME_COMMANDS.get(data)
    if game_command is None and data.startswith(keyboards.REMOVE_AI) and len(data) > len(keyboards.REMOVE_AI):
        game_command = (partial(c.Kick, target=data[len(keyboards.REMOVE_AI):]), True)
    if game_command is not None:
        # Game buttons act on the chat's current game: only the message that
        # shows it may carry them (an old lobby or round message may not).
        here = where(update)  # the game of the button's forum topic, if any
        table = await rt.service.table(str(here))
        status = table.adapter.get("status") if table is not None else None
        if table is not None and status and query.message is not None and query.message.message_id != int(status):
            _ = gettext_for(reader_lang(reader, table, table.lang))
            return _("That button belongs to an older message."), False
        factory, needs_admin = game_command
        admin = await rt.admins.is_admin(context.bot, chat, user) if needs_admin else False
        person = person_of(user, admin)
        outcome = await rt.service.handle(str(here), person, factory())
        if not outcome.ok:
            return outcome.refusal(reader or await _chat_lang(rt, here, outcome)), False
        if outcome.changed or outcome.repeated:  # repeated: sent again, shown as it is
            await publish.after(context, here, outcome)
        if outcome.repeated:
            return None, False
        if data == keyboards.JOIN:
            await inline_handlers.remember_player(context, user.id, here)
            _ = gettext_for(reader or await _chat_lang(rt, here, outcome))
            return _("You joined."), False
        return None, False
    lang = reader or await rt.service.language(str(chat.id))
    if not data.startswith(keyboards.SETTINGS):
        # No button of ours carries it (forged, or a button of another bot): said, as Discord says it.
        return error_text("bad_move", lang), False
    # The settings keyboard is the admins': anyone else may look, not press.
    if not await rt.admins.is_admin(context.bot, chat, user):
        return error_text("not_admin", lang), False
    pressed = await sp.press(rt.service, str(where(update)), person_of(user, True), data[len(keyboards.SETTINGS):],
                             lang=lang, size=keyboards.PAGE)
    if pressed.show is None:
        return pressed.refusal, pressed.conflict
    text, markup = await rules_view(context, chat.id, pressed.show)
    _edit_view(context, chat.id, query.message, text, markup)
    if pressed.outcome is None:  # a view: a page, a rule's options, back
        return None, False
    await refresh_lobby(context, where(update), pressed.outcome)  # settings are the chat's: every topic's lobby
    return pressed.note(reader or (pressed.outcome.settings or {}).get("lang", "en")), False


async def _again(update: Update, context: Context, match: str) -> tuple[str | None, bool]:
    """"Play again" under a finished match (`match`: the one the button belongs to):
    core's `c.Again` (a lobby seated as that match, its variant), posted as /new posts
    one (the game's status message from now on, at the bottom of the group or topic).
    Any message's button may ask (the match's is no table's status any more); a later
    press is the lobby the first opened: nothing posted, the presser seated or told why
    not (core's `again_note`); a game under way is refused as /new is."""
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    rt = runtime(context)
    here = where(update)
    before = await last_match(rt.service, str(here))  # the match's title ("group · topic"), to keep
    person = person_of(user, False)
    outcome = await rt.service.handle(str(here), person, c.Again(match=match))
    reader = known(user.language_code)
    if not outcome.ok:
        return outcome.refusal(reader or await _chat_lang(rt, here, outcome)), False
    if outcome.table is None:
        return None, False
    if outcome.repeated:  # Telegram sent this press again: its lobby is shown as it is, nothing said
        await publish.show(context, here, outcome.table)
        return None, False
    if outcome.table.creator != person.id or not outcome.changed:  # the lobby someone else opened
        if outcome.changed:  # seated there now, as a Join seats
            await publish.after(context, here, outcome)
            await inline_handlers.remember_player(context, user.id, here)
        return again_note(outcome, person.id, reader or outcome.table.lang), False
    chat = update.effective_chat
    title = str(before.adapter.get("title") or "") if before is not None else ""
    title = title or (chat.title or "" if chat is not None else "")
    await open_lobby(context, here, title, person, outcome)
    for seat in outcome.table.seats:  # seated without /join: their inline queries find this game
        if not seat.is_ai and is_user_id(seat.id):  # int()'s reading: "²" passes isdigit, not int
            await inline_handlers.remember_player(context, int(seat.id), here)
    return None, False


async def _chat_lang(rt: Any, here: int, outcome: Any) -> str:
    """The chat's language, for a presser whose own unobot does not speak."""
    return outcome.table.lang if outcome.table is not None else await rt.service.language(str(here))


#: Orders the /rules views of this process: each is numbered when its
#: settings were just read, so a higher number shows newer settings.
_views = itertools.count(1)


def _edit_view(context: Context, chat_id: int, message: Any, text: str, markup: InlineKeyboardMarkup) -> None:
    """Show the view on the /rules message: queued for the status editor's
    worker (the group's budget paces it, not this handler, whose button's
    answer goes out at once); a newer view queued meanwhile replaces it.
    Call it right after reading the settings, with no await between."""
    if message is None:
        return
    runtime(context).status.submit(uno_bot(context), chat_id, message.message_id, next(_views),
                                   Status(text, markup, html=True))
