"""Cards as pictures: every kind drawn, plugin cards included (`unobot cards --out DIR`)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image  # a test dependency: the test extra installs Pillow

from tests.botapi import ApiError, BotAPIServer  # noqa: E402
from tests.support.privacy import mentions  # noqa: E402
from tests.support.redis_server import RedisServer  # noqa: E402
from tests.telegram.driver import FAST, JSON, BotProcess, TableDriver  # noqa: E402
from tests.telegram.test_game import short_games  # noqa: E402
from unobot.adapters.card_art import sticker_image as render_card  # noqa: E402
from unobot.adapters.card_sheets import write_cards  # noqa: E402
from unobot.adapters.telegram import inline_results, keyboards, stickers  # noqa: E402
from unobot.adapters.telegram.runtime import KEY  # noqa: E402
from unobot.adapters.telegram.stickers import set_names  # noqa: E402
from unobot.cards import Card, parse_card  # noqa: E402
from unobot.decks import card_kinds  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


async def stickers_ready(bot: BotProcess, timeout: float = 60.0) -> Any:
    """The process's runtime once its card stickers are ready (drawing ~60 cards twice
    takes seconds on a loaded machine: up to a minute is allowed)."""
    rt = bot.app.bot_data[KEY]
    deadline = time.monotonic() + timeout
    while rt.stickers is None:
        assert time.monotonic() < deadline, "the card stickers were not ready in time"
        await asyncio.sleep(0.05)
    return rt


def test_every_kind_is_drawn_and_dim_differs() -> None:
    kinds = {c.text for c in card_kinds()}
    assert {"R5", "G+2", "BS", "YR", "W", "W+4"} <= kinds
    assert any(c.kind is not None for c in card_kinds())  # a plugin's card kind has its picture too
    bright = render_card(Card.get("G", "7"))
    dim = render_card(Card.get("G", "7"), dim=True)
    assert bright.size == (512, 512) and dim.size == (512, 512)
    r, g, b, _a = bright.getpixel((110, 256))
    dr, dg, db, _da = dim.getpixel((110, 256))
    assert g > r + 50 and abs(dg - dr) < 40  # green, then greyed out


def test_every_card_of_every_shipped_variants_deck_has_a_picture(tmp_path: Path) -> None:
    """Cards a variant adds only to its deck (no-mercy's coloured +4 and W+6, W+10) are drawn too,
    by `unobot cards` as in the sticker sets (both take `card_kinds`)."""
    from unobot.variants import VARIANTS_DIR, rules_for

    kinds = {c.text for c in card_kinds()}
    shipped = sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))
    assert "no-mercy" in shipped and "reglas-de-uno" in shipped
    for name in shipped:
        rules = rules_for(name)
        for players in (2, 4, 7, 10):
            deck = list(rules.build_deck(players)) + [c for extra in rules.more_cards(players) for c in extra]
            missing = sorted({c.text for c in deck} - kinds)
            assert not missing, f"{name} ({players} players): no picture for {missing}"
    assert {"R+4", "Y+4", "G+4", "B+4", "W+6", "W+10"} <= kinds
    written = {path.stem for path in write_cards(tmp_path)}
    assert {"Rplus4", "Wplus6", "Wplus10"} <= written
    for text in ("R+4", "W+10"):
        assert render_card(parse_card(text)).size == (512, 512)


def test_cards_command_writes_the_pictures(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "cards", "--out", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    files = sorted(tmp_path.glob("*.png"))
    assert len(files) == len(card_kinds())
    with Image.open(tmp_path / "Wplus4.png") as image:
        assert image.size == (512, 512)


async def test_the_hand_as_stickers(server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """With a sticker owner the bot makes its two sets once (the ids go to the store),
    offers playable cards as bright stickers and the rest greyed, and a pick plays."""
    owner = server.user(1, "Ann")
    options = replace(FAST, sticker_owner=owner["id"])
    bot = await BotProcess(server, redis_server.url, prefix, options=options).start()
    try:
        rt = await stickers_ready(bot)
        names = set_names(server.bot_user["username"])
        assert {n.lower() for n in names} <= set(server.sticker_sets)
        assert all(len(server.sticker_sets[n.lower()]["stickers"]) == len(card_kinds()) for n in names)
        group = server.group(title="Stickers")
        ben = server.user(2, "Ben")
        driver = TableDriver(server, bot, group, [owner, ben], check_privacy=False)
        await short_games(bot, driver.chat)
        await driver.command(owner, "/new")
        await driver.press(ben, keyboards.JOIN)
        await driver.press(owner, keyboards.START)
        table = await driver.table()
        assert table is not None and table.game is not None
        on_turn = owner if table.seats[table.game.turn].id == str(owner["id"]) else ben
        other = ben if on_turn is owner else owner
        results = await driver.hand(other)  # out of turn: every card greyed, posting 🤔 if picked
        greyed = [r for r in results if r["type"] == "sticker"]
        assert greyed and all(r["sticker_file_id"] in rt.stickers.dim.values() for r in greyed)
        assert all(r["input_message_content"]["message_text"] == "🤔" for r in greyed)
        results = await driver.hand(on_turn)
        bright = [r for r in results if r["type"] == "sticker" and r["sticker_file_id"] in rt.stickers.bright.values()]
        articles = [r for r in results if r["type"] == "article"]
        assert articles  # draw / pass (and wilds, which ask for a colour) stay words
        assert bright, [r.get("title") or r["type"] for r in results]
        if bright:
            version = table.version
            await driver.choose(on_turn, bright[0]["id"])
            after = await driver.table()
            assert after is not None and after.version > version
            # The sticker is what the player picks from; the group gets the move in words.
            posted = [m for m in server.shown(group) if m.get("via_bot")]
            assert posted and "sticker" not in posted[-1]
            assert posted[-1]["text"] == bright[0]["input_message_content"]["message_text"]
    finally:
        await bot.stop()
    # Another start finds the ids in the store: no set is made again.
    mark = server.mark()
    again = await BotProcess(server, redis_server.url, prefix, options=options).start()
    try:
        await stickers_ready(again)
        assert not [c for c in server.calls[mark:] if c.method in ("createNewStickerSet", "addStickerToSet")]
    finally:
        await again.stop()


async def test_a_stale_sticker_pick_leaves_no_card_of_the_hand_in_the_group(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """A bright sticker picked from an old hand (the player drew meanwhile) is refused:
    what the pick posted is words, overwritten by the refusal, so no picture and no
    name of a card the player holds stays in the group (a sticker could not be edited)."""
    owner, ben = server.user(1, "Ann"), server.user(2, "Ben")
    bot = await BotProcess(server, redis_server.url, prefix, options=replace(FAST, sticker_owner=owner["id"])).start()
    try:
        rt = await stickers_ready(bot)
        group = server.group(title="Stale")
        driver = TableDriver(server, bot, group, [owner, ben], check_privacy=False)
        await short_games(bot, driver.chat)
        await driver.command(owner, "/new")
        await driver.press(ben, keyboards.JOIN)
        await driver.press(owner, keyboards.START)
        for _ in range(30):  # until the player on turn holds a playable card and may draw
            table = await driver.table()
            assert table is not None and table.game is not None
            on_turn = owner if table.seats[table.game.turn].id == str(owner["id"]) else ben
            results = await driver.hand(on_turn)
            bright = [r for r in results if r["type"] == "sticker" and r["sticker_file_id"] in rt.stickers.bright.values()]
            draw = [r["id"] for r in results if (ch := inline_results.decode(r["id"])) and ch.code == "d"]
            if bright and draw:
                break
            pick = driver.pick(results)
            assert pick is not None
            await driver.choose(on_turn, pick)
        else:
            raise AssertionError("nobody ever held a playable card with a draw offered")
        old = bright[0]
        assert old["input_message_content"]["message_text"]  # the pick posts words, not the sticker
        await driver.choose(on_turn, draw[0])  # the hand changes: the old answer is stale
        table = await driver.table()
        assert table is not None and table.game is not None
        version, seat = table.version, table.seat_of(str(on_turn["id"]))
        assert seat is not None
        message, chosen = server.pick_inline_result(group, on_turn, old["id"])
        assert chosen is not None and "sticker" not in message["message"]
        await bot.settle(message)
        await bot.settle(chosen)
        after = await driver.table()
        assert after is not None and after.game is not None and after.version == version  # refused
        posted = server.messages[group["id"]][message["message"]["message_id"]]
        assert "out of date" in posted["text"], posted["text"]
        hand = {card.text for card in after.game.hands[seat]}
        for shown in server.shown(group):
            assert "sticker" not in shown, shown  # no card picture at all
            if shown.get("via_bot"):
                named = sorted(c for c in hand if mentions(shown.get("text", ""), parse_card(c)))
                assert not named, (named, shown["text"])
    finally:
        await bot.stop()


async def test_two_processes_starting_at_once_share_one_sticker_set(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both processes find no set and start making it (the server holds their first
    look until both asked); the second is told the name is taken, which means another
    process is making it: it tries again shortly and uses the same set. Nothing is
    deleted and no process stays without stickers."""
    monkeypatch.setattr(stickers, "FIRST_RETRY", 0.2)
    looked: list[str] = []
    both_looked = asyncio.Event()
    original = server._handlers["getStickerSet"]

    async def hold_first_looks(params: JSON) -> JSON:
        looked.append(str(params.get("name")))
        if len(looked) <= 2:  # the first look of each process: "no such set" for both
            if len(looked) == 2:
                both_looked.set()
            await asyncio.wait_for(both_looked.wait(), 30)
        return original(params)

    monkeypatch.setitem(server._handlers, "getStickerSet", hold_first_looks)
    owner = server.user(1, "Ann")
    options = replace(FAST, sticker_owner=owner["id"])
    bots = [BotProcess(server, redis_server.url, prefix, options=options, seed=i) for i in (1, 2)]
    try:
        await asyncio.gather(*(bot.start() for bot in bots))
        maps = [(await stickers_ready(bot)).stickers for bot in bots]
        assert maps[0] == maps[1]
        names = [n.lower() for n in set_names(server.bot_user["username"])]
        assert sorted(server.sticker_sets) == sorted(names)
        bright = [s["file_id"] for s in server.sticker_sets[names[0]]["stickers"]]
        assert list(maps[0].bright.values()) == bright and len(bright) == len(card_kinds())
        creates = [c.params["name"].lower() for c in server.calls if c.method == "createNewStickerSet"]
        assert creates.count(names[0]) == 2  # the race took place: both tried, one was told it is taken
        assert not [c for c in server.calls if c.method == "deleteStickerSet"]
    finally:
        for bot in bots:
            await bot.stop()


async def test_the_sticker_sets_are_made_after_a_failure_without_a_restart(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stickers, "FIRST_RETRY", 0.2)
    failures = [ApiError(502, "Bad Gateway")]
    original = server._handlers["createNewStickerSet"]

    def flaky(params: JSON) -> Any:
        if failures:
            raise failures.pop()
        return original(params)

    monkeypatch.setitem(server._handlers, "createNewStickerSet", flaky)
    owner = server.user(1, "Ann")
    bot = await BotProcess(server, redis_server.url, prefix, options=replace(FAST, sticker_owner=owner["id"])).start()
    try:
        rt = await stickers_ready(bot)
        assert not failures and len(rt.stickers.bright) == len(card_kinds())
        assert len([c for c in server.calls if c.method == "createNewStickerSet"]) == 3  # failed, bright, grey
    finally:
        await bot.stop()


async def test_new_card_art_makes_the_sticker_sets_again(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sets drawn by an older version of the art (`card_art.ART_VERSION`) are not
    adopted from the store nor by their title: the next start draws them again."""
    from unobot.adapters import card_art

    owner = server.user(1, "Ann")
    options = replace(FAST, sticker_owner=owner["id"])
    bot = await BotProcess(server, redis_server.url, prefix, options=options).start()
    try:
        first = (await stickers_ready(bot)).stickers
    finally:
        await bot.stop()
    monkeypatch.setattr(card_art, "ART_VERSION", "next")
    mark = server.mark()
    again = await BotProcess(server, redis_server.url, prefix, options=options).start()
    try:
        now = (await stickers_ready(again)).stickers
        made = [c.params["name"].lower() for c in server.calls[mark:] if c.method == "createNewStickerSet"]
        assert sorted(made) == sorted(n.lower() for n in set_names(server.bot_user["username"]))
        assert set(now.bright.values()).isdisjoint(first.bright.values())
    finally:
        await again.stop()
