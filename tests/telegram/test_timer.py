"""Turn timers: when a player's time runs out the bot draws and passes for them."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.driver import FAST, JSON, BotProcess, bot_messages
from tests.telegram.test_game import short_games
from unobot.adapters.telegram import keyboards


async def timed_game(server: BotAPIServer, bot: BotProcess, seconds: int,
                     group: JSON | None = None) -> tuple[JSON, JSON, JSON]:
    """Ann (the group's creator) and Ben start a game with `seconds` a turn; returns (group, ann, ben)."""
    group = group or server.group()
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    server.set_status(group, ann, "creator")
    await bot.settle(server.send_command(group, ann, "/timer", str(seconds)))
    await bot.settle(server.send_command(group, ann, "/new"))
    await bot.settle(server.send_command(group, ben, "/join"))
    await bot.settle(server.send_command(group, ann, "/start"))
    return group, ann, ben


async def test_timer_expiry_draws_and_passes(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group()
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    server.set_status(group, ann, "creator")
    chat = str(group["id"])
    assert bot.service is not None and bot.store is not None
    await short_games(bot, chat)
    await bot.settle(server.send_command(group, ann, "/timer", "1"))
    assert (await bot.service.settings(chat))["timer"] == 1
    await bot.settle(server.send_command(group, ann, "/new"))
    await bot.settle(server.send_command(group, ben, "/join"))
    lobby = bot_messages(server, group)[-1]
    assert "1 second per turn" in lobby["text"]
    await bot.settle(server.press_button(group, ann, lobby["message_id"], keyboards.START))
    table = await bot.service.table(chat)
    assert table is not None and table.game is not None
    seat = table.game.turn
    cards = len(table.game.hands[seat])
    version = table.version

    # Nobody moves: within about a second the timer job acts.
    edit = await server.wait_for("editMessageText", lambda p: "ran out of time" in p.get("text", ""),
                                 timeout=5, after=server.mark())
    assert table.seats[seat].name in edit.params["text"]
    await asyncio.sleep(0.05)
    after = await bot.service.table(chat)
    assert after is not None and after.game is not None and after.version > version
    kinds = [r[0] for r in after.recent]
    assert "timed_out" in kinds
    timed = kinds.index("timed_out")
    assert "cards_drawn" in kinds[timed:] or "penalty_taken" in kinds[timed:]
    log = await bot.store.read_log((await bot.store.chat_game(chat)) or "")
    assert f"{seat} timeout" in log
    assert after.game.turn != seat or len(after.game.hands[seat]) > cards


async def test_stale_timer_never_acts(server: BotAPIServer, bot: BotProcess) -> None:
    """A timer planned for an older version (another process, a restart) is refused."""
    from unobot.adapters.telegram import jobs

    group, _ann, _ben = await timed_game(server, bot, 1)
    chat = str(group["id"])
    assert bot.service is not None
    table = await bot.service.table(chat)
    assert table is not None
    jq = bot.app.job_queue
    jobs.cancel(jq, group["id"])
    jq.run_once(jobs.timer_job, 0.01, data={"chat": group["id"], "version": table.version - 1})
    await asyncio.sleep(1.3)
    jobs.cancel(jq, group["id"])
    after = await bot.service.table(chat)
    assert after is not None and after.version == table.version


async def test_a_restarted_process_keeps_the_running_games_clocks(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """The process that planned a turn timer stops; a new one starts on the
    same Redis and, with nobody touching the game, the timer still runs out,
    a whole turn after the restart (and an open lobby still gets its expiry)."""
    first = await BotProcess(server, redis_server.url, prefix, seed=3).start()
    lobby_group = server.group(title="Lobby")
    group, ann, _ben = await timed_game(server, first, 2)
    chat = str(group["id"])
    assert first.service is not None
    await first.settle(server.send_command(lobby_group, ann, "/new"))
    table = await first.service.table(chat)
    assert table is not None and table.game is not None
    await first.stop()  # its jobs die with it
    await asyncio.sleep(2.2)  # no bot runs for longer than a turn

    options = replace(FAST, lobby_seconds=1.0)
    mark = server.mark()
    second = await BotProcess(server, redis_server.url, prefix, seed=4, options=options).start()
    try:
        assert second.service is not None
        # The downtime is not held against the player on turn: a whole turn from the restart.
        await asyncio.sleep(1.0)
        assert not [c for c in server.calls[mark:] if "ran out of time" in str(c.params.get("text", ""))]
        edit = await server.wait_for("editMessageText", lambda p: "ran out of time" in p.get("text", ""),
                                     timeout=8, after=mark)
        assert edit.params["chat_id"] == group["id"]
        after = await second.service.table(chat)
        assert after is not None and after.version > table.version
        closed = await server.wait_for("editMessageText", lambda p: "lobby is closed" in p.get("text", ""),
                                       timeout=8, after=mark)
        assert closed.params["chat_id"] == lobby_group["id"]
    finally:
        await second.stop()


async def test_a_timer_outlives_a_store_outage(server: BotAPIServer, tmp_path: object, prefix: str) -> None:
    """The turn timer runs out while Redis is down: the job tries again, and
    once Redis is back the player's turn is timed out as it should be."""
    redis = RedisServer(tmp_path / "down").start()  # type: ignore[operator]
    bot = await BotProcess(server, redis.url, prefix, options=replace(FAST, store_retry=0.2)).start()
    try:
        group, _ann, _ben = await timed_game(server, bot, 1)
        assert bot.service is not None
        table = await bot.service.table(str(group["id"]))
        assert table is not None
        redis.stop()
        await asyncio.sleep(1.8)  # the timer fires into the outage, and again
        redis.start()
        edit = await server.wait_for("editMessageText", lambda p: "ran out of time" in p.get("text", ""),
                                     timeout=8, after=server.mark())
        assert edit.params["chat_id"] == group["id"]
        after = await bot.service.table(str(group["id"]))
        assert after is not None and after.version > table.version
    finally:
        await bot.stop()
        redis.stop()


async def test_a_player_who_times_out_three_times_in_a_row_is_removed(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group()
    mark = server.mark()
    ann, ben, cid = server.user(1, "Ann"), server.user(2, "Ben"), server.user(3, "Cid")
    await bot.settle(server.send_command(group, cid, "/new"))
    await bot.settle(server.send_command(group, ann, "/join"))
    await bot.settle(server.send_command(group, ben, "/join"))
    server.set_status(group, cid, "creator")
    await bot.settle(server.send_command(group, cid, "/timer", "1"))
    await bot.settle(server.send_command(group, cid, "/start"))
    assert bot.service is not None
    chat = str(group["id"])
    # Nobody moves: turns time out one after another, three in a row for each seat.
    removed = await server.wait_for("editMessageText", lambda p: "timed out too often" in p.get("text", ""),
                                    timeout=15, after=mark)
    assert removed.params["chat_id"] == group["id"]
    table = await bot.service.table(chat)
    assert table is not None and len(table.left) == 1
    gone = next(s.name for s in table.seats if s.id == table.left[0])
    assert f"{gone} timed out too often and was removed." in removed.params["text"]
