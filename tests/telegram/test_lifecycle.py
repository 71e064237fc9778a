"""Lobby expiry, /skip after a lost timer, a private game against AI players,
the status editor's comparisons, and the privacy checker itself."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.driver import FAST, BotProcess, TableDriver, bot_messages
from tests.telegram.test_game import lobby_and_start, open_table, short_games
from tests.telegram.test_timer import timed_game
from unobot.adapters.telegram import keyboards
from unobot.adapters.telegram.status import Status, StatusEditor


async def test_an_unstarted_lobby_expires(server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    bot = await BotProcess(server, redis_server.url, prefix,
                           options=dataclasses.replace(FAST, lobby_seconds=0.3)).start()
    try:
        group = server.group()
        ann = server.user(1, "Ann")
        await bot.settle(server.send_command(group, ann, "/new"))
        lobby = bot_messages(server, group)[-1]
        assert await bot.advance(0.29) == 0  # not a moment early
        assert bot.service is not None and await bot.service.table(str(group["id"])) is not None
        mark = server.mark()
        assert await bot.advance(0.02) == 1
        await server.wait_for("editMessageText", lambda p: "lobby is closed" in p.get("text", ""), timeout=5,
                              after=mark)
        assert bot.service is not None and await bot.service.table(str(group["id"])) is None
        assert "reply_markup" not in server.messages[group["id"]][lobby["message_id"]]
        # A new game can open at once.
        await bot.settle(server.send_command(group, ann, "/new"))
        assert await bot.service.table(str(group["id"])) is not None
    finally:
        await bot.stop()


async def test_skip_a_player_whose_time_ran_out(server: BotAPIServer, bot: BotProcess) -> None:
    """When no timer job is left (say the process that planned it died), /skip does it."""
    group, ann, ben = await timed_game(server, bot, 1)
    chat = str(group["id"])
    assert bot.service is not None
    bot.scheduler.cancel(group["id"])
    table = await bot.service.table(chat)
    assert table is not None
    early = server.send_command(group, ben, "/skip")
    await bot.settle(early)
    assert "still has time" in (await server.wait_answer(early, "sendMessage")).params["text"]
    passerby = server.send_command(group, server.user(9, "Dave"), "/skip")  # not playing, no admin
    await bot.settle(passerby)
    assert "not playing" in (await server.wait_answer(passerby, "sendMessage")).params["text"]
    assert bot.clock is not None
    bot.clock.advance(1.0)  # the turn is over, and no job is left to notice
    await bot.settle(server.send_command(group, ben, "/skip"))
    after = await bot.service.table(chat)
    assert after is not None and after.version > table.version
    assert "timed_out" in [r[0] for r in after.recent]
    bot.scheduler.cancel(group["id"])


async def test_private_game_against_ai(server: BotAPIServer, bot: BotProcess) -> None:
    eve = server.user(5, "Eve")
    chat = server.private_chat(eve)
    driver = TableDriver(server, bot, chat, [eve], seed=3)
    await short_games(bot, driver.chat, scoring="target=0")
    await driver.command(eve, "/new")
    await driver.command(eve, "/ai", "2")
    await driver.command(eve, "/start")  # in private, /start starts the open lobby
    table = await driver.table()
    assert table is not None and table.game is not None
    # Her hand opens in the private chat with the bot (chat type "sender").
    update = server.inline_query(eve, "", chat_type="sender")
    await bot.settle(update)
    results = server.inline_answers[update["inline_query"]["id"]]["results"]
    assert any("·" in r["title"] for r in results)
    await driver.play()
    texts = [m["text"] for m in driver.bot_messages()]
    assert any("wins the match" in t for t in texts)
    # Eve started the bot in private, so she is told the cards she draws there.
    assert any(t.startswith("You drew") for t in texts) or "cards_drawn" not in str(table.recent)


async def test_hand_is_refused_outside_the_game_group(server: BotAPIServer, bot: BotProcess) -> None:
    driver = await open_table(server, bot)
    await lobby_and_start(driver)
    update = server.inline_query(driver.players[0], "", chat_type="private")
    await bot.settle(update)
    results = server.inline_answers[update["inline_query"]["id"]]["results"]
    assert [r["title"] for r in results] == ["Open your cards in the game's group"]


async def test_status_editor_never_resends_equal_text(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group()
    sent = await bot.app.bot.send_message(group["id"], "one")
    editor = StatusEditor()
    await editor.show(bot.app.bot, group["id"], sent.message_id, 2, Status("two", None, 3))
    await editor.show(bot.app.bot, group["id"], sent.message_id, 2, Status("two", None, 3))  # equal: not sent
    await editor.show(bot.app.bot, group["id"], sent.message_id, 1, Status("older", None))  # older: dropped
    assert [p["text"] for p in server.calls_to("editMessageText")] == ["two"]
    # Another process's editor does not know what is shown: Telegram's
    # "message is not modified" is swallowed, not raised.
    other = StatusEditor()
    await other.show(bot.app.bot, group["id"], sent.message_id, 3, Status("two", None, 3))
    shown = server.messages[group["id"]][sent.message_id]
    assert shown["text"] == "two" and shown["entities"] == [{"type": "bold", "offset": 0, "length": 3}]


async def test_the_privacy_check_catches_a_leak(server: BotAPIServer, bot: BotProcess) -> None:
    """The checker used by every game test fails when a group message lists a hand."""
    driver = await open_table(server, bot)
    await lobby_and_start(driver)
    table = await driver.table()
    assert table is not None and table.game is not None
    hand = " ".join(card.text for card in table.game.hands[1])
    await bot.app.bot.send_message(driver.group["id"], f"Ben holds {hand}")
    with pytest.raises(AssertionError, match="names cards of Bob's hand"):
        await driver.verify()


async def test_names_are_shown_as_written(server: BotAPIServer, bot: BotProcess) -> None:
    """A name with markup characters is text, never markup (and never breaks a message)."""
    group = server.group()
    odd = server.user(7, "<b>Zed</b> & co")
    await bot.settle(server.send_command(group, odd, "/new"))
    await bot.settle(server.send_command(group, odd, "/stats"))
    texts = [m["text"] for m in bot_messages(server, group)]
    assert any("<b>Zed</b> & co" in t for t in texts[:1])
    assert "<b>Zed</b> & co:" in texts[-1]


async def test_a_deleted_status_message_is_posted_again(server: BotAPIServer, bot: BotProcess) -> None:
    """An admin deletes the game's status message mid-game: the next move
    posts it again at the bottom, the game remembers the new one, and the
    game plays on to the end through it."""
    driver = await open_table(server, bot)
    await short_games(bot, driver.chat, scoring="target=0")
    await lobby_and_start(driver)
    table = await driver.table()
    assert table is not None
    old = int(table.adapter["status"])
    del server.messages[driver.group["id"]][old]  # what deleteMessage by an admin leaves
    assert table.game is not None
    user = driver.players[table.game.turn]  # the status is gone: they know it is their turn
    pick = driver.pick(await driver.hand(user))
    assert pick is not None
    await driver.choose(user, pick)
    table = await driver.table()
    assert table is not None
    new = int(table.adapter["status"])
    assert new != old and new in server.messages[driver.group["id"]]
    assert "Press “My cards”" in server.messages[driver.group["id"]][new]["text"]
    stats = await driver.play()
    assert stats.moves > 1
    assert "wins the match" in driver.bot_messages()[-1]["text"]


async def test_updates_that_find_the_status_deleted_at_once_replace_it_once(
        server: BotAPIServer, bot: BotProcess) -> None:
    from telegram.ext import CallbackContext

    from unobot.adapters.telegram import publish
    from unobot.chat.table import Table

    driver = await open_table(server, bot)
    await lobby_and_start(driver)
    table = await driver.table()
    assert table is not None
    group_id = driver.group["id"]
    del server.messages[group_id][int(table.adapter["status"])]  # an admin deleted it
    newer = Table.decode(table.encode(), table.store_version)
    newer.version += 1
    context = CallbackContext(bot.app)
    mark = len(server.calls)
    await asyncio.gather(publish.show(context, group_id, table, notes=["older"]),
                         publish.show(context, group_id, newer, notes=["newer"]),
                         publish.show(context, group_id, table, notes=["older"]))
    await bot.idle()  # the edits go out from the message's worker
    sends = [c for c in server.calls[mark:] if c.method == "sendMessage"]
    assert len(sends) == 1
    stored = await driver.table()
    assert stored is not None and stored.adapter["status"] != table.adapter["status"]
    shown = server.messages[group_id][int(stored.adapter["status"])]["text"]
    assert "newer" in shown and "older" not in shown


async def test_starting_the_game_cancels_the_lobby_expiry(server: BotAPIServer, bot: BotProcess) -> None:
    """Left planned, the lobby's expiry job would sit in memory for the whole lobby time, one per game."""
    driver = await open_table(server, bot)
    await driver.command(driver.players[0], "/new")
    assert bot.scheduler.has("lobby", int(driver.chat))
    await driver.press(driver.players[1], keyboards.JOIN)
    await driver.press(driver.players[0], keyboards.START)
    table = await driver.table()
    assert table is not None and table.game is not None
    assert not bot.scheduler.has("lobby", int(driver.chat))
    bot.scheduler.cancel(int(driver.chat))
