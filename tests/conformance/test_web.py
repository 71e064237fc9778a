"""The situations through the web table: a real page in headless Chromium, taps and picks.

One web server (the real aiohttp app on the shared redis-server) and one
browser for the module; each situation gets a new browser-only table and
new people, seated the way people sit down at one: Ann opens it with the
web table's own call (`POST /api/new`, the situation's variant and rules),
Ben and Cat open her share link, type their names and press Join, Ann
presses Start. The deal is then laid in the store; the pages are shown it
by the server (the store's change feed), and the person who acts:

- the offer: their page shows the model's menu (`actions.menu(...).grouped()`,
  in their language) in the page's terms: a card in the hand is tapped for
  its plain play (in turn, or a jump-in), and carries that action's id
  (`data-action`); every other action is a button of the actions bar
  (`data-id`, `data-kind`, its label and hint), in the model's order; the cards not
  playable now are the model's `unplayable`, greyed; where an action still
  needs a pick (a colour, a Seven-O target) the page's picker lists the
  model's choices (ids and labels), in order;
- the result: the tap (and the pick) is made by clicking like a person, and
  once the page has drawn the next version the stored game is the model's
  own result of that action on the laid table (`reference`).

The chat's rules: a browser table's creator is its admin, and the page
gives an admin a settings panel drawn from core's settings menu (every
entry a button carrying the menu's press id). As test_telegram.py and
test_discord.py do through their /rules, each house rule is turned on
through the panel (the shared rules it cannot go with turned off first,
through the panel too), and an option of each kind is set with the button
its panel offers for the value; the chat's stored rules must be the
model's (`rules_after` of the same commands). The situations' own rules
are still given to `POST /api/new` (the page's web call), and checked the
same way.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from tests.conformance.conftest import new_prefix
from tests.conformance.situations import (
    MANAGED,
    MATCH_OVER,
    OPTIONS,
    SITUATIONS,
    TIMED,
    TIMER_SECONDS,
    Situation,
    again_offer,
    game_of,
    house_rules,
    lay,
    managed_result,
    reference,
    replayed,
    rule_commands,
    rules_after,
    timed_out,
)
from tests.support.redis_server import RedisServer
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, WebServer
from tests.web.players import WebPlayer
from tests.web.settings_panel import open_panel, press, said
from unobot.chat import actions
from unobot.chat import commands as c
from unobot.chat.lobby import last_match
from unobot.chat.option_values import encode_value
from unobot.chat.settings_menu import key_of, rule_ref
from unobot.chat.table import PLAYING, Table
from unobot.registry import available_rules
from unobot.rule import option_specs

pytestmark = pytest.mark.asyncio(loop_scope="module")
NAMES = ("Ann", "Ben", "Cat", "Dan")
#: Milliseconds a page is given to draw what the server sent (a press, a pick, a push).
SHOWN = 10_000

#: The last state the page drew, and what it drew of it (after `draw`, nothing is pending).
LAST = "window.__states.length ? window.__states[window.__states.length - 1] : null"
BUTTONS = "els => els.map(e => [e.dataset.id, e.dataset.kind, e.textContent, e.title])"
CARDS = ("els => els.map(e => [e.dataset.code, e.querySelector('.code').textContent,"
         " e.dataset.action || null, e.classList.contains('playable'), e.getAttribute('aria-disabled') === 'true'])")
CHOICES = "els => els.map(e => [e.dataset.id, e.textContent])"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def web(redis_server: RedisServer) -> AsyncIterator[WebServer]:
    server = await WebServer(redis_server.url, new_prefix("web")).start()
    yield server
    await server.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def devices() -> AsyncIterator[list[Any]]:
    """One browser for the module and a browser context (a device: its own storage) for each
    name; every situation opens new pages in them, for new people at a new table."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        contexts = []
        for _name in NAMES:
            context = await browser.new_context(locale="en-US", viewport={"width": 1000, "height": 900})
            # Telegram's own script is the one thing from outside; a test never reaches out.
            await context.route("https://telegram.org/**", lambda route: route.abort())
            contexts.append(context)
        yield contexts
        await browser.close()


async def new_player(device: Any, name: str) -> WebPlayer:
    """A new page on `device` (as `WebPlayer.open` makes one, on a context kept for the module)."""
    page = await device.new_page()
    player = WebPlayer(page, name)

    def console(message: Any) -> None:  # an error in the page's own console is a refusal of the test's
        if message.type == "error":
            player.refusals.append("console: " + message.text)

    page.on("console", console)
    return player


