"""Pages of a message whose widgets have limits: which select options and
which buttons go on page n, and where ◀ n/N ▶ leads.

Why in core: a platform caps what one message holds (Discord: 25 options
a select, 5 buttons a row, 5 rows), and a member's menu (40 and more cards
with some house rules, a picker of 9 players) or the rules menu (27+ house
rules) may hold more. What goes on which page is arithmetic over those
limits, the same for every front-end: an adapter gives its limits as data
(`Limits`) and turns a page (`Sheet`) into its widgets. Nothing is cut:
every item is on some page, and a page past the end shows the last.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
O = TypeVar("O")  # noqa: E741 - a select's option
B = TypeVar("B")  # a button


@dataclass(frozen=True)
class Limits:
    """What one message holds: `options` in a select, `row` buttons in a
    row, `rows` rows (a select takes a row of its own)."""

    options: int
    row: int
    rows: int


@dataclass(frozen=True)
class Window:
    """Page `number` (from 0) of `count`; `prev` and `next` are the pages
    either side (None at an end)."""

    number: int = 0
    count: int = 1

    @property
    def prev(self) -> int | None:
        return self.number - 1 if self.number > 0 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.count - 1 else None

    @property
    def label(self) -> str:
        """`2/5`: the page shown between ◀ and ▶."""
        return f"{self.number + 1}/{self.count}"


@dataclass(frozen=True)
class NavButton:
    """One button of ◀ n/N ▶: its label, the id a press on it sends, and
    whether it can be pressed (n/N, and an arrow at an end, cannot)."""

    label: str
    id: str
    enabled: bool = True


def nav(at: Window, page_id: Callable[[int], str]) -> list[NavButton]:
    """◀ n/N ▶ under a list of more than one page (nothing for one page):
    ◀ and ▶ lead to the pages either side (`page_id` names a page), n/N
    only says where the reader is. Why ids for the buttons that cannot be
    pressed too: a platform may want every id on a message unique (Discord
    does), so they are this page's id and `|l`, `|i` or `|r`, which name no page."""
    if at.count <= 1:
        return []
    here = page_id(at.number)
    back = NavButton("◀", page_id(at.prev)) if at.prev is not None else NavButton("◀", here + "|l", False)
    forth = NavButton("▶", page_id(at.next)) if at.next is not None else NavButton("▶", here + "|r", False)
    return [back, NavButton(at.label, here + "|i", False), forth]


#: The endings `nav` gives the ids of the buttons that cannot be pressed.
INERT = ("|l", "|i", "|r")


def inert(press: str) -> bool:
    """Whether `press` is the id of a nav button that cannot be pressed.
    A platform with no disabled buttons (Telegram) still sends it when one
    is tapped; it names no page, and the tap does nothing (no refusal)."""
    return press.endswith(INERT)


def window(length: int, size: int, number: int) -> tuple[Window, slice]:
    """Page `number` of a list of `length` items, `size` a page (past the end:
    the last; an empty list has one empty page), and the slice it shows."""
    count = max(1, math.ceil(length / size))
    number = max(0, min(number, count - 1))
    return Window(number, count), slice(number * size, (number + 1) * size)


def rows(items: Sequence[T], width: int) -> list[list[T]]:
    """Items in rows of `width` (the last may be shorter)."""
    return [list(items[i:i + width]) for i in range(0, len(items), width)]


@dataclass(frozen=True)
class Sheet(Generic[O, B]):
    """One page of a message: each select's options on it (in the order the
    selects were given; an empty select is left out by the caller), its
    buttons in rows, and where it stands (`window`). The bottom row is
    the caller's: ◀ n/N ▶ when `window.count` > 1, then the fixed buttons."""

    selects: list[list[O]]
    rows: list[list[B]]
    window: Window


def pages_of(limits: Limits, selects: Sequence[int], buttons: int, fixed: int = 0) -> tuple[int, int]:
    """(How many pages, buttons a page) for selects of these many options,
    `buttons` buttons and `fixed` buttons shown on every page (in the bottom
    row, beside ◀ n/N ▶ when there are pages). Raises ValueError when the
    limits leave no room."""
    selects = [n for n in selects if n]
    if len(selects) > limits.rows - 1:
        raise ValueError(f"a message holds at most {limits.rows - 1} selects")
    if fixed > limits.row - 3:
        raise ValueError(f"at most {limits.row - 3} fixed buttons (the bottom row holds ◀ n/N ▶ too)")
    free = limits.rows - len(selects)
    if all(n <= limits.options for n in selects) and buttons <= (free - (1 if fixed else 0)) * limits.row:
        return 1, buttons
    per_page = (free - 1) * limits.row
    counts = [math.ceil(n / limits.options) for n in selects]
    if buttons:
        if per_page <= 0:
            raise ValueError("no room for buttons")
        counts.append(math.ceil(buttons / per_page))
    return max(counts or [1]), per_page


def sheet(limits: Limits, selects: Sequence[Sequence[O]], buttons: Sequence[B], fixed: int,
          number: int) -> Sheet[O, B]:
    """Page `number` (past the end: the last): each select's options of that
    page (`limits.options` a page), and the buttons of that page in rows."""
    count, per_page = pages_of(limits, [len(s) for s in selects], len(buttons), fixed)
    here = max(0, min(number, count - 1))
    if count == 1:
        return Sheet([list(s) for s in selects], rows(buttons, limits.row), Window())
    opts = slice(here * limits.options, (here + 1) * limits.options)
    chunk = buttons[here * per_page:(here + 1) * per_page]
    return Sheet([list(s[opts]) for s in selects], rows(chunk, limits.row), Window(here, count))
