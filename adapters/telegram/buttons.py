"""Callback buttons: the lobby (Join, Start, Add AI), Next round, and the
/rules keyboard.

Every callback query is answered, also when refused or when something
fails, so no client is left with a spinning button. Refusals are short
notices; a rule conflict is an alert, because the admin must act on it.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.table import LOBBY

from . import flow, keyboards, play
from .guard import parse_int, person_of
from .notices import failure_text
from .runtime import runtime
from .status import is_not_modified
from .texts import rules_text

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE


async def rules_view(context: Context, chat_id: int) -> tuple[str, InlineKeyboardMarkup]:
    settings = await runtime(context).service.settings(str(chat_id))
    lang = settings["lang"]
    text, enabled = rules_text(settings, lang)
    return text, keyboards.rules_keyboard(settings["variant"], enabled, int(settings.get("timer") or 0), lang)


async def refresh_lobby(context: Context, chat_id: int) -> None:
    """Settings reach a lobby that has not started: show it with them."""
    table = await runtime(context).service.table(str(chat_id))
    if table is not None and table.phase == LOBBY:
        await flow.show(context, chat_id, table)


def _settings_command(data: str) -> c.Command | None:
    if data.startswith(keyboards.RULE_ON):
        return c.SetRule(rule=data[len(keyboards.RULE_ON):], enabled=True)
    if data.startswith(keyboards.RULE_OFF):
        return c.SetRule(rule=data[len(keyboards.RULE_OFF):], enabled=False)
    if data.startswith(keyboards.VARIANT):
        return c.SetVariant(name=data[len(keyboards.VARIANT):])
    if data.startswith(keyboards.TIMER):
        seconds = parse_int(data[len(keyboards.TIMER):], 0)
        return c.SetTimer(seconds=seconds) if seconds is not None else None
    if data.startswith(keyboards.LANGUAGE):
        return c.SetLanguage(lang=data[len(keyboards.LANGUAGE):])
    if data == keyboards.RESET:
        return c.ResetRules()
    return None


_GAME_COMMANDS: dict[str, Any] = {
    keyboards.JOIN: (c.Join, False),
    keyboards.START: (c.Start, True),
    keyboards.ADD_AI: (c.AddAI, True),
    keyboards.NEXT_ROUND: (c.NextRound, True),
}


async def on_button(update: Update, context: Context) -> None:
    query = update.callback_query
    assert query is not None
    text: str | None = None
    alert = False
    try:
        text, alert = await _press(update, context)
    except Exception as exc:  # answered here: a callback query takes one answer only
        chat = update.effective_chat
        text, _lang = await failure_text(context, chat.id if chat is not None else None, exc, update)
    finally:
        try:
            await query.answer(text[:200] if text else None, show_alert=alert)
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
    if data in _GAME_COMMANDS:
        # Game buttons act on the chat's current game: only the message that
        # shows it may carry them (an old lobby or round message may not).
        table = await rt.service.table(str(chat.id))
        status = table.adapter.get("status") if table is not None else None
        if table is not None and status and query.message is not None and query.message.message_id != int(status):
            _ = gettext_for(table.lang)
            return _("That button belongs to an older message."), False
        factory, needs_admin = _GAME_COMMANDS[data]
        admin = await rt.admins.is_admin(context.bot, chat, user) if needs_admin else False
        person = person_of(user, admin)
        outcome = await rt.service.handle(str(chat.id), person, factory())
        if not outcome.ok:
            return outcome.error, False
        if outcome.changed:
            await flow.after(context, chat.id, outcome)
        if data == keyboards.JOIN:
            await play.remember_player(context, user.id, chat.id)
            lang = outcome.table.lang if outcome.table is not None else "en"
            _ = gettext_for(lang)
            return _("You joined."), False
        return None, False
    command = _settings_command(data)
    if command is None:
        return None, False
    admin = await rt.admins.is_admin(context.bot, chat, user)
    person = person_of(user, admin)
    outcome = await rt.service.handle(str(chat.id), person, command)
    if not outcome.ok:
        return outcome.error, outcome.code == "rule_conflict"
    text, markup = await rules_view(context, chat.id)
    message = query.message
    if message is not None:
        try:
            await context.bot.edit_message_text(text, chat_id=chat.id, message_id=message.message_id,
                                                parse_mode=ParseMode.HTML, reply_markup=markup)
        except BadRequest as exc:
            if not is_not_modified(exc):
                log.info("rules message not edited: %s", exc)
    await refresh_lobby(context, chat.id)
    lang = (outcome.settings or {}).get("lang", "en")
    _ = gettext_for(lang)
    return _("Saved. It applies from the next game."), False
