"""Names fit to show: what a platform says a person, a chat or a topic is
called, made safe for a status line.

Why in core: any name a platform hands over may be forged or odd (500
characters with line breaks, control characters, a right-to-left override
that turns the rest of a status line around), and every front-end shows
names in the same lines (the seats, "Ana's turn", a game's title in a
picker). Telegram cleaned them here first; the others take the same rule.
"""

from __future__ import annotations

import functools
import unicodedata

from .i18n import LANGUAGES, N_, gettext_for

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


#: What an AI seat's name carries after it ("Ada (AI)", "Ada (IA)" in Spanish).
AI_MARK = N_("(AI)")


def ai_name(base: str, lang: str | None) -> str:
    """An AI seat's name as `lang` writes it: its base name and the language's AI mark.

    Why one function: the lobby names a seat in the chat's language, and a
    kept game names it again in its reader's (a German reading a French
    game's replay reads "Ada (KI)", not "Ada (IA)"); both must agree."""
    return f"{base} {gettext_for(lang)(AI_MARK)}"


def ai_base(name: str) -> str:
    """An AI seat's name without the AI mark of whichever language put it
    there ("Ada (IA)" -> "Ada"); a name without one, as it is.

    Why every language's mark: the records kept before they stored the base
    name carry the table's own ("Ada (ИИ)"), and a reader in another
    language must still see the seat named in theirs."""
    for mark in ai_marks():
        if name.endswith(" " + mark):
            return name[:-len(mark) - 1]
    return name


@functools.cache
def ai_marks() -> tuple[str, ...]:
    """The AI mark in every language the bot speaks, longest first."""
    return tuple(sorted({gettext_for(lang)(AI_MARK) for lang in LANGUAGES}, key=len, reverse=True))
