"""Inline keyboards and their callback data.

Callback data is short ASCII (Telegram allows 64 bytes). The /rules
keyboard draws core's settings menu (`unobot.chat.settings_menu`): its
entries, its pages, its press ids behind `r:`; which rules are listed, what
a press means and whether it checks out are the menu's. Game buttons need
no version: Join, Start, Add AI, Leave and Next round are refused by the
service when the table has moved on. Which of them a lobby shows, with
which labels, is core's (`actions.public_actions`, as Discord's status
message shows them): the level of an AI seat is picked on its own button.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from unobot.chat import actions, paging
from unobot.chat import commands as c
from unobot.chat.bounded import BoundedCache
from unobot.chat.i18n import gettext_for
from unobot.chat.names import clip
from unobot.chat.settings_menu import CHOSEN_MARK, Entry, OptionPanel, SettingsMenu
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, LOBBY, PLAYING, Table

JOIN = "g:join"
START = "g:start"
ADD_AI = "g:ai"
#: ``g:rm:`` and an AI seat's id (``ai:2``): take that seat out of the lobby.
REMOVE_AI = "g:rm:"
NEXT_ROUND = "g:next"
LEAVE = "g:leave"
#: "Play again" under a finished match: a new lobby seated as that match (core's `c.Again`);
#: ``g:again:`` and the match's reference (`again`), plain on messages posted before it had one.
AGAIN = "g:again"
#: Every settings press: ``r:`` and the settings menu's press id.
SETTINGS = "r:"
RULE_ON, RULE_OFF, VARIANT, TIMER, LANGUAGE, RESET, OPTIONS, SET_OPTION, BACK = (
    SETTINGS + verb for verb in ("on:", "off:", "var:", "tm:", "lang:", "reset", "m:", "s:", "back"))
#: Core's lobby and round actions as callback data (an AI seat's level after ``g:ai:``).
PUBLIC_DATA = {actions.JOIN: JOIN, actions.START: START, actions.LEAVE: LEAVE, actions.NEXT_ROUND: NEXT_ROUND,
               actions.AGAIN: AGAIN}
LANGUAGES_A_ROW = 4
MAX_BUTTON = 64
#: Entries a list shows on one keyboard: all of today's rules, within Telegram's 100 buttons.
PAGE = 40


#: The inline query a "My cards" button types names its game: ``#<chat id>``.
#: An inline query carries no chat, and a player may sit in two games.
GAME_REF = "#"


def add_ai(level: str) -> str:
    """The callback data of "add an AI seat of `level`" (plain ``g:ai``, of
    older lobby messages, adds one of the default level)."""
    return f"{ADD_AI}:{level}"


def again(match: str) -> str:
    """The callback data of "Play again" of the match `match` (`Table.match`, 8 hex
    digits: 17 bytes in all, within Telegram's 64), so a press on an old match's
    message plays that match again, not the chat's latest."""
    return f"{AGAIN}:{match}" if match else AGAIN


def again_match(data: str) -> str | None:
    """The match a "Play again" press names ("" for the plain button of older
    messages: the chat's last), or None when `data` is no "Play again" press."""
    if data == AGAIN:
        return ""
    match = data[len(AGAIN) + 1:] if data.startswith(AGAIN + ":") else None
    return match if match is not None and actions.is_match_ref(match) else None


def remove_ai(seat_id: str) -> str:
    """The callback data of "take AI seat `seat_id` out of the lobby"."""
    return REMOVE_AI + seat_id


def game_query(chat: str | None) -> str:
    return f"{GAME_REF}{chat} " if chat else ""


def play_button(lang: str, chat: str | None = None) -> InlineKeyboardButton:
    """The button that opens the player's hand (of the game in `chat`) in the group's input field."""
    _ = gettext_for(lang)
    return InlineKeyboardButton(_("🃏 My cards"), switch_inline_query_current_chat=game_query(chat))


#: chat -> language -> its "My cards" keyboard. Shared: Telegram objects are
#: immutable, and every inline result carries it. A finished game's leave with
#: it (`forget_play_keyboards`); the cap bounds the chats playing now, as a
#: process meets new chats all day.
PLAY_KEYBOARDS: BoundedCache[str | None, dict[str, InlineKeyboardMarkup]] = BoundedCache(1024)


def play_keyboard(lang: str, chat: str | None = None) -> InlineKeyboardMarkup:
    """The "My cards" keyboard of the game in `chat` (one object per chat and language)."""
    by_lang = PLAY_KEYBOARDS.get(chat)
    if by_lang is None:
        by_lang = {}
        PLAY_KEYBOARDS.put(chat, by_lang)
    markup = by_lang.get(lang)
    if markup is None:
        markup = by_lang[lang] = InlineKeyboardMarkup([[play_button(lang, chat)]])
    return markup


def forget_play_keyboards(chat: str) -> list[InlineKeyboardMarkup]:
    """The chat's game ended: drop its keyboards (returned, so their wire forms go too)."""
    return list((PLAY_KEYBOARDS.pop(chat) or {}).values())


#: chat id -> the web table's Mini App link for it (set by adapters/web when
#: `web.telegram_app` is configured; None: no "Open the table" button).
WEB_TABLE: Callable[[str], str] | None = None


def table_keyboard(table: Table) -> InlineKeyboardMarkup | None:
    """The buttons under a game's status message, by phase (and the web table's, when configured)."""
    markup = _table_keyboard(table)
    chat = table.chat_id
    if WEB_TABLE is None or chat is None or markup is None:
        return markup
    _ = gettext_for(table.lang)
    web = InlineKeyboardButton(_("🌐 Open the table"), url=WEB_TABLE(chat))
    return InlineKeyboardMarkup([*markup.inline_keyboard, [web]])


def _table_keyboard(table: Table) -> InlineKeyboardMarkup | None:
    if table.phase in (LOBBY, BETWEEN_ROUNDS, FINISHED):  # a match's end: "Play again"
        return public_keyboard(table) if table.phase != FINISHED or table.seats else None
    if table.phase == PLAYING:
        return play_keyboard(table.lang, table.chat_id)
    return None


def public_keyboard(table: Table) -> InlineKeyboardMarkup:
    """A lobby's or a finished round's buttons: core's public actions (Join,
    Start, an AI seat of each level, one to take out each AI seat, Leave;
    Next round; Play again after the match), as Discord's status message offers them. Before, Telegram
    drew its own: no Leave, and Add AI only of the default level. Two a row;
    the levels on a row of their own, the AI seats to take out two a row."""
    rows: list[list[InlineKeyboardButton]] = [[]]
    for action in actions.public_actions(table, table.lang):
        if action.kind == actions.ADD_AI:
            levels = [InlineKeyboardButton(clip(choice.label, MAX_BUTTON), callback_data=add_ai(choice.code))
                      for choice in action.choices]
            rows += [levels, []]
        elif action.kind == actions.REMOVE_AI:  # one button an AI seat, two a row
            seats = [InlineKeyboardButton(clip(choice.label, MAX_BUTTON), callback_data=remove_ai(choice.code))
                     for choice in action.choices]
            rows += [seats[i:i + 2] for i in range(0, len(seats), 2)] + [[]]
        elif action.kind in PUBLIC_DATA:
            if len(rows[-1]) == 2:
                rows.append([])
            data = again(action.command.match) if isinstance(action.command, c.Again) else PUBLIC_DATA[action.kind]
            rows[-1].append(InlineKeyboardButton(action.label, callback_data=data))
    return InlineKeyboardMarkup([row for row in rows if row])


def menu(settings: dict[str, Any], lang: str) -> SettingsMenu:
    """Core's settings menu with the page size of a Telegram keyboard."""
    return SettingsMenu(settings, lang, PAGE, PAGE)


def _button(entry: Entry, label: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(clip(label, MAX_BUTTON), callback_data=SETTINGS + entry.id)


def _nav(buttons: list[paging.NavButton]) -> list[list[InlineKeyboardButton]]:
    """Core's ◀ n/N ▶ under a list that takes more than one page, each
    button with its own list's id. Telegram cannot grey a button out, so
    an arrow at an end is left out; n/N stays (a tap on it does nothing)."""
    shown = [b for i, b in enumerate(buttons) if b.enabled or i == 1]
    return [[InlineKeyboardButton(b.label, callback_data=SETTINGS + b.id) for b in shown]] if shown else []


def rules_keyboard(m: SettingsMenu, page: int = 0, variants_page: int = 0) -> InlineKeyboardMarkup:
    """Switches for the rules, the variants, ⚙ a rule's options, then timer, language and reset rows."""
    view = m.rules(page)
    rows = paging.rows([_button(e, e.marked()) for e in view.switches], 2)
    rows += _nav(view.nav())
    variants = m.variants(variants_page)
    rows += paging.rows([_button(e, e.marked(CHOSEN_MARK, "")) for e in variants.entries], 2)
    rows += _nav(variants.nav())
    rows += paging.rows([_button(e, "⚙ " + e.label) for e in view.rules_with_options], 3)
    rows.append([_button(e, e.marked("⏱ ", "")) for e in m.timers()])
    # Four a row: names as long as "Bahasa Indonesia" stay readable on a phone (Telegram allows 8).
    rows += paging.rows([_button(e, e.marked(CHOSEN_MARK, "")) for e in m.languages()], LANGUAGES_A_ROW)
    reset = m.reset()
    rows.append([_button(reset, reset.label)])
    return InlineKeyboardMarkup(rows)


def options_keyboard(m: SettingsMenu, rule: str) -> InlineKeyboardMarkup:
    """One row per option of a rule: a switch, the allowed values, or steps around its value; then Back."""
    _ = gettext_for(m.lang)
    rows: list[list[InlineKeyboardButton]] = []
    for panel in m.rule_panel(rule):
        rows += option_rows(panel)
    rows.append([InlineKeyboardButton(_("⬅ All rules"), callback_data=BACK)])
    return InlineKeyboardMarkup(rows)


def option_rows(p: OptionPanel) -> list[list[InlineKeyboardButton]]:
    if p.is_switch:  # one button: the state it shows, pressed for the other
        other = next(e for e in p.choices.entries if not e.on)
        return [[_button(other, ("✅ " if p.value else "▫️ ") + p.title)]]
    if p.steps:
        centre = InlineKeyboardButton(clip(f"{p.title}: {p.value_text}", MAX_BUTTON), callback_data=SETTINGS + p.id)
        down = [_button(e, e.label) for e in p.steps if not e.label.startswith("+")]
        return [down + [centre] + [_button(e, e.label) for e in p.steps if e.label.startswith("+")]]
    return paging.rows([_button(e, (CHOSEN_MARK if e.on else "") + f"{p.title}: {e.label}")
                        for e in p.choices.entries], 4)
