"""Driving the web table's settings panel as a person does: open it, press its buttons.

The panel is core's `SettingsMenu` as the server sent it (`window.__settings`,
every panel the page drew); a press is a click on the button that carries
the press id (`data-press`), and is done once the page has drawn the panel
the server answered with (after a save, or after a refusal).
"""

from __future__ import annotations

from typing import Any

#: Milliseconds a page is given to draw what the server sent.
SHOWN = 10_000
LAST_PANEL = "window.__settings.length ? window.__settings[window.__settings.length - 1] : null"


async def panels(page: Any) -> int:
    n: int = await page.evaluate("window.__settings ? window.__settings.length : 0")
    return n


async def open_panel(page: Any) -> dict[str, Any]:
    """Open the settings panel (an admin's page asks for it with its first state); the panel drawn."""
    await page.wait_for_selector("#settings:not([hidden])", timeout=SHOWN)
    await page.wait_for_function("window.__settings && window.__settings.length > 0", timeout=SHOWN)
    if not await page.evaluate("document.getElementById('settings-box').open"):
        await page.click("#settings-title")
    await page.wait_for_selector("#settings-body button[data-press]", timeout=SHOWN)
    panel: dict[str, Any] = await page.evaluate(LAST_PANEL)
    return panel


async def press(page: Any, press_id: str, *, typed: str | None = None) -> dict[str, Any]:
    """Click the panel's button for `press_id` (or type `typed` into its number box and
    send it); the panel the page drew next."""
    before = await panels(page)
    if typed is None:
        await page.click(f'#settings-body button[data-press="{press_id}"]')
    else:
        option = press_id.replace("t:", "o:", 1)
        await page.fill(f'#settings-body [data-option="{option}"] form.typed input', typed)
        await page.click(f'#settings-body [data-option="{option}"] form.typed button')
    await page.wait_for_function(f"window.__settings.length > {before}", timeout=SHOWN)
    panel: dict[str, Any] = await page.evaluate(LAST_PANEL)
    return panel


def entry(panel: dict[str, Any], press_id: str) -> dict[str, Any] | None:
    """The entry of the panel with this press id, in any of its lists."""
    for group in panel["groups"]:
        for e in group["entries"]:
            if e["id"] == press_id:
                return dict(e)
    for option in panel["options"]:
        for e in option["choices"] + option["steps"]:
            if e["id"] == press_id:
                return dict(e)
    return None


async def said(page: Any) -> list[str]:
    """Every toast the page has shown (refusals, "Saved"), gone from the screen or not."""
    found: list[str] = await page.evaluate("window.__toasts")
    return found
