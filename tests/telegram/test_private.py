"""Private notices speak the player's own language, as their hand does (issue 15)."""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, TableDriver
from tests.telegram.test_game import short_games
from unobot.adapters.telegram import inline_results, keyboards


async def test_a_spanish_player_is_told_their_draw_in_spanish(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group(title="English chat")
    ann = server.user(1, "Ann")
    bob = server.user(2, "Bob", language_code="es")
    driver = TableDriver(server, bot, group, [ann, bob], check_privacy=False)
    await short_games(bot, driver.chat)
    await bot.settle(server.send_command(server.private_chat(bob), bob, "/start"))  # Bob may be written to
    await driver.command(ann, "/new")
    await driver.press(bob, keyboards.JOIN)
    await driver.press(ann, keyboards.START)
    for _ in range(6):  # until Bob is on turn (the first player may be skipped)
        table = await driver.table()
        assert table is not None and table.game is not None
        on_turn = ann if table.seats[table.game.turn].id == str(ann["id"]) else bob
        results = await driver.hand(on_turn)
        if on_turn is bob:
            draw = next(r["id"] for r in results if (ch := inline_results.decode(r["id"])) and ch.code == "d")
            mark = server.mark()
            await driver.choose(bob, draw)
            notice = await server.wait_for("sendMessage", lambda p: p.get("chat_id") == bob["id"], after=mark)
            assert notice.params["text"].startswith("Robaste") or "robaste" in notice.params["text"].lower(), \
                notice.params["text"]
            return
        pick = driver.pick(results)
        assert pick is not None
        await driver.choose(ann, pick)
    raise AssertionError("Bob never came on turn")
