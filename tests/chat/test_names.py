"""Core's names fit to show: one line, printable, at most 32 characters, a
fallback for a name with nothing left to show."""

from __future__ import annotations

from unobot.chat.names import MAX_NAME, clip, display_name


def test_a_name_is_one_printable_line_of_bounded_length() -> None:
    name = display_name("A\nB\u202e" + "é" * 200, "1")  # a line break, a right-to-left override
    assert "\n" not in name and "\u202e" not in name and len(name) == MAX_NAME and name.endswith("…")
    assert display_name("  Ana   María ", "x") == "Ana María"
    assert display_name("\x00\x01", "42") == "42" and display_name(None, "?") == "?"


def test_clip_marks_a_cut() -> None:
    assert clip("short", 10) == "short"
    assert clip("abcdef", 4) == "abc…" and len(clip("abcdef", 4)) == 4
    assert clip("abc", 0) == "…"
