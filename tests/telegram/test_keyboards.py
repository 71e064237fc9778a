"""The /rules keyboard's ◀ n/N ▶ rows are core's (`Page.nav`, `RulesPage.nav`)."""

from __future__ import annotations

import random

from unobot.adapters.telegram.keyboards import SETTINGS, rules_keyboard
from unobot.chat import settings_menu as sm
from unobot.chat import settings_press as sp
from unobot.chat.commands import Person
from unobot.chat.service import ChatService
from unobot.chat.settings_menu import SettingsMenu
from unobot.store import MemoryStore

ADMIN = Person("1", "Boss", "en", True)
SETTINGS_NOW = {"variant": "official", "rules": {}, "timer": 0, "lang": "en"}


async def test_every_button_under_the_variants_moves_only_the_variants() -> None:
    """Page 2 of the variants, two a page: ◀, "2/N" and ▶ under them show
    the variants (or do nothing: n/N only says where the reader is); none
    moves the rules list, and none is answered with a refusal."""
    svc = ChatService(MemoryStore(), rng=random.Random(1))
    m = SettingsMenu(SETTINGS_NOW, "en", 2, 2)
    rows = rules_keyboard(m, 0, 1).inline_keyboard
    under = next(row for row in rows if any(str(b.callback_data).startswith(SETTINGS + "pv:") for b in row))
    assert [b.text for b in under] == ["◀", f"2/{m.variants(1).count}", "▶"]
    for button in under:
        pressed = await sp.press(svc, "group", ADMIN, str(button.callback_data)[len(SETTINGS):],
                                 lang="en", size=2)
        assert pressed.refusal == "", button.text
        assert pressed.show is None or pressed.show.view == sm.VARIANTS, button.text


async def test_the_rules_list_s_n_of_n_does_nothing() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(1))
    m = SettingsMenu(SETTINGS_NOW, "en", 2, 2)
    rows = rules_keyboard(m, 1, 0).inline_keyboard
    under = next(row for row in rows if any(str(b.callback_data).startswith(SETTINGS + "pr:") for b in row))
    middle = next(b for b in under if "/" in b.text)
    pressed = await sp.press(svc, "group", ADMIN, str(middle.callback_data)[len(SETTINGS):], lang="en", size=2)
    assert pressed.show is None and pressed.refusal == "" and not pressed.saved
