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


async def test_the_players_records_follow_the_group_into_the_supergroup(
        server: BotAPIServer, bot: BotProcess) -> None:
    """A match finished in the group, then the group becomes a supergroup:
    /top, /last and /me there tell that match (as /stats goes on), and its
    kept game still replays; nothing is left under the old id."""
    from tests.telegram.test_records import said
    from unobot.chat.audit import audit_archived

    group = server.group(title="UNO night", type="group")
    players = [server.user(111, "Alice", "alice"), server.user(112, "Bob", "bob"), server.user(113, "Carol")]
    driver = TableDriver(server, bot, group, players, seed=4)
    assert bot.service is not None
    await short_games(bot, driver.chat, scoring="target=0")
    assert (await bot.service.handle(driver.chat, ADMIN, c.SetLanguage("es"))).ok
    await lobby_and_start(driver)
    await driver.play()
    kept = await bot.service.store.archived(driver.chat, 5)
    assert len(kept) == 1
    winner = kept[0]["players"][kept[0]["winner"]]["name"]

    supergroup, update = server.migrate_group(group, players[0])
    await bot.settle(update)
    await bot.idle()
    moved = TableDriver(server, bot, supergroup, players, seed=5)
    top = await said(server, bot, supergroup, players[1], "/top")
    assert "Clasificación: de siempre" in top and top.count("de 1, puntos") == 3 and winner in top, top
    last = await said(server, bot, supergroup, players[1], "/last")
    assert f"{winner} ganó tras 1 ronda" in last, last
    me = await said(server, bot, supergroup, players[2], "/me")
    assert "Aquí: victorias" in me, me
    there = await bot.service.store.archived(moved.chat, 5)
    assert [r["chat"] for r in there] == [moved.chat] and (await audit_archived(there[0])).ok
    assert await bot.service.store.archived(driver.chat, 5) == []
    assert await bot.service.store.standings(driver.chat, "all") == {}
