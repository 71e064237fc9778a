"""A kept game's last moments (what ``/last`` shows under the scores), told
from its log in the reader's language.

Why from the log and not from the texts kept with the record: those were
written once, in the chat's language of that day, so a member who reads
``/last`` in another language (Discord and the web table answer each
member in their own) got a Spanish summary with English moments; the log
names seats by number, so the names come from the record (a forgotten
person's already replaced there).
"""

from __future__ import annotations

from typing import Any

from ..service import DEAL, TABLE_ENTRIES, ReplayError, replay_events
from .records import kept_name
from .render import describe_event


def last_moments(record: dict[str, Any], lang: str, count: int = 4) -> list[str] | None:
    """The last ``count`` lines the game's events say, in ``lang``; None when
    the log does not replay here (a plugin it needs is not installed)."""
    names = [kept_name(p, lang) for p in record.get("players", [])]

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    lines: list[str] = []
    try:
        for entry, state, events in replay_events(str(e) for e in record.get("log", [])):
            head = entry.split(" ", 1)[0]
            if state is None or head in TABLE_ENTRIES or head == DEAL:
                continue
            lines += [line for e in events if (line := describe_event(e, name, lang))]
            del lines[:-count]
    except ReplayError:
        return None
    return lines
