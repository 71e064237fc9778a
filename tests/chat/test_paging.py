"""Core's pager: under any limits, every select option and every button is
on exactly one page, no page breaks a limit, and a page past the end is the
last (what Discord's panels and core's settings menu page with)."""

from __future__ import annotations

import pytest

from unobot.chat import paging

DISCORD = paging.Limits(options=25, row=5, rows=5)


@pytest.mark.parametrize("limits", [DISCORD, paging.Limits(options=10, row=4, rows=4)])
@pytest.mark.parametrize(("options", "buttons", "fixed"),
                         [(0, 0, 0), (3, 4, 1), (25, 15, 1), (25, 20, 0), (26, 0, 1), (60, 41, 1), (0, 26, 0),
                          (130, 3, 1), (7, 200, 0)])
def test_every_item_is_on_one_page_within_the_limits(limits: paging.Limits, options: int, buttons: int,
                                                     fixed: int) -> None:
    opts, btns = [f"o{i}" for i in range(options)], [f"b{i}" for i in range(buttons)]
    first = paging.sheet(limits, [opts], btns, fixed, 0)
    seen_o: list[str] = []
    seen_b: list[str] = []
    for n in range(first.window.count):
        sh = paging.sheet(limits, [opts], btns, fixed, n)
        assert sh.window == paging.Window(n, first.window.count)
        assert all(len(s) <= limits.options for s in sh.selects)
        assert all(len(r) <= limits.row for r in sh.rows)
        bottom = 1 if fixed or sh.window.count > 1 else 0
        assert (1 if sh.selects[0] else 0) + len(sh.rows) + bottom <= limits.rows
        seen_o += sh.selects[0]
        seen_b += [b for r in sh.rows for b in r]
    assert (seen_o, seen_b) == (opts, btns)
    assert paging.sheet(limits, [opts], btns, fixed, 99) == paging.sheet(limits, [opts], btns, fixed,
                                                                          first.window.count - 1)


def test_one_page_when_it_fits_and_the_fixed_buttons_take_a_row() -> None:
    assert paging.pages_of(DISCORD, [25], 20) == (1, 20)
    assert paging.pages_of(DISCORD, [25], 20, fixed=1) == (2, 15)  # the bottom row is the fixed buttons'
    assert paging.pages_of(DISCORD, [26], 0) == (2, 15)


def test_limits_that_leave_no_room_are_refused() -> None:
    with pytest.raises(ValueError, match="selects"):
        paging.pages_of(DISCORD, [1] * 5, 0)
    with pytest.raises(ValueError, match="fixed"):
        paging.pages_of(DISCORD, [], 0, fixed=3)
    with pytest.raises(ValueError, match="room"):
        paging.pages_of(DISCORD, [30] * 4, 1)


def test_a_window_names_its_neighbours() -> None:
    at, part = paging.window(12, 5, 7)
    assert (at.number, at.count, at.prev, at.next, at.label) == (2, 3, 1, None, "3/3")
    assert list(range(12))[part] == [10, 11]
    assert paging.window(0, 5, 0)[0] == paging.Window(0, 1)
    assert paging.rows("abcdefg", 3) == [list("abc"), list("def"), ["g"]]


def test_nav_leads_to_the_pages_either_side_and_every_id_is_unique() -> None:
    """◀ n/N ▶: nothing for one page; the arrows name the pages beside this
    one; n/N and an arrow at an end cannot be pressed and name no page."""
    def page_id(n: int) -> str:
        return f"p{n}"

    assert paging.nav(paging.Window(0, 1), page_id) == []
    middle = paging.nav(paging.Window(2, 5), page_id)
    assert [(b.label, b.id, b.enabled) for b in middle] == [("◀", "p1", True), ("3/5", "p2|i", False),
                                                            ("▶", "p3", True)]
    for at in (paging.Window(0, 3), paging.Window(2, 3)):
        buttons = paging.nav(at, page_id)
        assert len({b.id for b in buttons}) == 3  # unique on the message, pressable or not
        dead = [b for b in buttons if not b.enabled]
        assert len(dead) == 2 and all(b.id not in {page_id(n) for n in range(3)} for b in dead)
        assert [b.id for b in buttons if b.enabled] == [page_id(1)]
        assert [paging.inert(b.id) for b in buttons] == [not b.enabled for b in buttons]
