"""Which deliveries changed a table: a platform's update sent again, after
the process that applied it died before saying so, is known by the table.

Why: the store's memory of handled deliveries (`unobot.delivery.Deliveries`)
is written after the handler, so one window stays open: a process that
saved a move and died (or lost the store) before its "done" mark. Telegram
then sends the update again, to any process, which handled it again: the
move was refused aloud by the table's version ("that hand is out of date"
under a card that was played), a repeated /new said "A game is already
running here" to the person who had just opened it. Here the delivery's
key travels with the change itself: the table keeps the keys of the last
deliveries that changed it, written in the same compare-and-set save, so a
repeat finds its own key there and is answered as done, changing nothing
and saying nothing.
"""

from __future__ import annotations

from ..delivery import redelivery
from .table import Table

#: Where the keys are kept: the table's adapter data (bookkeeping, no new revision).
DELIVERED = "delivered"
#: Keys kept per table. A repeat comes within a lease (seconds) of the first
#: copy; a table changed by more deliveries than this meanwhile is a fast game
#: whose repeat would be refused by its version anyway.
KEEP = 8


def current_key() -> str | None:
    """The key of the delivery being handled in this task, if its platform may send it again."""
    again = redelivery()
    return again.key if again is not None else None


def made(table: Table, key: str | None) -> bool:
    """Whether the delivery `key` already changed `table`."""
    return key is not None and key in (table.adapter.get(DELIVERED) or ())


def note(table: Table, key: str | None) -> None:
    """Record, in the change about to be saved, that delivery `key` made it."""
    if key is None:
        return
    kept = [k for k in table.adapter.get(DELIVERED) or () if isinstance(k, str) and k != key]
    table.adapter[DELIVERED] = [*kept[-(KEEP - 1):], key]
