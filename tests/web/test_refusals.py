"""Who may see what: forged and expired initData, other people's and other
games' tokens, stale tabs. Each is refused with a translated message and
changes nothing (the table's version stays)."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest

from tests.web.conftest import BOT_TOKEN, WebServer
from tests.web.players import WebPlayer
from unobot.adapters.web import links
from unobot.adapters.web.texts import refusal
from unobot.chat import commands as c
from unobot.chat.render import error_text

GROUP = "-1001234"


def init_data(user_id: int, name: str, *, token: str = BOT_TOKEN, age: float = 0, start: str = "",
              lang: str = "en") -> str:
    fields = {"auth_date": str(int(time.time() - age)), "query_id": "AAH",
              "user": json.dumps({"id": user_id, "first_name": name, "language_code": lang})}
    if start:
        fields["start_param"] = start
    return links.sign_init_data(token, fields)


async def group_game(web: WebServer) -> None:
    """A Telegram group's game (as the bot would open it): Ana (1) and Bea (2) seated, started."""
    svc = web.service
    ana, bea = c.Person("1", "Ana"), c.Person("2", "Bea")
    assert (await svc.handle(GROUP, ana, c.NewGame(variant="official"))).ok
    assert (await svc.handle(GROUP, bea, c.Join())).ok
    assert (await svc.handle(GROUP, ana, c.Start())).ok


def mini_app_url(web: WebServer, data: str) -> str:
    token = links.table_token(web.secret, GROUP)
    return f"{web.url}/?tgWebAppStartParam={token}#tgWebAppData={quote(data)}"


async def message_of(player: WebPlayer) -> str:
    await player.page.wait_for_selector("#message:not([hidden])")
    return (await player.page.text_content("#message")) or ""


async def version(web: WebServer) -> int:
    table = await web.service.table(GROUP)
    assert table is not None
    return table.version


async def test_a_genuine_init_data_shows_the_players_own_hand(web: WebServer, browser: Any) -> None:
    await group_game(web)
    token = links.table_token(web.secret, GROUP)
    bea = await WebPlayer.open(browser, mini_app_url(web, init_data(2, "Bea", start=token, lang="es")), "Bea")
    s = await bea.wait_for(lambda s: s is not None and s["phase"] == "playing")
    table = await web.service.table(GROUP)
    assert table is not None and table.game is not None
    assert sorted(h["code"] for h in s["hand"] for _ in range(h["count"])) == \
        sorted(card.text for card in table.game.hands[1])
    assert "Tu mano" in (await bea.page.text_content("#hand-title") or "")  # Telegram's language_code


@pytest.mark.parametrize(("case", "lang", "expected"), [
    ("forged", "en", "does not check out"),
    ("expired", "es", "ha caducado"),
    ("other bot's link", "en", "not valid for any table"),
])
async def test_a_bad_proof_is_refused_and_changes_nothing(web: WebServer, browser: Any, case: str, lang: str,
                                                          expected: str) -> None:
    await group_game(web)
    before = await version(web)
    token = links.table_token(web.secret, GROUP)
    if case == "forged":  # signed with another bot's token
        data = init_data(1, "Ana", token="999:not-this-bot", start=token)
    elif case == "expired":  # two days old, a day is allowed (said in its user's Telegram language)
        data = init_data(1, "Ana", age=2 * 86400, start=token, lang=lang)
    else:  # a genuine user, but the table token was made with another server's secret
        data = init_data(1, "Ana", start=links.table_token(b"another secret", GROUP))
    page = await WebPlayer.open(browser, mini_app_url(web, data), "Ana", lang=lang)
    assert expected in await message_of(page)
    assert await page.state() is None, "no table was shown"
    assert await version(web) == before


