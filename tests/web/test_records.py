"""The players' records on the web table: the panel in a real browser, and
the HTTP API's refusals.

The match is laid out so its result is known: Ana (seat 0) holds one Red 1
on a Red 9, Bea holds R7 G8 B9 (24 points), one round is the whole match.
Ana ends it by tapping her card on her page, through the web table's own
path; the panel then shows core's lines (core/chat/answers.py), which the
test holds to the counts it knows: Ana 1 won of 1 with 24 points, Bea 0 of
1. Bea reads them in Spanish, asks to be forgotten, cancels once (nothing
changes), then confirms. Every refusal (no proof, a forged or expired one,
a token with no seat, a command the page does not offer, a forget-me not
confirmed) changes nothing in the store.
"""

from __future__ import annotations

import time
from typing import Any

import aiohttp
import pytest

from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_refusals import init_data
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.web import links
from unobot.adapters.web.texts import refusal
from unobot.cards import parse_card
from unobot.chat import answers, records, records_text
from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.records_text import bad_period, forget_question
from unobot.chat.service import ChatService
from unobot.chat.table import Table
from unobot.store import Standing

CHAT = "-1007700"
ANA, BEA = c.Person("1", "Ana"), c.Person("2", "Bea")
POINTS = 7 + 8 + 9


async def stage_last_card(web: WebServer) -> None:
    """A group's match (as the bot opens it) on the server's Redis, through a
    service of its own (the web table's has never seen it): Ana and Bea
    seated, started, then the cards laid out so Ana's tap ends the match."""
    store = RedisStore.from_url(web.redis_url, prefix=web.prefix)
    try:
        await store.update_chat_settings(CHAT, {"rules": {"scoring": {"target": 0}}})
        svc = ChatService(store)
        assert (await svc.handle(CHAT, ANA, c.NewGame(variant="official"))).ok
        assert (await svc.handle(CHAT, BEA, c.Join())).ok
        assert (await svc.handle(CHAT, ANA, c.Start())).ok
        game_id = await store.chat_game(CHAT)
        assert game_id is not None
        stored = await store.load_game(game_id)
        assert stored is not None
        table = Table.decode(stored.state, stored.version)
        game = table.game
        assert game is not None and [s.id for s in table.seats] == ["1", "2"]
        hands = [[parse_card("R1")], [parse_card(t) for t in ("R7", "G8", "B9")]]
        top = parse_card("R9")
        pool = list(game.all_cards())
        for card in (*hands[0], *hands[1], top):
            pool.remove(card)
        game.hands, game.discard, game.draw_pile = hands, [top], pool
        game.color, game.turn = "R", 0
        game.pending, game.pending_rank, game.drawn, game.draws = 0, "", None, 0
        game.uno, game.exposed, game.ext, game.legal = 0, -1, {}, None
        table.version += 1
        await store.save_game(game_id, table.encode(), expected_version=stored.version)
    finally:
        await store.close()


def token(web: WebServer, person: c.Person, *, chat: str = CHAT, seconds: float = 600) -> str:
    return links.player_token(web.secret, chat, person.id, person.name, time.time() + seconds)


async def ask(web: WebServer, body: Any) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.post(f"{web.url}/api/records", json=body) as r:
        data: dict[str, Any] = await r.json()
        return r.status, data


def ratings() -> tuple[str, str]:
    """Ana's and Bea's ratings after Ana's win (first and second of two, both new)."""
    won, lost = (records.display_rating(r) for r in records.rate([1, 2], ["", ""]))
    return f"{won:.1f}", f"{lost:.1f}"


def standings(lang: str, title: str, *names: str) -> list[str]:
    """The all-time (or `title`) standings as they must read after Ana's win."""
    _ = gettext_for(lang)
    won, lost = ratings()
    line = _("{rank}. {player}: {wins} won of {games}, {points} points, rating {rating}")
    known = {"Ana": (1, POINTS, won), "Bea": (0, 0, lost)}
    return [_(title), *(line.format(rank=rank, player=name, wins=known[name][0], games=1, points=known[name][1],
                                    rating=known[name][2]) for rank, name in enumerate(names, 1)),
            records_text.rating_note(lang)]


