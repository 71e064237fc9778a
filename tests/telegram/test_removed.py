"""The bot removed from a group mid-game: its games there end, nothing runs on.

Why: Telegram tells a bot it was removed (a `my_chat_member` update), but
the bot never asked for that update. Its games in the group went on
unseen: turn timers and AI seats kept playing, every move's status edit
was refused (403) and logged, a player's "My cards" still offered the hand
of a game nobody could see, and /stats never counted it as stopped. Now the
removal stops every game of the group (each forum topic's too), with who
removed the bot as the one who stopped it; other groups play on.
"""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, TableDriver
from unobot.adapters.telegram import keyboards
from unobot.adapters.telegram.handlers import UPDATE_KINDS
from unobot.chat.table import LOBBY, PLAYING


async def test_removing_the_bot_stops_the_groups_games_and_no_other(server: BotAPIServer, bot: BotProcess) -> None:
    forum, other = server.forum(title="UNO club"), server.group(title="Other table")
    ann, ben, cid, dee = (server.user(i, name) for i, name in enumerate(("Ann", "Ben", "Cid", "Dee"), 1))
    server.set_status(forum, ann, "administrator")
    assert bot.service is not None
    await bot.settle(server.send_command(forum, ann, "/timer", "60"))  # turn timers: jobs planned
    red = server.create_topic(forum, ann, "Red table")
    topic = TableDriver(server, bot, forum, [ann, ben], thread=red, seed=3, check_privacy=False)
    general = TableDriver(server, bot, forum, [cid, dee], seed=4, check_privacy=False)
    elsewhere = TableDriver(server, bot, other, [cid, dee], seed=5, check_privacy=False)
    for driver in (topic, general, elsewhere):
        first, second = driver.players
        await driver.command(first, "/new")
        await driver.press(second, keyboards.JOIN)
    for driver in (topic, general):
        await driver.press(driver.players[0], keyboards.START)
        table = await driver.table()
        assert table is not None and table.phase == PLAYING
    assert any(job.chat_id in (int(topic.chat), int(general.chat)) for _, _, job in bot.scheduler.pending)

    await bot.settle(server.remove_bot(forum, ann))
    await bot.idle()
    assert await topic.table() is None and await general.table() is None, "the group's games end"
    assert not [job.name for _, _, job in bot.scheduler.pending if job.chat_id in (int(topic.chat), int(general.chat))]
    mark = len(server.calls)
    await bot.run_due()
    assert not [c for c in server.calls[mark:] if c.params.get("chat_id") == forum["id"]]
    kept = await elsewhere.table()
    assert kept is not None and kept.phase == LOBBY and [s.name for s in kept.seats] == ["Cid", "Dee"]


def test_the_bot_asks_telegram_for_the_removal() -> None:
    """Telegram sends only the update kinds a bot asks for (`allowed_updates`)."""
    assert "my_chat_member" in UPDATE_KINDS


async def test_a_topic_deleted_mid_game_ends_its_game_and_no_other(server: BotAPIServer, bot: BotProcess) -> None:
    """A forum topic deleted mid-game (Telegram tells the bot nothing): the
    next post finds it gone ("message thread not found"), and its game ends
    there; it used to go on unseen, its timer and AI seats playing, every move
    trying to post its status again."""
    forum = server.forum(title="UNO club")
    ann, ben, cid, dee = (server.user(i, name) for i, name in enumerate(("Ann", "Ben", "Cid", "Dee"), 1))
    server.set_status(forum, ann, "administrator")
    assert bot.service is not None and bot.clock is not None
    await bot.settle(server.send_command(forum, ann, "/timer", "60"))
    red, blue = server.create_topic(forum, ann, "Red table"), server.create_topic(forum, cid, "Blue table")
    doomed = TableDriver(server, bot, forum, [ann, ben], thread=red, seed=3, check_privacy=False)
    kept = TableDriver(server, bot, forum, [cid, dee], thread=blue, seed=4, check_privacy=False)
    for driver in (doomed, kept):
        first, second = driver.players
        await driver.command(first, "/new")
        await driver.press(second, keyboards.JOIN)
        await driver.press(first, keyboards.START)
    server.delete_topic(forum, red)
    for _ in range(3):  # the turn timers run out: each table moves on its own
        bot.clock.advance(61)
        await bot.run_due()
    assert await doomed.table() is None, "the deleted topic's game ends"
    assert not [job.name for _, _, job in bot.scheduler.pending if job.chat_id == int(doomed.chat)]
    table = await kept.table()
    assert table is not None and table.phase == PLAYING and table.version > 3
    assert [m for m in server.shown(forum) if server.in_topic(m) == blue and "Cid" in m.get("text", "")]


async def test_a_topic_closed_mid_game_ends_its_game_and_says_so(server: BotAPIServer, bot: BotProcess) -> None:
    """A forum topic closed mid-game: nobody but admins may post there, so no
    player could pick a card, while its turn timer removed them one by one for
    turns they could not play. Now the game ends when the topic is closed
    (Telegram tells every bot), stopped by whoever closed it, and its status
    message says so; the other topics play on."""
    forum = server.forum(title="UNO club")
    ann, ben, cid, dee = (server.user(i, name) for i, name in enumerate(("Ann", "Ben", "Cid", "Dee"), 1))
    server.set_status(forum, ann, "administrator")
    assert bot.service is not None and bot.clock is not None
    await bot.settle(server.send_command(forum, ann, "/timer", "60"))
    red, blue = server.create_topic(forum, ann, "Red table"), server.create_topic(forum, cid, "Blue table")
    closed = TableDriver(server, bot, forum, [ann, ben], thread=red, seed=3, check_privacy=False)
    kept = TableDriver(server, bot, forum, [cid, dee], thread=blue, seed=4, check_privacy=False)
    for driver in (closed, kept):
        first, second = driver.players
        await driver.command(first, "/new")
        await driver.press(second, keyboards.JOIN)
        await driver.press(first, keyboards.START)
    status = closed.status_message()
    assert status is not None
    await bot.settle(server.close_topic(forum, ann, red))
    await bot.idle()
    assert await closed.table() is None, "the closed topic's game ends"
    assert not [job.name for _, _, job in bot.scheduler.pending if job.chat_id == int(closed.chat)]
    shown = server.messages[forum["id"]][status["message_id"]]
    assert "Ann" in shown["text"] and "stopped" in shown["text"].lower(), shown["text"]
    assert not shown.get("reply_markup"), "no button left on a game that is over"
    table = await kept.table()
    assert table is not None and table.phase == PLAYING
