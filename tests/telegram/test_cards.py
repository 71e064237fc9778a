"""Cards as pictures: every kind drawn, plugin cards included (`unobot cards --out DIR`)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from PIL import Image  # a test dependency: the test extra installs Pillow

from tests.botapi import BotAPIServer  # noqa: E402
from tests.support.redis_server import RedisServer  # noqa: E402
from tests.telegram.driver import FAST, BotProcess, TableDriver  # noqa: E402
from tests.telegram.test_game import short_games  # noqa: E402
from unobot.adapters.telegram import keyboards  # noqa: E402
from unobot.adapters.telegram.cards import card_kinds, render_card  # noqa: E402
from unobot.adapters.telegram.runtime import KEY  # noqa: E402
from unobot.adapters.telegram.stickers import set_names  # noqa: E402
from unobot.cards import Card  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


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
        rt = bot.app.bot_data[KEY]
        for _ in range(300):
            if rt.stickers is not None:
                break
            await asyncio.sleep(0.05)
        assert rt.stickers is not None
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
            posted = [m for m in server.shown(group) if m.get("via_bot") and "sticker" in m]
            assert posted and posted[-1]["sticker"]["file_id"] == bright[0]["sticker_file_id"]
    finally:
        await bot.stop()
    # Another start finds the ids in the store: no set is made again.
    mark = server.mark()
    again = await BotProcess(server, redis_server.url, prefix, options=options).start()
    try:
        rt = again.app.bot_data[KEY]
        for _ in range(100):
            if rt.stickers is not None:
                break
            await asyncio.sleep(0.05)
        assert rt.stickers is not None
        assert not [c for c in server.calls[mark:] if c.method in ("createNewStickerSet", "addStickerToSet")]
    finally:
        await again.stop()