async def finish_by_http(web: WebServer) -> None:
    await stage_last_card(web)
    out = await web.service.handle(CHAT, ANA, c.Play(card="R1"))
    assert out.ok, out.error
    assert await records.top(web.service.store, CHAT), "the match is counted"


async def panel(player: WebPlayer, what: str, before: int | None = None) -> list[str]:
    """Press a records button (or a period, `what` = week|month|all); the lines the panel then shows."""
    n = await player.page.evaluate("window.__records.length") if before is None else before
    selector = f'#periods button[data-period="{what}"]' if what in ("week", "month", "all") \
        else f'#records-menu button[data-what="{what}"]'
    await player.page.click(selector)
    await player.page.wait_for_function(f"window.__records.length > {n}")
    lines: list[str] = await player.page.evaluate(
        "Array.from(document.querySelectorAll('#records-out h3, #records-out li, #records-out p'))"
        ".map(e => e.textContent)")
    return lines


async def test_the_records_panel_after_a_match_ended_on_the_page(web: WebServer, browser: Any) -> None:
    await stage_last_card(web)
    ana = await WebPlayer.open(browser, f"{web.url}/?p={token(web, ANA)}", "Ana")
    bea = await WebPlayer.open(browser, f"{web.url}/?p={token(web, BEA)}", "Bea", lang="es-ES")
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "playing" and s["turn"] == 0)
    assert [h["code"] for h in s["hand"]] == ["R1"]
    # Before the match ends: nothing counted, in each page's language.
    assert await panel(ana, "top") == [gettext_for("en")("Standings: all time"),
                                       gettext_for("en")("No finished match is counted here yet.")]
    await bea.wait_for(lambda s: s is not None and s["phase"] == "playing")
    es = gettext_for("es")
    assert await bea.page.text_content("#records-title") == es("Records")
    assert await panel(bea, "me") == [es("{player}'s record").format(player="Bea"),
                                      es("You have not finished a match yet.")]
    # Ana taps her last card: the match ends through the web table, and is counted.
    await ana.page.click("#hand button.playable")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "finished")
    won, _lost = ratings()
    assert await panel(ana, "top") == standings("en", "Standings: all time", "Ana", "Bea")
    assert await ana.page.is_visible("#periods")
    assert await panel(ana, "week") == standings("en", "Standings: this week", "Ana", "Bea")
    assert await panel(ana, "month") == standings("en", "Standings: this month", "Ana", "Bea")
    assert await ana.page.get_attribute('#periods button[data-period="month"]', "aria-pressed") == "true"
    assert await panel(ana, "me") == [
        "Ana's record", f"Here: 1 won of 1, points {POINTS}, rating {won}", records_text.rating_note("en")]
    assert await ana.page.is_hidden("#periods"), "the period switch goes with the standings only"
    last = await panel(ana, "last")
    assert last[:2] == ["The last match", "Ana won after 1 round (moves: 1)."]
    assert last[2:4] == [f"Ana: {POINTS} points", "Bea: 0 points"]
    # The page shows what core says, line for line.
    assert last == await answers.reading_lines(web.service.store, "last", CHAT, ANA, "en")
    # Bea, in Spanish: the standings, then forget me, cancelled once (nothing changes), then confirmed.
    await bea.wait_for(lambda s: s is not None and s["phase"] == "finished")
    assert await panel(bea, "top") == standings("es", "Standings: all time", "Ana", "Bea")
    assert await bea.page.text_content('#periods button[aria-pressed="true"]') == es("All time")
    n = await bea.page.evaluate("window.__records.length")
    await bea.page.click('#records-menu button[data-what="forgetme"]')
    await bea.page.wait_for_selector("#confirm[open]")
    assert await bea.page.text_content("#confirm-text") == forget_question("es")
    assert await bea.page.text_content("#confirm-yes") == es("Forget me")
    await bea.page.click("#confirm-no")
    await bea.page.wait_for_selector("#confirm", state="hidden")
    assert await panel(bea, "top", n) == standings("es", "Standings: all time", "Ana", "Bea"), "nothing forgotten"
    n = await bea.page.evaluate("window.__records.length")
    await bea.page.click('#records-menu button[data-what="forgetme"]')
    await bea.page.wait_for_selector("#confirm[open]")
    await bea.page.click("#confirm-yes")
    await bea.page.wait_for_function(f"window.__records.length > {n}")
    assert await bea.page.text_content("#records-out") == \
        es("Your records are removed, and your name is gone from the kept games.")
    assert await panel(bea, "me") == [es("{player}'s record").format(player="Bea"),
                                      es("You have not finished a match yet.")]
    # Ana's page kept her period (this month) and shows the switch again.
    assert await panel(ana, "top") == standings("en", "Standings: this month", "Ana")
    assert await panel(ana, "all") == standings("en", "Standings: all time", "Ana")
    assert "Bea" not in " ".join(await panel(ana, "last"))
    assert not [r for r in ana.refusals + bea.refusals if "console" in r]


