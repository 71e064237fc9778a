"""Playing: the inline query shows a player their hand; the chosen result is the move.

How an inline query finds its game (it carries no chat id) is core's
`SeatFinder`: the "My cards" button types the game's chat into the query
(``#<chat id>``); a user with no seat there is told so, never shown the hand
of another game they play in. A query naming no game looks among the chats
of the user's recent games, newest first: a small record per user in the
store (`users.remember_game`, written when they open or join a game), not
in memory, because the query may reach any bot process.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from unobot.chat.i18n import gettext_for, known, normalize
from unobot.chat.seat_finder import NotSeated
from unobot.chat.status_text import rules_gone_line
from unobot.chat.table import Table

from . import inline_results, publish, users
from .bot import MAX_TEXT, uno_bot
from .guard import clip16, display_name, person_of, telegram_id
from .keyboards import GAME_REF, play_keyboard
from .runtime import runtime, telegram_chat
from .status import note_line

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE


async def remember_player(context: Any, user_id: int | str, chat_id: int | str) -> None:
    """The user opened or joined a game in this chat: their inline queries look here first."""
    rt = runtime(context)
    rt.finder.played(str(user_id), await users.remember_game(rt.store, user_id, str(chat_id)))


def notice_results(user_id: str, text: str, lang: str) -> list[inline_results.Article]:
    return inline_results.info_results("0", 0, user_id, text, text, lang, "notice")


def player_lang(language_code: str | None, chat_lang: str) -> str:
    """The language a player's own inline results speak: their Telegram
    app's, when unobot speaks it, else the chat's."""
    return known(language_code) or chat_lang


def game_ref(text: str) -> tuple[str | None, str]:
    """The game a query names (``#<chat id>``, typed by the "My cards" button) and the rest of its text."""
    words = text.split()
    if words and words[0].startswith(GAME_REF):
        chat = words[0][len(GAME_REF):]
        return (chat if telegram_id(chat) is not None else None), " ".join(words[1:])
    return None, text


async def answer(context: Any, query_id: str, results: list[inline_results.Article], **kwargs: Any) -> None:
    """Answer an inline query; one that is too old by now (Telegram waits about 15 s) is let go."""
    try:
        await uno_bot(context).answer_articles(query_id, results, **kwargs)
    except BadRequest as exc:
        log.info("inline answer not taken: %s", exc)


async def on_inline_query(update: Update, context: Context) -> None:
    query = update.inline_query
    if query is None or query.from_user is None:
        return
    user = query.from_user
    uid = str(user.id)
    chat_ref, text = game_ref(query.query)
    found = await runtime(context).finder.find(uid, chat_ref)
    if found is None:
        lang = normalize(user.language_code)
        _ = gettext_for(lang)
        results = inline_results.info_results("0", 0, uid, _("You are not in a game"),
                                      _("Open a game in a group with /new, or join one with /join."),
                                      lang, "none")
        await answer(context, query.id, results, button=inline_results.results_button(_("How to play")))
        return
    if isinstance(found, NotSeated):  # watching a game they do not play in: no hand of theirs here
        lang = known(user.language_code) or (found.table.lang if found.table is not None
                                             else await runtime(context).service.language(found.chat))
        _ = gettext_for(lang)
        title = _("You are not playing in this group's game")
        results = inline_results.info_results(found.chat, found.table.version if found.table else 0, uid,
                                              title, title, lang, "seat")
        await answer(context, query.id, results, button=inline_results.results_button(_("How to play")))
        return
    if isinstance(found, list):  # two running games and none named: the player picks one
        lang = player_lang(user.language_code, found[0].lang)
        _ = gettext_for(lang)
        await answer(context, query.id, inline_results.game_picker(found, uid, lang),
                     button=inline_results.results_button(_("You play in several games: pick one")))
        return
    table = found
    lang = player_lang(user.language_code, table.lang)
    _ = gettext_for(lang)
    chat_id = int(table.chat_id)
    in_group = chat_id < 0
    if in_group and query.chat_type in (ChatType.PRIVATE, ChatType.SENDER, ChatType.CHANNEL):
        results = inline_results.info_results(table.chat_id, table.version, uid, _("Open your cards in the game's group"),
                                      _("My cards are in the group where the game is."), lang, "place")
        await answer(context, query.id, results)
        return
    waker = runtime(context).waker
    if waker is not None:
        waker.ensure(chat_id, table)
    rt = runtime(context)
    head = inline_results.header(table, uid, lang)
    gone = rules_gone_line(table, lang)
    if gone:  # a rule plugin gone since the deal: nothing can be played; why, and what an admin can do
        await answer(context, query.id, inline_results.info_results(
            table.chat_id, table.version, uid, gone, rules_gone_line(table, table.lang), table.lang, "wait"),
            button=inline_results.results_button(head))
        return
    results = inline_results.matching(inline_results.hand_results(table, uid, lang, rt.stickers, rt.service.clock()),
                                      text, lang)
    if not results:
        results = inline_results.info_results(table.chat_id, table.version, uid, head, inline_results.header(table, uid),
                                      table.lang, "wait")
    chunk, next_offset = inline_results.page(results, query.offset)
    await answer(context, query.id, chunk, next_offset=next_offset, button=inline_results.results_button(head))


async def on_chosen(update: Update, context: Context) -> None:
    """A picked result: the move, checked by the service like any other command."""
    chosen = update.chosen_inline_result
    if chosen is None or chosen.from_user is None:
        return
    user = chosen.from_user
    choice = inline_results.decode(chosen.result_id)
    if choice is None or choice.code.startswith(inline_results.INFO) or not telegram_chat(choice.chat):
        return
    rt = runtime(context)
    if choice.user != str(user.id):
        lang = await rt.service.language(choice.chat)
        _ = gettext_for(lang)
        await refuse(context, chosen, None, lang, _("That choice was made for someone else."), choice.chat)
        return
    # A digest code is found again among the user's actions on the stored table.
    table = await rt.service.table(choice.chat) if choice.code.startswith("M") else None
    command = inline_results.command_of(choice, table)
    if command is None:
        table = table or await rt.service.table(choice.chat)
        lang = table.lang if table is not None else await rt.service.language(choice.chat)
        _ = gettext_for(lang)
        text = _("That card cannot be played now.") if choice.code.startswith(inline_results.UNPLAYABLE) \
            else _("That is not a move.")
        await refuse(context, chosen, table, lang, text)
        return
    # With the language their app speaks: the table keeps it on their seat, so what only
    # they read (the cards they drew) is in their language from any process (issue 15).
    person = replace(person_of(user), lang=known(user.language_code))
    outcome = await rt.service.handle(choice.chat, person, command)
    if outcome.ok:
        if outcome.changed or outcome.repeated:  # repeated: sent again, shown as it is, nothing said
            await publish.after(context, int(choice.chat), outcome)
        return
    table = outcome.table
    lang = table.lang if table is not None else await rt.service.language(choice.chat)
    await refuse(context, chosen, table, lang, outcome.error or "")


async def refuse(context: Any, chosen: Any, table: Table | None, lang: str, text: str,
                 chat: str | None = None) -> None:
    """Say briefly why a choice changed nothing, where the player looks:
    in the message they just posted (it carries the "My cards" button, so
    the bot may edit it), else as a line on the status message. No text: nothing
    to say (a refusal said already, `Outcome.quiet`)."""
    if not text:
        return
    name = display_name(chosen.from_user.full_name, str(chosen.from_user.id))
    chat = chat or (table.chat_id if table is not None else None)
    line = f"{name}: {text}"
    if chosen.inline_message_id:
        try:
            # One message, edited (not a chat's: no second page): a plugin's long refusal is
            # shortened with "…" rather than refused whole by Telegram and never shown.
            await context.bot.edit_message_text(clip16(note_line(line), MAX_TEXT),
                                                inline_message_id=chosen.inline_message_id,
                                                reply_markup=play_keyboard(lang, chat))
        except TelegramError as exc:
            log.info("refusal not shown: %s", exc)
        return
    if table is not None and table.seat_of(str(chosen.from_user.id)) is not None:
        await publish.show(context, int(table.chat_id), table, notes=[note_line(line)])
