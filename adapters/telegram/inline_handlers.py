"""Playing: the inline query shows a player their hand; the chosen result is the move.

How an inline query finds its game (it carries no chat id): the "My cards"
button types the game's chat into the query (``#<chat id>``); a user with no
seat there is told so, never shown the hand of another game they play in
(its picks would land in this group). A query naming no game: each user has
a small record in the store (`users.remember_game`, written when they open
or join a game) listing the chats of their recent games, newest first. The
query loads those tables and takes the first running one the user sits at
(else the first one they sit at); two running games: a picker. A record in
the store, not in memory, because the query may reach any bot process.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from unobot.chat.i18n import gettext_for, known, normalize
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, PLAYING, Table
from unobot.state import StateFormatError

from . import inline_results, publish, users
from .bot import uno_bot
from .guard import display_name, person_of, telegram_id
from .keyboards import GAME_REF, play_keyboard
from .runtime import runtime, telegram_chat
from .status import note_line

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE


async def find_tables(context: Any, user_id: str) -> list[Table]:
    """The tables the user sits at among their recent game chats, running ones first.

    The list of chats is cached for a few seconds in this process; when the
    cached list leads to no running game, the store's list is read again.
    """
    rt = runtime(context)
    cached = rt.cached_chats(user_id)
    if cached is not None:
        tables = await _seated(rt, user_id, cached)
        if tables and tables[0].phase == PLAYING:
            return tables
    record = await users.user_record(rt.store, user_id)
    chats = [str(c) for c in record.get("games") or [] if telegram_id(str(c)) is not None]
    rt.cache_chats(user_id, chats)
    return await _seated(rt, user_id, chats)


@dataclass(frozen=True)
class NotSeated:
    """The query names a game (its "My cards" button) the user has no seat in;
    `table` is that chat's table, if one runs there."""

    chat: str
    table: Table | None


async def find_table(context: Any, user_id: str, chat: str | None = None
                     ) -> Table | list[Table] | NotSeated | None:
    """The table the user's inline query is about: the one `chat` names (the
    "My cards" button says it), or NotSeated if they sit not there (never
    another game's hand: its picks would be posted in this group); no name:
    their one running game; several running games: all of them (the player
    picks)."""
    rt = runtime(context)
    if chat is not None and telegram_id(chat) is not None:
        table = await load_table(rt, chat)
        if table is not None and table.phase != FINISHED and table.seat_of(user_id) is not None:
            return table
        return NotSeated(chat, table)
    tables = await find_tables(context, user_id)
    running = [t for t in tables if t.phase == PLAYING]
    if len(running) > 1:
        return running
    return tables[0] if tables else None


async def remember_player(context: Any, user_id: int | str, chat_id: int | str) -> None:
    """The user opened or joined a game in this chat: their inline queries look here first."""
    rt = runtime(context)
    chats = await users.remember_game(rt.store, user_id, str(chat_id))
    rt.cache_chats(str(user_id), chats)


async def load_table(rt: Any, chat: str) -> Table | None:
    """The chat's table, for showing a hand.

    The chat's game id is cached for a short while, so a query costs one
    store read instead of two. A cached id is trusted only when the table it
    names is still running (playing or between rounds): the service replaces
    a chat's game only when that game is finished or an abandoned lobby, and
    a stopped game is deleted, so a running table at that id is the chat's
    current game. Anything else takes the service's own path.
    """
    game_id = rt.cached_game(chat)
    if game_id is not None:
        stored = await rt.store.load_game(game_id)
        if stored is not None:
            try:
                table = Table.decode(stored.state, stored.version)
            except StateFormatError:
                table = None
            if table is not None and table.phase in (PLAYING, BETWEEN_ROUNDS):
                return table
    game_id = await rt.store.chat_game(chat)
    if not game_id:
        return None
    stored = await rt.store.load_game(game_id)
    try:
        table = Table.decode(stored.state, stored.version) if stored is not None else None
    except StateFormatError:
        return await rt.service.table(chat)  # the service sets damaged data aside
    if table is not None and table.phase in (PLAYING, BETWEEN_ROUNDS):
        rt.cache_game(chat, game_id)
    return table


async def _seated(rt: Any, user_id: str, chats: list[str]) -> list[Table]:
    tables = []
    for chat in chats:
        table = await load_table(rt, chat)
        if table is None or table.phase == FINISHED or table.seat_of(user_id) is None:
            continue
        tables.append(table)
    return sorted(tables, key=lambda t: t.phase != PLAYING)  # stable: newest first among equals


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
    runtime(context).learn_lang(uid, known(user.language_code))
    chat_ref, text = game_ref(query.query)
    found = await find_table(context, uid, chat_ref)
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
    results = inline_results.matching(inline_results.hand_results(table, uid, lang, runtime(context).stickers), text,
                                      lang)
    head = inline_results.header(table, uid, lang)
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
    rt.learn_lang(str(user.id), known(user.language_code))
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
        if outcome.changed:
            await publish.after(context, int(choice.chat), outcome)
        return
    table = outcome.table
    lang = table.lang if table is not None else await rt.service.language(choice.chat)
    await refuse(context, chosen, table, lang, outcome.error or "")


async def refuse(context: Any, chosen: Any, table: Table | None, lang: str, text: str,
                 chat: str | None = None) -> None:
    """Say briefly why a choice changed nothing, where the player looks:
    in the message they just posted (it carries the "My cards" button, so
    the bot may edit it), else as a line on the status message."""
    name = display_name(chosen.from_user.full_name, str(chosen.from_user.id))
    chat = chat or (table.chat_id if table is not None else None)
    line = f"{name}: {text}"
    if chosen.inline_message_id:
        try:
            await context.bot.edit_message_text(note_line(line), inline_message_id=chosen.inline_message_id,
                                                reply_markup=play_keyboard(lang, chat))
        except TelegramError as exc:
            log.info("refusal not shown: %s", exc)
        return
    if table is not None and table.seat_of(str(chosen.from_user.id)) is not None:
        await publish.show(context, int(table.chat_id), table, notes=[note_line(line)])
