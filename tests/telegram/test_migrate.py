"""A group upgraded to a supergroup mid-game: the game, the rules and the counters follow it."""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, TableDriver
from tests.telegram.test_game import ADMIN, lobby_and_start, short_games
from unobot.chat import commands as c


async def test_the_game_goes_on_in_the_supergroup(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group(title="UNO night", type="group")
    players = [server.user(101, "Alice", "alice"), server.user(102, "Bob", "bob"), server.user(103, "Carol")]
    driver = TableDriver(server, bot, group, players, seed=2)
    assert bot.service is not None
    await short_games(bot, driver.chat, scoring="target=0")
    assert (await bot.service.handle(driver.chat, ADMIN, c.SetLanguage("es"))).ok
    await lobby_and_start(driver)
    for _ in range(3):
        assert await driver.step()
    before = await driver.table()
    assert before is not None and before.game is not None

    supergroup, update = server.migrate_group(group, players[0])
    await bot.settle(update)
    await bot.idle()
    after_move = len(server.calls)
    assert await driver.table() is None  # nothing runs under the old id
    moved = TableDriver(server, bot, supergroup, players, seed=3)
    table = await moved.table()
    assert table is not None and table.game is not None
    assert table.version == before.version and table.game.hands == before.game.hands
    assert (await bot.service.settings(moved.chat))["lang"] == "es"
    status = moved.status_message()
    assert status is not None and "supergrupo" in status["text"]
    # Both announcements asked for the move; it was made, and shown, once.
    assert len(moved.bot_messages()) == 1
    assert int(table.adapter["status"]) == status["message_id"]

    stats = await moved.play()  # inline queries find the game in its new chat
    assert stats.moves > 0
    assert "gana" in moved.bot_messages()[-1]["text"]
    # Calls to the old group fail now; after the move the bot made none.
    assert not any(call.params.get("chat_id") == group["id"] for call in server.calls[after_move:])
