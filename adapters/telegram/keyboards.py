"""Inline keyboards and their callback data.

Callback data is short ASCII (Telegram allows 64 bytes) and names the
wanted end state ("turn stacking on", not "toggle"), so a press that
arrives twice, or from two admins at once, cannot flip a rule back.
Game buttons need no version: Join, Start, Add AI and Next round are
refused by the service when the table has moved on.
"""

from __future__ import annotations

from functools import cache

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from unobot.chat.i18n import LANGUAGE_NAMES, LANGUAGES, gettext_for
from unobot.chat.table import BETWEEN_ROUNDS, LOBBY, PLAYING
from unobot.registry import available_rules
from unobot.rule import Rule
from unobot.variants import VariantError, load_variant, variant_names

JOIN = "g:join"
START = "g:start"
ADD_AI = "g:ai"
NEXT_ROUND = "g:next"
RULE_ON = "r:on:"
RULE_OFF = "r:off:"
VARIANT = "r:var:"
TIMER = "r:tm:"
LANGUAGE = "r:lang:"
RESET = "r:reset"
TIMER_CHOICES = (0, 30, 60, 120)
MAX_DATA = 64


#: The inline query a "My cards" button types names its game: ``#<chat id>``.
#: An inline query carries no chat, and a player may sit in two games.
GAME_REF = "#"


def game_query(chat: str | None) -> str:
    return f"{GAME_REF}{chat} " if chat else ""


def play_button(lang: str, chat: str | None = None) -> InlineKeyboardButton:
    """The button that opens the player's hand (of the game in `chat`) in the group's input field."""
    _ = gettext_for(lang)
    return InlineKeyboardButton(_("🃏 My cards"), switch_inline_query_current_chat=game_query(chat))


@cache
def play_keyboard(lang: str, chat: str | None = None) -> InlineKeyboardMarkup:
    """Shared: Telegram objects are immutable, and every inline result carries it."""
    return InlineKeyboardMarkup([[play_button(lang, chat)]])


def table_keyboard(phase: str, lang: str, chat: str | None = None) -> InlineKeyboardMarkup | None:
    """The buttons under a game's status message, by phase."""
    _ = gettext_for(lang)
    if phase == LOBBY:
        return InlineKeyboardMarkup([
            [InlineKeyboardButton(_("✋ Join"), callback_data=JOIN),
             InlineKeyboardButton(_("▶️ Start"), callback_data=START)],
            [InlineKeyboardButton(_("🤖 Add an AI player"), callback_data=ADD_AI)],
        ])
    if phase == PLAYING:
        return play_keyboard(lang, chat)
    if phase == BETWEEN_ROUNDS:
        return InlineKeyboardMarkup([[InlineKeyboardButton(_("⏭ Next round"), callback_data=NEXT_ROUND)]])
    return None


def toggle_rules(enabled: set[str]) -> list[type[Rule]]:
    """The rules /rules offers as switches: every house rule, and the shared
    rules a house rule conflicts with (turning `challenge` off makes room for
    `no-bluffing`)."""
    rules = available_rules()
    conflicting = {other for cls in rules.values() for other in cls.conflicts}
    shown = [cls for name, cls in rules.items()
             if len(RULE_ON + name) <= MAX_DATA and (not cls.base or name in conflicting)]
    return sorted(shown, key=lambda cls: (cls.base, cls.name))


def rules_keyboard(variant: str, enabled: set[str], timer: int, lang: str) -> InlineKeyboardMarkup:
    """Switches for house rules, then variant, timer and language rows."""
    _ = gettext_for(lang)
    rows: list[list[InlineKeyboardButton]] = []
    row: list[InlineKeyboardButton] = []
    for cls in toggle_rules(enabled):
        on = cls.name in enabled
        data = (RULE_OFF if on else RULE_ON) + cls.name
        row.append(InlineKeyboardButton(("✅ " if on else "▫️ ") + cls.label(lang), callback_data=data))
        if len(row) == 2:
            rows.append(row)
            row = []
    if row:
        rows.append(row)
    variants = []
    for name in variant_names():
        if len(VARIANT + name) > MAX_DATA:
            continue
        try:
            title = load_variant(name).label(lang)
        except VariantError:
            continue
        variants.append(InlineKeyboardButton(("🔘 " if name == variant else "") + title,
                                             callback_data=VARIANT + name))
    rows += [variants[i:i + 2] for i in range(0, len(variants), 2)]
    rows.append([
        InlineKeyboardButton(("⏱ " if seconds == timer else "") + (f"{seconds}s" if seconds else _("no timer")),
                             callback_data=f"{TIMER}{seconds}")
        for seconds in TIMER_CHOICES
    ])
    rows.append([
        InlineKeyboardButton(("🔘 " if code == lang else "") + LANGUAGE_NAMES[code],
                             callback_data=LANGUAGE + code)
        for code in LANGUAGES
    ] + [InlineKeyboardButton(_("↩️ Variant defaults"), callback_data=RESET)])
    return InlineKeyboardMarkup(rows)
