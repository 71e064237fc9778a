"""Callback buttons: the lobby (Join, Start, Add AI), Next round, and the
/rules keyboard.

Every callback query is answered, also when refused or when something
fails, so no client is left with a spinning button. Refusals are short
notices; a rule conflict is an alert, because the admin must act on it.
"""

from __future__ import annotations

import itertools
import logging
from typing import Any

from telegram import InlineKeyboardMarkup, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.option_values import decode_value
from unobot.chat.render import error_text
from unobot.chat.table import LOBBY
from unobot.registry import available_rules
from unobot.rule import Rule, option_specs

from . import inline_handlers, keyboards, publish
from .bot import uno_bot
from .guard import parse_int, person_of, where
from .notices import failure_text
from .runtime import runtime
from .status import Status
from .texts import options_text, rule_values, rules_text

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
        await publish.show(context, chat_id, table)


async def options_view(context: Context, chat_id: int, cls: type[Rule]) -> tuple[str, InlineKeyboardMarkup]:
    settings = await runtime(context).service.settings(str(chat_id))
    lang = settings["lang"]
    values = rule_values(settings, cls.name)
    return options_text(cls, values, lang), keyboards.options_keyboard(cls, values, lang)


def _option_command(data: str) -> c.Command | None:
    """``r:s:<rule key>:<option index>:<value>``, checked against the rule's options."""
    parts = data[len(keyboards.SET_OPTION):].split(":")
    if len(parts) != 3:
        return None
    cls = keyboards.rule_by_key(parts[0])
    specs = option_specs(cls) if cls is not None else []
    index = parse_int(parts[1], 0, len(specs) - 1) if specs else None
    if cls is None or index is None:
        return None
    ok, value = decode_value(specs[index], parts[2])
    return c.SetRule(rule=cls.name, option=specs[index].name, value=value) if ok else None


def _settings_command(data: str) -> c.Command | None:
    if data.startswith(keyboards.SET_OPTION):
        return _option_command(data)
    if data.startswith(keyboards.RULE_ON):
        return c.SetRule(rule=keyboards.rule_named(data[len(keyboards.RULE_ON):]), enabled=True)
    if data.startswith(keyboards.RULE_OFF):
        return c.SetRule(rule=keyboards.rule_named(data[len(keyboards.RULE_OFF):]), enabled=False)
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
        here = where(update)  # the game of the button's forum topic, if any
        table = await rt.service.table(str(here))
        status = table.adapter.get("status") if table is not None else None
        if table is not None and status and query.message is not None and query.message.message_id != int(status):
            _ = gettext_for(table.lang)
            return _("That button belongs to an older message."), False
        factory, needs_admin = _GAME_COMMANDS[data]
        admin = await rt.admins.is_admin(context.bot, chat, user) if needs_admin else False
        person = person_of(user, admin)
        outcome = await rt.service.handle(str(here), person, factory())
        if not outcome.ok:
            return outcome.error, False
        if outcome.changed:
            await publish.after(context, here, outcome)
        if data == keyboards.JOIN:
            await inline_handlers.remember_player(context, user.id, here)
            lang = outcome.table.lang if outcome.table is not None else "en"
            _ = gettext_for(lang)
            return _("You joined."), False
        return None, False
    if data.startswith(keyboards.OPTIONS) or data == keyboards.BACK:
        return await _switch_view(update, context, data)
    command = _settings_command(data)
    if command is None:
        return None, False
    admin = await rt.admins.is_admin(context.bot, chat, user)
    person = person_of(user, admin)
    outcome = await rt.service.handle(str(chat.id), person, command)
    if not outcome.ok:
        return outcome.error, outcome.code == "rule_conflict"
    if isinstance(command, c.SetRule) and command.option is not None:
        cls = available_rules().get(command.rule)
        text, markup = await options_view(context, chat.id, cls) if cls is not None else await rules_view(
            context, chat.id)
    else:
        text, markup = await rules_view(context, chat.id)
    _edit_view(context, chat.id, query.message, text, markup)
    await refresh_lobby(context, where(update))  # settings are the chat's; the lobby shown is this topic's
    lang = (outcome.settings or {}).get("lang", "en")
    _ = gettext_for(lang)
    return _("Saved. It applies from the next game."), False


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


async def _switch_view(update: Update, context: Context, data: str) -> tuple[str | None, bool]:
    """Between the rules and one rule's options (admins only: it is their keyboard)."""
    query, chat = update.callback_query, update.effective_chat
    assert query is not None and chat is not None
    rt = runtime(context)
    lang = await rt.service.language(str(chat.id))
    _ = gettext_for(lang)
    if not await rt.admins.is_admin(context.bot, chat, query.from_user):
        return error_text("not_admin", lang), False
    if data == keyboards.BACK:
        text, markup = await rules_view(context, chat.id)
    else:
        cls = keyboards.rule_by_key(data[len(keyboards.OPTIONS):])
        if cls is None:
            return error_text("unknown_rule", lang), False
        text, markup = await options_view(context, chat.id, cls)
    _edit_view(context, chat.id, query.message, text, markup)
    return None, False
