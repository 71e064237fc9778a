"""Names fit to show: what a platform says a person, a chat or a topic is
called, made safe for a status line.

Why in core: any name a platform hands over may be forged or odd (500
characters with line breaks, control characters, a right-to-left override
that turns the rest of a status line around), and every front-end shows
names in the same lines (the seats, "Ana's turn", a game's title in a
picker). Telegram cleaned them here first; the others take the same rule.
"""

from __future__ import annotations

import unicodedata

#: The longest name shown anywhere (Telegram's own limit is 64 + 64).
MAX_NAME = 32


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, an ellipsis marking a cut."""
    return text if len(text) <= limit else text[:max(0, limit - 1)] + "…"


def display_name(name: str | None, fallback: str) -> str:
    """A name fit to show: printable characters only, one line, at most `MAX_NAME` long."""
    cleaned = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in name or "")
    cleaned = " ".join(cleaned.split())
    return clip(cleaned, MAX_NAME) or fallback