# -- the HTTP API's refusals --------------------------------------------------------------------

async def test_records_answer_core_lines_for_the_proven_person(web: WebServer) -> None:
    await finish_by_http(web)
    status, got = await ask(web, {"what": "top", "auth": {"player": token(web, BEA)}, "lang": "es"})
    assert status == 200 and got["lines"] == standings("es", "Standings: all time", "Ana", "Bea")
    # `me` is the person the token names, whatever the page says it is.
    status, got = await ask(web, {"what": "me", "auth": {"player": token(web, BEA)}, "person": "1", "name": "Ana"})
    assert got["lines"][0] == "Bea's record" and " 0 won of 1, points 0" in got["lines"][1]
    # A period in any language's words; a word that names none is said so.
    status, got = await ask(web, {"what": "top", "period": "semana", "auth": {"player": token(web, ANA)}})
    assert got["lines"] == standings("en", "Standings: this week", "Ana", "Bea")
    status, got = await ask(web, {"what": "top", "period": "fortnight", "auth": {"player": token(web, ANA)},
                                  "lang": "es"})
    assert status == 200 and got["lines"] == [
        *bad_period("es")]
    # A Telegram member's initData proves them too (the Mini App's own proof).
    data = init_data(2, "Bea", start=links.table_token(web.secret, CHAT), lang="es")
    status, got = await ask(web, {"what": "me", "auth": {"init_data": data, "table": ""}})
    assert status == 200 and got["lines"][0] == gettext_for("es")("{player}'s record").format(player="Bea")