async def ws_send(web: WebServer, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Send messages as a page would (or a forger would), collect the answers."""
    got: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{web.url}/ws") as ws:
        for m in messages:
            await ws.send_str(json.dumps(m))
            while True:
                msg = await ws.receive(timeout=5)
                data = json.loads(msg.data)
                got.append(data)
                if data["type"] in ("state", "refused", "need_name", "player"):
                    break
    return got


async def test_another_players_token_or_a_forged_act_changes_nothing(web: WebServer) -> None:
    await group_game(web)
    table = await web.service.table(GROUP)
    assert table is not None and table.game is not None
    turn = table.game.turn
    mover, other = ("1", "2") if turn == 0 else ("2", "1")
    before = table.version
    # A player token with its person changed (Bea's token edited to name Ana) fails its signature.
    bea = links.player_token(web.secret, GROUP, other, "Bea", time.time() + 600)
    body, _, mac = bea.partition(".")
    forged = links._b64(links._unb64(body).replace(other.encode(), mover.encode())) + "." + mac
    got = await ws_send(web, [{"type": "act", "id": "d", "version": before, "auth": {"player": forged}}])
    assert got[-1]["type"] == "refused" and got[-1]["code"] == "bad_link"
    # The page never names its player: a genuine token for the player NOT on turn
    # cannot draw for the one on turn, whatever ids it sends.
    got = await ws_send(web, [{"type": "hello", "auth": {"player": bea}},
                              {"type": "act", "id": "d", "version": before, "auth": {"player": bea},
                               "person": mover, "seat": turn}])
    assert any(m["type"] == "refused" for m in got)
    # An expired token.
    old = links.player_token(web.secret, GROUP, other, "Bea", time.time() - 1)
    got = await ws_send(web, [{"type": "hello", "auth": {"player": old}, "lang": "es"}])
    assert got[-1]["code"] == "expired" and "caducado" in got[-1]["text"]
    # A token for an earlier game at this table.
    stale_game = links.player_token(web.secret, f"{GROUP}#{table.seed + 1}", other, "Bea", time.time() + 600)
    got = await ws_send(web, [{"type": "hello", "auth": {"player": stale_game}}])
    assert got[-1]["code"] == "other_game"
    # A stale tab: the right player, an old version.
    player = links.player_token(web.secret, GROUP, mover, "Ana", time.time() + 600)
    got = await ws_send(web, [{"type": "act", "id": "d", "version": before - 1, "auth": {"player": player},
                               "lang": "es"}])
    stale = [m for m in got if m["type"] == "refused" and m["code"] == "stale"]
    assert stale and stale[0]["text"] != error_text("stale", "en"), "said in the page's language"
    # In the page's own words: the page is redrawn, there is no hand to open again.
    assert stale[0]["text"] == refusal("bad_action", "es") != error_text("stale", "es")
    after = await web.service.table(GROUP)
    assert after is not None and after.version == before
    # And the genuine move goes through.
    got = await ws_send(web, [{"type": "act", "id": "d", "version": before, "auth": {"player": player}}])
    after = await web.service.table(GROUP)
    assert after is not None and after.version > before


def test_init_data_check_follows_telegrams_recipe() -> None:
    """The documented recipe, written out: secret = HMAC_SHA256("WebAppData", token);
    hash = hex HMAC_SHA256(secret, sorted key=value lines without hash)."""
    import hashlib
    import hmac

    fields = {"auth_date": "1700000000", "user": '{"id":5,"first_name":"Zoe"}', "query_id": "Q"}
    check = "auth_date=1700000000\nquery_id=Q\nuser={\"id\":5,\"first_name\":\"Zoe\"}"
    secret = hmac.new(b"WebAppData", BOT_TOKEN.encode(), hashlib.sha256).digest()
    expected = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    assert links.init_data_hash(BOT_TOKEN, fields) == expected
    data = links.sign_init_data(BOT_TOKEN, fields)
    assert links.check_init_data(BOT_TOKEN, data, max_age=60, now=1700000030)["user"] == fields["user"]
    with pytest.raises(links.LinkError) as err:
        links.check_init_data(BOT_TOKEN, data, max_age=60, now=1700000061)
    assert err.value.code == "expired"
    with pytest.raises(links.LinkError) as err:
        links.check_init_data(BOT_TOKEN, data.replace("Zoe", "Eve"), max_age=60, now=1700000030)
    assert err.value.code == "forged"


def test_table_tokens_fit_a_start_parameter_and_cannot_be_made_up() -> None:
    import re

    secret = b"s"
    token = links.table_token(secret, "-1001234567890")
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,512}", token)
    assert links.read_table_token(secret, token) == "-1001234567890"
    other = links.table_token(secret, "-1009999999999")
    forged = other[:-links.MAC_CHARS] + token[-links.MAC_CHARS:]
    with pytest.raises(links.LinkError):
        links.read_table_token(secret, forged)
    with pytest.raises(links.LinkError):
        links.read_table_token(b"other", token)


async def test_a_groups_table_opened_outside_telegram_says_to_open_it_in_that_group(web: WebServer,
                                                                                  browser: Any) -> None:
    """A Telegram group's Mini App link copied into a browser (its table token, no `initData`):
    the page said "Open the table from the link on a game's message", and the person had just
    done that. It now says the table is a Telegram group's and how to open it there."""
    await group_game(web)
    before = await version(web)
    token = links.table_token(web.secret, GROUP)
    page = await WebPlayer.open(browser, f"{web.url}/?t={token}", "Ana", lang="es-ES")
    assert await message_of(page) == ("Esta mesa es de un grupo de Telegram: ábrela en Telegram, con "
                                      "«🌐 Abrir la mesa» en el mensaje de la partida en ese grupo.")
    assert await page.state() is None and await version(web) == before


@pytest.mark.parametrize(("chat", "expected"), [
    ("dc_42", "This link has expired: type /uno table in the game's Discord channel for a new one."),
    ("console.ana", "This link has expired: the console prints a new one when its next game begins."),
    (GROUP, "This link has expired: open the table again from the game's message."),
])
async def test_an_expired_link_says_where_to_get_a_new_one(web: WebServer, chat: str, expected: str) -> None:
    """A Discord member's `/uno table` link is not on the game's message: its expiry said
    "open the table again from the game's message", which a Discord player cannot find.
    Each place now says its own way to a new link."""
    old = links.player_token(web.secret, f"{chat}#7", "5", "Eve", time.time() - 1)
    got = await ws_send(web, [{"type": "hello", "auth": {"player": old}, "lang": "en"}])
    assert got[-1]["code"] == "expired" and got[-1]["text"] == expected
    async with aiohttp.ClientSession() as http, http.post(
            f"{web.url}/api/records", json={"what": "me", "auth": {"player": old}, "lang": "en"}) as answer:
        assert answer.status == 403 and (await answer.json())["error"] == expected


async def test_the_mini_app_opened_without_a_table_says_how_to_open_one(web: WebServer, browser: Any) -> None:
    """The Mini App opened from the bot's profile or menu (a genuine `initData`, no
    `start_param`): the page said "This link is not valid for any table". It now says
    how a table is opened: a game in a group, then the game message's button."""
    page = await WebPlayer.open(browser, f"{web.url}/#tgWebAppData={quote(init_data(1, 'Ana', lang='es'))}", "Ana")
    assert (await page.page.inner_text("#message")).split("\n") == [
        "En esta página no se crean mesas: cada una se abre desde donde están sus jugadores.",
        "En un grupo de Telegram con el bot: empieza una partida con /new y pulsa «🌐 Abrir la mesa» en el "
        "mensaje de la partida."]


@pytest.mark.parametrize("body", [b"[]", b"42", b'"Ann"', b"{not json", b'{"name": ["Ann"]}'])
async def test_a_new_table_asked_with_a_body_that_is_no_form_is_refused_in_words(web: WebServer, body: bytes) -> None:
    """`POST /api/new` whose body is JSON but not an object (a list: the handler
    read `.get` of it, a 500), or no JSON at all: a 400 with the translated
    reason."""
    async with aiohttp.ClientSession() as http, http.post(
            f"{web.url}/api/new", data=body, headers={"Content-Type": "application/json"}) as r:
        assert r.status == 400, await r.text()
        assert (await r.json())["error"] == refusal("bad_name", "en")
