"""Core's texts name no front-end's commands of their own accord: a lobby's
opening line says who opened what (each front-end's lobby shows how to join
and start: buttons, "Press Join"), and an answer that gives an example types it
the way the front-end reads it (`commands=`, over `render.TYPED_COMMANDS`)."""

from __future__ import annotations

import random
import re

import pytest

from unobot.chat import answers, records_text, typed
from unobot.chat import commands as c
from unobot.chat.i18n import LANGUAGES, gettext_for
from unobot.chat.service import ChatService, Defaults
from unobot.store import MemoryStore

#: A slash command as Telegram spells it (`/join`, `/start`), in any script around it.
SLASH = re.compile(r"(?<![\w/])/[a-z]+")


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_lobby_s_opening_line_names_no_command(lang: str) -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(1), defaults=Defaults(lang=lang))
    out = await svc.handle("chat-1", c.Person("1", "Ana", lang), c.NewGame())
    assert out.ok and out.notices
    # Read on Discord (`/uno join`), in a terminal or on a web page, `/join` sent people nowhere.
    for line in [*out.notices, *out.notices_in(lang)]:
        assert not SLASH.search(line), line
        assert "Ana" in line


@pytest.mark.parametrize("lang", ("en", "es", "de", "pl", "ar", "zh_CN", "hi"))
async def test_an_unknown_period_is_answered_with_the_front_end_s_own_example(lang: str) -> None:
    store = MemoryStore()
    person = c.Person("1", "Ana", lang)
    week = typed.first_form(lang, typed.PERIODS["week"])
    said = gettext_for(lang)("Say which standings: week, month or all (for example {example}).")
    # A chat that types commands (Telegram): its `/top`, with the reader's word for a week.
    assert await answers.reading_lines(store, "top", "chat-1", person, lang, "fortnight") == [
        said.format(example=f"/top {week}")]
    # The console's own typed word for the standings (`clasificación semana`).
    console = {"top": typed.first_form(lang, typed.RECORD_WORDS["top"])}
    got = await answers.reading_lines(store, "top", "chat-1", person, lang, "fortnight", commands=console)
    assert got == [said.format(example=f"{console['top']} {week}")] and "/top" not in got[0]
    # What the example says is read back as the week's standings.
    assert answers.typed_reading(f"{console['top']} {week}", lang) == ("top", week)
    assert records_text.period_of(week) == "week"
