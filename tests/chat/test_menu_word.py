"""A command menu's words (core's `typed.menu_word`, what Discord's
translator gives for a description or a choice): a description translated,
a typed word as its first form, and None where the text stays English."""

from __future__ import annotations

from unobot.chat.i18n import gettext_for
from unobot.chat.typed import PERIODS, first_form, menu_word


def test_descriptions_choices_and_english() -> None:
    assert menu_word("es", "How to play") == gettext_for("es")("How to play") != "How to play"
    week = menu_word("es", PERIODS["week"], typed=True)
    assert week == first_form("es", PERIODS["week"]) and week is not None and "," not in week
    assert menu_word("en", "How to play") is None and menu_word("es", "no such text, surely") is None