async def shows_version(player: WebPlayer, version: int) -> dict[str, Any]:
    """The state the page drew once it has drawn `version` (the newest it was sent)."""
    await player.page.wait_for_function(f"(() => {{ const s = {LAST}; return s && s.version === {version}; }})()",
                                        timeout=SHOWN)
    s: dict[str, Any] = await player.page.evaluate(LAST)
    return s


async def laid_out(web: WebServer, devices: list[Any], s: Situation,
                   players: list[WebPlayer]) -> tuple[str, Table]:
    """A browser table playing `s`: opened with its variant and rules, its people
    seated through their pages (put in `players`), its deal laid; every page has drawn the deal."""
    async with aiohttp.ClientSession() as http, http.post(
            f"{web.url}/api/new", json={"name": NAMES[0], "variant": s.variant, "lang": "en",
                                        "rules": s.rules}) as r:
        assert r.status == 200, await r.text()
        made: dict[str, Any] = await r.json()
    chat = made["chat"]
    got = (await web.service.settings(chat)).get("rules") or {}
    assert got == await rules_after(rule_commands(s.rules)), got
    players.extend([await new_player(device, name) for device, name in zip(devices, NAMES[:len(s.hands)])])
    ann, others = players[0], players[1:]

    async def at_the_table(p: WebPlayer) -> None:  # the others: the share link, a name, sat down
        await p.page.goto(made["link"])
        await p.page.wait_for_selector("#name-step:not([hidden])")
        await p.sit_down()
        await p.page.wait_for_selector('#actions button[data-kind="join"]')

    await asyncio.gather(ann.page.goto(f"{web.url}/?p={made['player']}"), *map(at_the_table, others))
    await ann.wait_for(lambda st: st is not None and st["phase"] == "lobby")
    for p in others:  # joined one after the other: the seats in the situation's order
        await p.press("join")
        await p.wait_for(lambda st: st is not None and st["seat"] is not None)
    await ann.wait_for(lambda st: st is not None and len(st["seats"]) == len(s.hands))
    await ann.press("start")
    started = await ann.wait_for(lambda st: st is not None and st["phase"] == "playing")
    assert [p["name"] for p in sorted(started["seats"], key=lambda p: p["seat"])] == list(NAMES[:len(s.hands)])

    def rig(table: Table) -> list[str]:
        lay(table, s)
        return []

    table = await web.service.mutate(chat, rig)
    assert table is not None and table.phase == PLAYING
    assert [seat.name for seat in table.seats] == list(NAMES[:len(s.hands)])
    for seat, p in enumerate(players):  # the laid deal reaches every page (the store's change feed)
        assert (await shows_version(p, table.version))["seat"] == seat
    return chat, table


def in_the_hand(a: actions.Action) -> bool:
    """Whether the page puts `a` on a card of the hand (tapped), rather than a button."""
    return a.kind == actions.PLAY and a.card is not None and not a.uno and a.group in (actions.CARD,
                                                                                          actions.OUT_OF_TURN)