@pytest.mark.parametrize(("case", "lang", "code", "expected"), [
    ("none", "en", "no_auth", "Open the table from the link on a game's message."),
    ("not json", "es", "no_auth", None),
    ("edited token", "en", "bad_link", "This link is not valid for any table."),
    ("other secret", "es", "bad_link", None),
    ("expired", "es", "expired", "ha caducado"),
    ("forged init data", "en", "forged", "does not check out"),
    ("table token only", "es", "no_person", None),
])
async def test_a_missing_or_forged_proof_is_refused_and_forgets_nothing(
        web: WebServer, case: str, lang: str, code: str, expected: str | None) -> None:
    await finish_by_http(web)
    before = await records.top(web.service.store, CHAT)
    assert [x.name for x in before] == ["Ana", "Bea"]
    genuine = token(web, BEA)
    if case == "none":
        auth: Any = None
    elif case == "edited token":  # Bea's token edited to name Ana fails its signature
        body, _sep, mac = genuine.partition(".")
        auth = {"player": links._b64(links._unb64(body).replace(b'"2"', b'"1"')) + "." + mac}
    elif case == "other secret":
        auth = {"player": links.player_token(b"another secret", CHAT, "1", "Ana", time.time() + 600)}
    elif case == "expired":
        auth = {"player": token(web, ANA, seconds=-1)}
    elif case == "forged init data":
        auth = {"init_data": init_data(1, "Ana", token="999:not-this-bot", start=links.table_token(web.secret, CHAT))}
    elif case == "table token only":  # a browser table's share link: whoever opens it has no seat yet
        auth = {"table": links.table_token(web.secret, "web.0123456789abcdef")}
    for what in ("forgetme", "top", "me", "last"):
        if case == "not json":
            async with aiohttp.ClientSession() as http, http.post(
                    f"{web.url}/api/records?lang={lang}", data=b"{not json", headers={"Content-Type": "text/plain"}) as r:
                status, got = r.status, await r.json()
        else:
            status, got = await ask(web, {"what": what, "confirm": True, "auth": auth, "lang": lang})
        assert status == 403 and got["code"] == code, (what, got)
        assert "lines" not in got
        assert got["error"] == refusal(code, lang)
        if expected is not None:
            assert expected in got["error"]
    assert await records.top(web.service.store, CHAT) == before, "nothing forgotten"


async def test_a_forget_me_waits_for_its_confirmation_and_nothing_else_is_offered(web: WebServer) -> None:
    await finish_by_http(web)
    before = await records.top(web.service.store, CHAT)
    bea = {"player": token(web, BEA)}
    for confirm in (None, False, "yes", 1):  # only `true` confirms
        body = {"what": "forgetme", "auth": bea, "lang": "es", **({} if confirm is None else {"confirm": confirm})}
        status, got = await ask(web, body)
        assert status == 200 and got == {"what": "forgetme", "confirm": forget_question("es")}
    # The admin's reset and the chat's /stats are the chats' own, not the page's; nor is anything made up.
    for what in ("reset", "stats", "topp", None, 3):
        status, got = await ask(web, {"what": what, "auth": bea, "lang": "es"})
        assert status == 400 and got["code"] == "bad_record", what
        assert got["error"] == gettext_for("es")("There is no such record to show.")
    assert await records.top(web.service.store, CHAT) == before, "nothing forgotten, nothing reset"
    status, got = await ask(web, {"what": "forgetme", "confirm": True, "auth": bea, "lang": "es"})
    assert status == 200 and got["lines"] == [
        gettext_for("es")("Your records are removed, and your name is gone from the kept games.")]
    assert [x.name for x in await records.top(web.service.store, CHAT)] == ["Ana"]


async def test_my_record_names_the_other_places_as_their_players_know_them(web: WebServer) -> None:
    """The page's "My record" (core's `/me`) named another chat "Elsewhere (-1008800)": now
    by its title as the Telegram bot last saw it, a place no front-end named by its kind in
    the page's language, never by an id."""
    await finish_by_http(web)
    store = web.service.store
    await web.service.note_place("-1008800", "telegram", "Friday UNO")  # as the Telegram bot notes its groups
    for chat in ("-1008800", "dc_5_6"):
        standing = Standing("all", None, BEA.id, BEA.name, wins=1, games=1, points=3)
        assert await store.archive_game(chat, f"{chat}#1", {"players": []}, [standing])
    status, got = await ask(web, {"what": "me", "auth": {"player": token(web, BEA)}, "lang": "es"})
    assert status == 200, got
    lines = got["lines"]
    assert lines[1].startswith(gettext_for("es")("Here") + ": "), lines
    assert any(line.startswith("Friday UNO: ") for line in lines), lines
    assert any(line.startswith("Un canal de Discord: ") for line in lines), lines
    assert not any("-1008800" in line or "dc_5_6" in line for line in lines), lines
