"""Inline keyboards and their callback data.

Callback data is short ASCII (Telegram allows 64 bytes) and names the
wanted end state ("turn stacking on", not "toggle"), so a press that
arrives twice, or from two admins at once, cannot flip a rule back.
Game buttons need no version: Join, Start, Add AI and Next round are
refused by the service when the table has moved on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from unobot.chat.i18n import LANGUAGE_NAMES, LANGUAGES, gettext_for
from unobot.chat.option_values import encode_value, number_steps, option_rules
from unobot.chat.rules_text import switchable_rules
from unobot.chat.table import BETWEEN_ROUNDS, LOBBY, PLAYING
from unobot.registry import available_rules
from unobot.rule import Rule, option_specs
from unobot.variants import VariantError, load_variant, variant_names

from .guard import clip

JOIN = "g:join"
START = "g:start"
ADD_AI = "g:ai"
NEXT_ROUND = "g:next"
RULE_ON = "r:on:"
RULE_OFF = "r:off:"
VARIANT = "r:var:"
TIMER = "r:tm:"
LANGUAGE = "r:lang:"
LANGUAGES_A_ROW = 4
RESET = "r:reset"
#: ``r:m:<rule key>``: show a rule's options; ``r:s:<rule key>:<option index>:<value>``:
#: set one. A rule key is a short hash of the rule's name, so any name fits in
#: 64 bytes; a press whose key, index or value does not check out changes nothing.
OPTIONS = "r:m:"
SET_OPTION = "r:s:"
BACK = "r:back"
MAX_BUTTON = 64
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


@lru_cache(maxsize=1024)
def play_keyboard(lang: str, chat: str | None = None) -> InlineKeyboardMarkup:
    """Shared: Telegram objects are immutable, and every inline result carries it.
    Bounded: one per chat and language, and a process meets new chats all day."""
    return InlineKeyboardMarkup([[play_button(lang, chat)]])


#: chat id -> the web table's Mini App link for it (set by adapters/web when
#: `web.telegram_app` is configured; None: no "Open the table" button).
WEB_TABLE: Callable[[str], str] | None = None


def table_keyboard(phase: str, lang: str, chat: str | None = None) -> InlineKeyboardMarkup | None:
    """The buttons under a game's status message, by phase (and the web table's, when configured)."""
    markup = _table_keyboard(phase, lang, chat)
    if WEB_TABLE is None or chat is None or markup is None:
        return markup
    _ = gettext_for(lang)
    web = InlineKeyboardButton(_("🌐 Open the table"), url=WEB_TABLE(chat))
    return InlineKeyboardMarkup([*markup.inline_keyboard, [web]])


def _table_keyboard(phase: str, lang: str, chat: str | None = None) -> InlineKeyboardMarkup | None:
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
    """The rules /rules offers as switches: core's `switchable_rules`."""
    return switchable_rules()


def rules_keyboard(variant: str, enabled: set[str], timer: int, lang: str) -> InlineKeyboardMarkup:
    """Switches for house rules, then variant, timer and language rows."""
    _ = gettext_for(lang)
    rows: list[list[InlineKeyboardButton]] = []
    row: list[InlineKeyboardButton] = []
    for cls in toggle_rules(enabled):
        on = cls.name in enabled
        data = (RULE_OFF if on else RULE_ON) + rule_ref(cls.name)
        row.append(InlineKeyboardButton(clip(("✅ " if on else "▫️ ") + cls.label(lang), MAX_BUTTON),
                                        callback_data=data))
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
        variants.append(InlineKeyboardButton(clip(("🔘 " if name == variant else "") + title, MAX_BUTTON),
                                             callback_data=VARIANT + name))
    rows += [variants[i:i + 2] for i in range(0, len(variants), 2)]
    settings = [InlineKeyboardButton(clip("⚙ " + cls.label(lang), MAX_BUTTON), callback_data=OPTIONS + rule_key(cls.name))
                for cls in option_rules(enabled)]
    rows += [settings[i:i + 3] for i in range(0, len(settings), 3)]
    rows.append([
        InlineKeyboardButton(("⏱ " if seconds == timer else "") + (f"{seconds}s" if seconds else _("no timer")),
                             callback_data=f"{TIMER}{seconds}")
        for seconds in TIMER_CHOICES
    ])
    languages = [InlineKeyboardButton(("🔘 " if code == lang else "") + LANGUAGE_NAMES.get(code, code),
                                      callback_data=LANGUAGE + code) for code in LANGUAGES]
    # Four a row: names as long as "Bahasa Indonesia" stay readable on a phone (Telegram allows 8).
    rows.extend(languages[i:i + LANGUAGES_A_ROW] for i in range(0, len(languages), LANGUAGES_A_ROW))
    rows.append([InlineKeyboardButton(_("↩️ Variant defaults"), callback_data=RESET)])
    return InlineKeyboardMarkup(rows)