@pytest.mark.parametrize("s", SITUATIONS, ids=str)
async def test_web_offers_the_model_and_reaches_its_state(web: WebServer, devices: list[Any],
                                                         s: Situation) -> None:
    players: list[WebPlayer] = []
    try:
        chat, table = await laid_out(web, devices, s, players)
        actor = players[s.actor]
        page = actor.page
        person = table.seats[s.actor].id
        menu = actions.menu(table, person, "en")
        wanted = s.pick(menu)
        assert wanted is not None, f"{s.name}: the model offers no such action: {[a.id for a in menu.actions]}"
        grouped = menu.grouped()
        taps: dict[str, actions.Action] = {}  # a card's code: its tap (the first plain play of it)
        for a in grouped:
            if in_the_hand(a) and a.card is not None:
                taps.setdefault(a.card.text, a)
        tapped = list(taps.values())  # in the model's order
        buttons = [a for a in grouped if all(a is not t for t in tapped)]

        # The offer: the buttons are the model's other actions, in its order; the cards are the hand,
        # each playable one carrying its play's id, the rest greyed.
        shown = await page.eval_on_selector_all("#actions button", BUTTONS)
        assert shown == [[a.id, a.kind, a.label, a.hint] for a in buttons], shown
        hand = await page.eval_on_selector_all("#hand button.card", CARDS)
        assert menu.hand is not None
        assert [h[:3] for h in hand] == [
            [hc.card.text, hc.card.text + (f" ×{hc.count}" if hc.count > 1 else ""),
             taps[hc.card.text].id if hc.card.text in taps else None] for hc in menu.hand.cards], hand
        assert all(h[3] == (h[2] is not None) and h[4] == (h[2] is None) for h in hand), hand
        assert [h[0] for h in hand if h[4]] == [hc.card.text for hc in actions.unplayable(menu.hand)], hand
        assert [h[2] for h in hand if h[2]] == [t.id for t in tapped], hand

        # The pick, as a person makes it: the card (or the button), then the picker's choice if it asks.
        parent: actions.Action = next((x for x in grouped if x.needs and wanted in x.choices), None) \
            or next(x for x in grouped if x.id == wanted.id)
        where = (f'#hand button[data-action="{parent.id}"]' if any(parent is t for t in tapped)
                 else f'#actions button[data-id="{parent.id}"]')
        drawn = await actor.drawn()
        await page.click(where)
        if parent.needs:
            await page.wait_for_selector("#picker[open]")
            choices = await page.eval_on_selector_all("#choices button", CHOICES)
            # each choice says only what it adds to the picker's title (core's `choice_label`)
            assert choices == [[x.id, parent.choice_label(x)] for x in parent.choices], choices
            await page.click(f'#choices button[data-id="{wanted.id}"]')
        else:
            assert not await page.is_visible("#picker[open]")
        # Drawn next: the table after the pick, or (refused) the same version pushed again.
        await page.wait_for_function(f"window.__states.length > {drawn}", timeout=SHOWN)
        versions = await page.evaluate(f"window.__states.slice({drawn}).map(s => s.version)")
        assert table.version not in versions, f"the page was refused: {await actor.toasts()}"
        after = await web.service.table(chat)
        assert after is not None
        assert after.version == table.version + 1, "the pick was not taken"
        expected = reference(table, c.Person(person, NAMES[s.actor]), wanted.command, web.service.clock())
        assert game_of(after) == game_of(expected)
        assert [r for p in players for r in p.refusals] == []
    finally:
        for p in players:
            await p.page.close()


async def test_web_offers_play_again_after_the_match_as_the_model_does(web: WebServer, devices: list[Any]) -> None:
    """The match's last card: every page offers the model's way on (Play again, by its
    label), and a press seats everyone again as the model says, at the same link."""
    s = MATCH_OVER
    players: list[WebPlayer] = []
    try:
        chat, table = await laid_out(web, devices, s, players)
        await players[s.actor].page.click('#hand button[data-code="R5"]')
        final = None
        for _ in range(100):
            final = await last_match(web.service, chat)
            if final is not None:
                break
            await asyncio.sleep(0.1)
        assert final is not None
        for p in players:
            await p.wait_for(lambda st: st is not None and st["phase"] == "finished")
            await p.page.wait_for_selector('#actions button[data-kind="again"]')
            shown = await p.page.eval_on_selector_all("#actions button", BUTTONS)
            assert [label for _id, _kind, label, _title in shown] == again_offer(final, "en"), shown
        await players[1].page.click('#actions button[data-kind="again"]')
        for p in players:
            await p.wait_for(lambda st: st is not None and st["phase"] == "lobby")
        replayed(await web.service.table(chat), final)
        assert [r for p in players for r in p.refusals] == []
    finally:
        for p in players:
            await p.page.close()


@pytest.mark.parametrize("s", MANAGED, ids=str)
async def test_web_leaves_and_stops_as_the_model_does(web: WebServer, devices: list[Any], s: Situation) -> None:
    """The page's Leave and Stop buttons are the model's (label, question), shown to whom
    it offers them; confirmed, they end what the model ends."""
    players: list[WebPlayer] = []
    try:
        chat, table = await laid_out(web, devices, s, players)
        page = players[s.actor].page
        person = c.Person(table.seats[s.actor].id, NAMES[s.actor])
        wanted = s.pick(actions.menu(table, person.id, "en"))
        assert wanted is not None, "the model offers it"
        button = "#stop" if s.name == "stop" else "#leave"
        assert await page.is_visible(button) and await page.text_content(button) == wanted.label
        await page.click(button)
        await page.wait_for_selector("#stop-confirm[open]")
        assert await page.text_content("#stop-text") == wanted.confirm
        await page.click("#stop-yes")
        got: Table | None = table
        for _ in range(100):
            await asyncio.sleep(0.1)
            got = await web.service.table(chat)
            if got is None or got.version > table.version:
                break
        managed_result(got, s, table, person)
        assert [r for p in players for r in p.refusals] == []
    finally:
        for p in players:
            await p.page.close()


