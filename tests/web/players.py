"""Browser players: a page in headless Chromium that plays like a person taps.

A `WebPlayer` reads only what its page drew (`window.__states`, the
payloads the page rendered) and acts by clicking the page's own buttons:
a card in the hand, a colour in the picker, the menu's buttons. It never
sends a message the page would not send. `play_until` takes turns among
several players until the game ends, and `privacy_scan` checks every
payload each page was ever sent against every hand at that moment.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.support.privacy import mentions
from unobot.cards import parse_card

PHONE = {"width": 390, "height": 844}
GAME_GROUPS = ("turn", "card", "out_of_turn")


@dataclass
class WebPlayer:
    page: Any
    name: str
    refusals: list[str] = field(default_factory=list)

    @classmethod
    async def open(cls, browser: Any, url: str, name: str, *, lang: str = "en-US",
                   phone: bool = False) -> WebPlayer:
        context = await browser.new_context(locale=lang, viewport=PHONE if phone else {"width": 1000, "height": 900})
        # Telegram's own script is the one thing from outside; a test never reaches out.
        await context.route("https://telegram.org/**", lambda route: route.abort())
        page = await context.new_page()
        player = cls(page, name)
        page.on("console", lambda m: m.type == "error" and player.refusals.append("console: " + m.text))
        await page.goto(url)
        return player

    async def state(self) -> dict[str, Any] | None:
        from playwright.async_api import Error

        try:
            s: dict[str, Any] | None = await self.page.evaluate(
                "window.__states && window.__states.length ? window.__states[window.__states.length - 1] : null")
        except Error:  # the page is navigating (the landing page's form moves on to the table)
            return None
        return s

    async def drawn(self) -> int:
        n: int = await self.page.evaluate("window.__states ? window.__states.length : 0")
        return n

    async def sit_down(self) -> None:
        """A browser table's link: type a name, sit down, then press Join when the lobby offers it."""
        await self.page.fill("#name", self.name)
        await self.page.click("#name-form button")
        await self.wait_for(lambda s: s is not None)

    async def wait_for(self, test: Any, timeout: float = 10.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            s = await self.state()
            if test(s):
                assert s is not None or test(None)
                return s  # type: ignore[return-value]
            if time.monotonic() > end:
                raise AssertionError(f"{self.name}: page never showed the expected state; last: "
                                     f"{json.dumps(s)[:600] if s else None}")
            await asyncio.sleep(0.03)

    async def press(self, kind: str) -> None:
        """Click the menu's button of this kind (join, start, add_ai, draw, ...)."""
        await self.page.click(f'#actions button[data-kind="{kind}"]')

    async def toasts(self) -> list[str]:
        found: list[str] = await self.page.eval_on_selector_all("#toasts .toast", "els => els.map(e => e.textContent)")
        return found

    async def take_turn(self, s: dict[str, Any]) -> bool:
        """One tap (and a pick, if the card needs one), as a person plays: UNO with
        a card if offered, else a playable card, else draw, else pass."""
        actions = {a["kind"]: a for a in s["actions"]}
        page = self.page
        uno_play = next((a for a in s["actions"] if a["kind"] == "play"), None)
        if uno_play is not None:
            await page.click(f'#actions button[data-id="{uno_play["id"]}"]')
        elif any(h["playable"] for h in s["hand"]):
            await page.click("#hand button.playable >> nth=0")
        elif "draw_play" in actions and not s["pending"]:
            await page.click('#actions button[data-kind="draw_play"]')
        elif "draw" in actions:
            await page.click('#actions button[data-kind="draw"]')
        elif "pass" in actions:
            await page.click('#actions button[data-kind="pass"]')
        elif s["actions"]:
            await page.click(f'#actions button[data-id="{s["actions"][0]["id"]}"]')
        else:
            return False
        if await page.is_visible("#picker[open]"):
            await page.click("#choices button >> nth=0")
        return True


async def play_until(players: list[WebPlayer], *, max_steps: int = 1500, timeout: float = 240.0) -> dict[str, Any]:
    """Take turns (each on the page of the player on turn) until the match is over."""
    end = time.monotonic() + timeout
    steps = 0
    while steps < max_steps:
        assert time.monotonic() < end, "the game took too long"
        states = [await p.state() for p in players]
        first = states[0]
        assert first is not None
        if first["phase"] in ("finished", "none"):
            return first
        if first["phase"] == "between_rounds":
            await players[0].press("next_round")
            await players[0].wait_for(lambda s: s is not None and s["phase"] != "between_rounds")
            continue
        newest = max(st["version"] for st in states if st is not None)
        mover = next((p for p, st in zip(players, states) if st is not None and st["version"] == newest
                      and st["seat"] is not None and st["seat"] == st["turn"]), None)
        if mover is None:
            await asyncio.sleep(0.03)
            continue
        s = next(st for p, st in zip(players, states) if p is mover)
        assert s is not None
        before = s["version"]
        if await mover.take_turn(s):
            steps += 1
            await mover.wait_for(lambda st, v=before: st is not None and st["version"] != v, timeout=10)
    raise AssertionError(f"no end after {max_steps} steps")


def own_words(code: str) -> list[str]:
    from unobot.chat.render import card_label, card_name

    card = parse_card(code)
    return [card_label(card, "en"), card_label(card, "es"), card_name(card, "en"), card_name(card, "es"), code]


def privacy_scan(sent: dict[str, list[dict[str, Any]]]) -> int:
    """Every state payload each person's pages got: its hand is exactly that
    person's hand then, and nothing but the public parts (top card, the
    moves' lines) names a card that only other hands held. Returns how many
    payloads were checked."""
    checked = 0
    for person, entries in sent.items():
        for entry in entries:
            payload, seat, hands = entry["payload"], entry["seat"], entry["hands"]
            if not hands:
                continue
            checked += 1
            own = Counter(hands[seat]) if seat is not None else Counter()
            shown = Counter()
            for h in payload["hand"]:
                shown[h["code"]] += h["count"]
            if payload["phase"] == "playing":
                assert shown == own, f"{person}: the hand sent is not theirs: {shown} != {own}"
            else:  # between rounds and after the match no hand is shown
                assert not shown - own, f"{person}: cards sent that are not theirs: {shown - own}"
            private = {k: v for k, v in payload.items() if k not in ("recent", "headline", "top", "color_name")}
            # Picture addresses spell the card's code URL-encoded (W%2B4): the code itself is checked.
            text = re.sub(r'"img": "[^"]*"', "", json.dumps(private, ensure_ascii=False))
            # What names the player's own cards is theirs to see; taken out first, so that
            # "Red Skip Everyone" in their hand is not read as another hand's "Red Skip".
            for word in sorted({w for code in own for w in own_words(code)}, key=len, reverse=True):
                text = text.replace(word, "§")
            others = {c for i, h in enumerate(hands) if i != seat for c in h} - set(own)
            for code in others:
                card = parse_card(code)
                assert not mentions(text, card), f"{person}: a payload names {code}, held by another hand: {text[:800]}"
    return checked