# -- rule options -------------------------------------------------------------------------

def rule_ref(name: str) -> str:
    """A rule in a switch's callback data: its name, or ``#<rule key>`` when the name is too long."""
    return name if len((RULE_OFF + name).encode()) <= MAX_DATA else "#" + rule_key(name)


def rule_named(ref: str) -> str:
    """The rule name a switch's data refers to (an unknown key stays as it is: the service refuses it)."""
    if ref.startswith("#"):
        cls = rule_by_key(ref[1:])
        return cls.name if cls is not None else ref
    return ref


def rule_key(name: str) -> str:
    """A rule's name in callback data: 8 hex digits of its hash (any name fits in 64 bytes)."""
    return hashlib.sha1(name.encode()).hexdigest()[:8]


def rule_by_key(key: str) -> type[Rule] | None:
    for name, cls in available_rules().items():
        if rule_key(name) == key:
            return cls
    return None










def options_keyboard(cls: type[Rule], values: dict[str, Any], lang: str) -> InlineKeyboardMarkup:
    """One row per option: a switch, the allowed values, or steps within bounds; then Back."""
    _ = gettext_for(lang)
    key = rule_key(cls.name)
    rows: list[list[InlineKeyboardButton]] = []
    for index, spec in enumerate(option_specs(cls)):
        value = values.get(spec.name, spec.default)
        prefix = f"{SET_OPTION}{key}:{index}:"
        choices = spec.choices
        title = cls.option_title(spec.name, lang)  # the option's name unless the rule gives it a title
        if spec.type is bool:
            rows.append([InlineKeyboardButton(clip(("✅ " if value else "▫️ ") + title, MAX_BUTTON),
                                              callback_data=prefix + encode_value(spec, not value))])
        elif choices is not None:
            rows.append([InlineKeyboardButton(clip(("🔘 " if choice == value else "") + f"{title}: {choice}",
                                                   MAX_BUTTON), callback_data=prefix + str(i))
                         for i, choice in enumerate(choices)][:4])
        elif spec.type in (int, float) and isinstance(value, (int, float)):
            lo = spec.min if spec.min is not None else -(10 ** 9)
            hi = spec.max if spec.max is not None else 10 ** 9
            row: list[InlineKeyboardButton] = []
            steps = number_steps(spec)
            for step in reversed(steps):
                if value - step >= lo:
                    row.append(InlineKeyboardButton(f"−{step}", callback_data=prefix + str(int(value - step))))
            row.append(InlineKeyboardButton(clip(f"{title}: {value:g}", MAX_BUTTON),
                                            callback_data=OPTIONS + key))
            for step in steps:
                if value + step <= hi:
                    row.append(InlineKeyboardButton(f"+{step}", callback_data=prefix + str(int(value + step))))
            rows.append(row)
    rows.append([InlineKeyboardButton(_("⬅ All rules"), callback_data=BACK)])
    return InlineKeyboardMarkup(rows)