@pytest.mark.parametrize("s", TIMED, ids=str)
async def test_web_lets_the_turn_timer_run_out(web: WebServer, devices: list[Any], s: Situation) -> None:
    """Nobody acts: the server's own wake (on the wall clock) times the turn out as the
    model does, and every page draws the table it left."""
    players: list[WebPlayer] = []
    try:
        chat, table = await laid_out(web, devices, s, players)
        # The timer planned at the start is the dealt table's (laying the deal made it stale):
        # plan the laid table's, as the server plans after every move.
        web.table.waker.after(chat, table)
        after = table
        for _ in range(int((TIMER_SECONDS + 10) / 0.1)):
            await asyncio.sleep(0.1)
            got = await web.service.table(chat)
            if got is not None and got.version > table.version:
                after = got
                break
        assert after.version > table.version, "the timer did not ring"
        assert game_of(after) == game_of(timed_out(table))
        for p in players:  # drawn (or a later table: the next turn's timer rings 2 s on)
            await p.page.wait_for_function(
                f"(() => {{ const s = {LAST}; return s && s.version >= {after.version}; }})()", timeout=SHOWN)
        assert [r for p in players for r in p.refusals] == []
    finally:
        for p in players:
            await p.page.close()


async def admin_at_a_new_table(web: WebServer, devices: list[Any]) -> tuple[str, WebPlayer]:
    """A new browser table, its maker's page in its lobby with the settings panel open."""
    async with aiohttp.ClientSession() as http, http.post(
            f"{web.url}/api/new", json={"name": NAMES[0], "variant": "official", "lang": "en"}) as r:
        assert r.status == 200, await r.text()
        made: dict[str, Any] = await r.json()
    ann = await new_player(devices[0], NAMES[0])
    await ann.page.goto(f"{web.url}/?p={made['player']}")
    await ann.wait_for(lambda st: st is not None and st["phase"] == "lobby" and st["admin"])
    await open_panel(ann.page)
    return made["chat"], ann


@pytest.mark.parametrize("rule", house_rules())
async def test_web_turns_each_house_rule_on(web: WebServer, devices: list[Any], rule: str) -> None:
    """The panel offers every house rule; pressing it sets what the model's SetRule sets."""
    chat, ann = await admin_at_a_new_table(web, devices)
    try:
        off = [other for other in available_rules()[rule].conflicts if available_rules()[other].base]
        for other in off:
            await press(ann.page, "off:" + rule_ref(other))
        panel = await press(ann.page, "on:" + rule_ref(rule))
        got = (await web.service.settings(chat)).get("rules") or {}
        assert got == await rules_after([*(c.SetRule(rule=other, enabled=False) for other in off),
                                         c.SetRule(rule=rule, enabled=True)])
        assert rule in got
        switch = next(e for g in panel["groups"] for e in g["entries"] if e["id"] == "off:" + rule_ref(rule))
        assert switch["on"] is True
        assert ann.refusals == [] and set(await said(ann.page)) == {"Saved. The game waiting for players here plays it too."}
    finally:
        await ann.page.close()


@pytest.mark.parametrize(("rule", "option", "value"), OPTIONS, ids=[f"{r}.{o}" for r, o, _ in OPTIONS])
async def test_web_sets_an_option_of_each_kind(web: WebServer, devices: list[Any], rule: str, option: str,
                                              value: object) -> None:
    """A bool switch, a number's step, a Literal's choice: the same rules as the model's SetRule."""
    chat, ann = await admin_at_a_new_table(web, devices)
    try:
        await press(ann.page, "on:" + rule_ref(rule))
        index, spec = next((i, s) for i, s in enumerate(option_specs(available_rules()[rule])) if s.name == option)
        key = f"{key_of(rule)}:{index}"
        offered = await ann.page.eval_on_selector_all(f'#settings-body [data-option="o:{key}"] button[data-press]',
                                                      "els => els.map(e => e.dataset.press)")
        setter = f"s:{key}:{encode_value(spec, value)}"
        assert setter in offered, offered
        await press(ann.page, setter)
        got = (await web.service.settings(chat)).get("rules") or {}
        assert got == await rules_after([c.SetRule(rule=rule, enabled=True),
                                         c.SetRule(rule=rule, option=option, value=value)])
        assert got[rule] == {option: value}
        assert ann.refusals == [] and set(await said(ann.page)) == {"Saved. The game waiting for players here plays it too."}
    finally:
        await ann.page.close()
