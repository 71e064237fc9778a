"""Paging by construction: any number of select options and buttons fits
Discord's limits (25 options a select, 5 buttons a row, 5 rows) page by
page, and every item is on some page (nothing is cut)."""

from __future__ import annotations

import discord
import pytest

from tests.discord_api import DiscordAPIServer
from unobot.adapters.discord import render
from unobot.chat import paging
from unobot.chat import panel_ids as ids


def page_items(view: discord.ui.View | None) -> tuple[list[str], list[str], list[dict[str, object]]]:
    assert view is not None
    rows = view.to_components()
    DiscordAPIServer()._check_components(rows)  # the local server's limits: raises on any breach
    options = [str(o["value"]) for r in rows for comp in r["components"] if comp["type"] == 3
               for o in comp["options"]]
    buttons = [str(comp["custom_id"]) for r in rows for comp in r["components"]
               if comp["type"] == 2 and not comp.get("disabled")]
    cids = [str(comp["custom_id"]) for r in rows for comp in r["components"]]
    assert len(cids) == len(set(cids)), "custom_ids on a message are unique"
    return options, buttons, rows


@pytest.mark.parametrize(("n_options", "n_buttons"), [(0, 0), (3, 4), (25, 15), (26, 0), (60, 41), (0, 26),
                                                      (130, 3), (7, 200)])
def test_every_item_is_on_a_page(n_options: int, n_buttons: int) -> None:
    options = [discord.SelectOption(label=f"card {i}", value=f"p{i}") for i in range(n_options)]
    buttons = [render.button(f"b{i}", ids.act(3, f"m{i}")) for i in range(n_buttons)]
    panel = render.Panel(selects=[render.Select(lambda p: ids.select(3, p), "pick", options)], buttons=buttons,
                         fixed=[render.button("🔄", ids.refresh(3))], page_id=lambda p: ids.page(3, p))
    count = paging.sheet(render.LIMITS, [options], buttons, 1, 0).window.count
    seen_options: list[str] = []
    seen_buttons: list[str] = []
    for page in range(count):
        got, pressed, _rows = page_items(render.paged(panel, page))
        seen_options += got
        seen_buttons += [b for b in pressed if b.startswith("u|a|")]
        assert len(got) <= 25
    assert seen_options == [o.value for o in options]
    assert seen_buttons == [b.custom_id for b in buttons]
    if n_options > 25 or n_buttons > 15:
        assert count > 1
    # The ◀ ▶ buttons name pages that exist, and parse back.
    _o, pressed, _rows = page_items(render.paged(panel, 0))
    for cid in pressed:
        if cid.startswith("u|pg|"):
            press = ids.parse(cid)
            assert press is not None and 0 <= press.page < count


def test_a_page_past_the_end_shows_the_last() -> None:
    buttons = [render.button(f"b{i}", ids.act(1, f"m{i}")) for i in range(40)]
    panel = render.Panel(buttons=buttons, page_id=lambda p: ids.page(1, p))
    count = paging.sheet(render.LIMITS, [], buttons, 0, 0).window.count
    last = page_items(render.paged(panel, count - 1))[1]
    assert page_items(render.paged(panel, 99))[1] == last
