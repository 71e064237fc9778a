"""Core's names fit to show: one line, printable, at most 32 characters, a
fallback for a name with nothing left to show."""

from __future__ import annotations

import random

from unobot.chat import commands as c
from unobot.chat.names import MAX_NAME, clip, display_name
from unobot.chat.service import ChatService
from unobot.store import MemoryStore


def test_a_name_is_one_printable_line_of_bounded_length() -> None:
    name = display_name("A\nB\u202e" + "é" * 200, "1")  # a line break, a right-to-left override
    assert "\n" not in name and "\u202e" not in name and len(name) == MAX_NAME and name.endswith("…")
    assert display_name("  Ana   María ", "x") == "Ana María"
    assert display_name("\x00\x01", "42") == "42" and display_name(None, "?") == "?"


def test_clip_marks_a_cut() -> None:
    assert clip("short", 10) == "short"
    assert clip("abcdef", 4) == "abc…" and len(clip("abcdef", 4)) == 4
    assert clip("abc", 0) == "…"


async def test_a_seat_named_like_another_gets_a_number() -> None:
    """Two Anas, and a person called like an AI seat: every seat's name is its own."""
    svc = ChatService(MemoryStore(), rng=random.Random(1))
    assert (await svc.handle("g", c.Person("1", "Ana"), c.NewGame())).ok
    for pid, name in (("2", "ana"), ("3", "Ada (AI)")):
        assert (await svc.handle("g", c.Person(pid, name), c.Join())).ok
    assert (await svc.handle("g", c.Person("1", "Ana"), c.AddAI(1))).ok
    table = await svc.table("g")
    assert table is not None and [s.name for s in table.seats] == ["Ana", "ana 2", "Ada (AI)", "Ada (AI) 2"]
    # A name as long as a name may be is cut for its number: still within MAX_NAME.
    long = "W" * MAX_NAME
    for pid in ("4", "5"):
        assert (await svc.handle("g", c.Person(pid, long), c.Join())).ok
    table = await svc.table("g")
    assert table is not None and table.seats[-1].name == "W" * (MAX_NAME - 3) + "… 2"
    assert all(len(s.name) <= MAX_NAME for s in table.seats)


async def test_the_join_notice_says_the_name_as_seated() -> None:
    """"Ana joined" beside an Ana already seated said nothing of "ana 2",
    the name every later line uses."""
    svc = ChatService(MemoryStore(), rng=random.Random(1))
    assert (await svc.handle("g", c.Person("1", "Ana"), c.NewGame())).ok
    joined = await svc.handle("g", c.Person("2", "ana"), c.Join())
    assert joined.ok and "ana 2 joined (2 players)." in joined.notices
