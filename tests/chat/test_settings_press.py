"""Core's settings press, as Telegram's /rules keyboard and Discord's /uno
rules message use it: a view only asks nothing of the store, a forged press
and a refused command change nothing and say why in the reader's language,
an accepted one saves (and says so)."""

from __future__ import annotations

import random

import pytest

from unobot.chat import commands as c
from unobot.chat import settings_menu as sm
from unobot.chat import settings_press as sp
from unobot.chat.service import ChatService
from unobot.store import MemoryStore

ADMIN = c.Person("9", "Boss", is_admin=True)
PLAYER = c.Person("5", "Ann")
CHAT = "group-1"


@pytest.fixture
def svc() -> ChatService:
    return ChatService(MemoryStore(), rng=random.Random(7))


async def test_a_view_is_shown_and_nothing_is_saved(svc: ChatService) -> None:
    pressed = await sp.press(svc, CHAT, PLAYER, "pr:1", lang="en", size=25)
    assert pressed.show == sm.Show(sm.RULES, page=1) and not pressed.saved and pressed.note("en") == ""


async def test_an_accepted_press_saves_and_says_so(svc: ChatService) -> None:
    pressed = await sp.press(svc, CHAT, ADMIN, "on:stacking", lang="es", size=25)
    assert pressed.saved and pressed.show is not None and pressed.refusal == ""
    assert "stacking" in (await svc.settings(CHAT))["rules"]
    assert pressed.note("es") == "Guardado. Se aplica desde la próxima partida."


async def test_refusals_change_nothing_and_say_why(svc: ChatService) -> None:
    forged = await sp.press(svc, CHAT, ADMIN, "on:no-such-rule", lang="en", size=25)
    assert forged.show is None and forged.refusal and not forged.saved
    not_admin = await sp.press(svc, CHAT, PLAYER, "on:stacking", lang="en", size=25)
    assert not_admin.show is None and not not_admin.conflict and not_admin.refusal
    clash = await sp.press(svc, CHAT, ADMIN, "on:no-bluffing", lang="en", size=25)
    assert clash.show is None and clash.conflict and "cannot be on together" in clash.refusal
    assert (await svc.settings(CHAT))["rules"] == {}


async def test_a_tap_on_a_button_that_cannot_be_pressed_does_nothing(svc: ChatService) -> None:
    """n/N (and an arrow at an end) on a platform that cannot grey them out:
    no view, no refusal, nothing saved."""
    for code in ("pv:1|i", "pr:0|l", "pr:2|r"):
        pressed = await sp.press(svc, CHAT, ADMIN, code, lang="en", size=25)
        assert pressed.show is None and pressed.refusal == "" and not pressed.saved
