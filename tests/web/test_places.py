"""Which front-end a table's chat id belongs to, as the web page tells its visitor."""

from __future__ import annotations

import pytest

from unobot.adapters.web.places import BROWSER, CONSOLE, DISCORD, TELEGRAM, place_of


@pytest.mark.parametrize(("chat", "place"), [
    ("-1001234567890", TELEGRAM), ("42", TELEGRAM), ("web.ab12", BROWSER), ("dc_99", DISCORD),
    ("console.ana", CONSOLE),
    # What isdigit() took and int() refuses, or no adapter writes: none of ours (no traceback further on).
    ("²", ""), ("-²", ""), ("--5", ""), ("+5", ""), (" 5", ""), ("٣", ""), ("", ""), ("chat", ""),
])
def test_a_chat_id_names_its_place_only_in_the_form_its_front_end_writes(chat: str, place: str) -> None:
    assert place_of(chat) == place
