"""Turn timers: when a player's time runs out the bot draws and passes for them.

On a fake clock (tests/telegram/clock.py): the ChatService and the bot's
jobs read the same clock, and a job runs only when the test moves it. So
"nothing happened yet" is checked at a time just short of the deadline (a
job that fired early fails it), and no test sleeps for a turn to pass.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.clock import FakeClock
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
    # The job is due on the service's clock: a turn and the grace after the turn began.
    assert bot.scheduler.due_at("timer", group["id"]) == pytest.approx(table.turn_started + 1 + FAST.timer_grace)

    # Nobody moves. Just before the turn and its grace are over, nothing has happened.
    mark = server.mark()
    assert await bot.advance(1 + FAST.timer_grace - 0.01) == 0
    assert not [c for c in server.calls[mark:] if "ran out of time" in str(c.params.get("text", ""))]
    still = await bot.service.table(chat)
    assert still is not None and still.version == version
    # A moment later the timer job acts.
    assert await bot.advance(0.02) == 1
    edit = await server.wait_for("editMessageText", lambda p: "ran out of time" in p.get("text", ""),
                                 timeout=5, after=mark)
    assert table.seats[seat].name in edit.params["text"]
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
    group, _ann, _ben = await timed_game(server, bot, 1)
    chat = str(group["id"])
    assert bot.service is not None
    table = await bot.service.table(chat)
    assert table is not None
    bot.scheduler.cancel(group["id"])
    bot.scheduler.plan("timer", group["id"], bot.scheduler.now() + 1.2,
                       {"chat": group["id"], "version": table.version - 1})
    assert await bot.advance(1.3) == 1  # it ran...
    assert bot.scheduler.ran[-1][0] == f"timer:{group['id']}"
    bot.scheduler.cancel(group["id"])
    after = await bot.service.table(chat)
    assert after is not None and after.version == table.version  # ...and changed nothing


async def test_a_restarted_process_keeps_the_running_games_clocks(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """The process that planned a turn timer stops; a new one starts on the
    same Redis and, with nobody touching the game, the timer still runs out,
    a whole turn after the restart (and an open lobby still gets its expiry)."""
    clock = FakeClock()
    first = await BotProcess(server, redis_server.url, prefix, seed=3, clock=clock).start()
    lobby_group = server.group(title="Lobby")
    group, ann, _ben = await timed_game(server, first, 2)
    chat = str(group["id"])
    assert first.service is not None
    await first.settle(server.send_command(lobby_group, ann, "/new"))
    table = await first.service.table(chat)
    assert table is not None and table.game is not None
    await first.stop()  # its jobs die with it
    clock.advance(2.2)  # no bot runs for longer than a turn

    options = replace(FAST, lobby_seconds=1.0)
    mark = server.mark()
    second = await BotProcess(server, redis_server.url, prefix, seed=4, options=options, clock=clock).start()
    try:
        assert second.service is not None
        # The lobby's expiry was due during the downtime: closed at start-up.
        closed = await server.wait_for("editMessageText", lambda p: "lobby is closed" in p.get("text", ""),
                                       timeout=5, after=mark)
        assert closed.params["chat_id"] == lobby_group["id"]
        # The downtime is not held against the player on turn: a whole turn from the restart.
        assert second.scheduler.due_at("timer", group["id"]) == pytest.approx(clock() + 2)
        await second.advance(1.99)
        assert not [c for c in server.calls[mark:] if "ran out of time" in str(c.params.get("text", ""))]
        still = await second.service.table(chat)
        assert still is not None and still.version == table.version
        await second.advance(0.02)
        edit = await server.wait_for("editMessageText", lambda p: "ran out of time" in p.get("text", ""),
                                     timeout=5, after=mark)
        assert edit.params["chat_id"] == group["id"]
        after = await second.service.table(chat)
        assert after is not None and after.version > table.version
    finally:
        await second.stop()


async def test_a_timer_outlives_a_store_outage(server: BotAPIServer, tmp_path: object, prefix: str) -> None:
    """The turn timer runs out while Redis is down: the job tries again, and
    once Redis is back the player's turn is timed out as it should be."""
    redis = RedisServer(tmp_path / "down").start()  # type: ignore[operator]
    bot = await BotProcess(server, redis.url, prefix, options=replace(FAST, retry_after=0.2)).start()
    try:
        group, _ann, _ben = await timed_game(server, bot, 1)
        assert bot.service is not None
        table = await bot.service.table(str(group["id"]))
        assert table is not None
        mark = server.mark()
        redis.stop()
        assert await bot.advance(1.2) == 1  # the timer fires into the outage...
        assert await bot.advance(0.2) == 1  # ...and again, retry_after later
        job = bot.scheduler.planned[f"timer:{group['id']}"]
        assert job.data["tries"] == 2
        assert bot.scheduler.due_at("timer", group["id"]) == pytest.approx(bot.clock() + 0.2)  # type: ignore[misc]
        redis.start()
        assert not [c for c in server.calls[mark:] if "ran out of time" in str(c.params.get("text", ""))]
        assert await bot.advance(0.2) == 1
        edit = await server.wait_for("editMessageText", lambda p: "ran out of time" in p.get("text", ""),
                                     timeout=8, after=mark)
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
    timeouts = 0
    while not [c for c in server.calls[mark:] if "timed out too often" in str(c.params.get("text", ""))]:
        timeouts += await bot.advance(1 + FAST.timer_grace)
        assert timeouts <= 9, "nobody was removed after three timeouts each"
    assert timeouts == 7  # two rounds of three seats, then the first seat's third
    removed = await server.wait_for("editMessageText", lambda p: "timed out too often" in p.get("text", ""),
                                    timeout=5, after=mark)
    assert removed.params["chat_id"] == group["id"]
    table = await bot.service.table(chat)
    assert table is not None and len(table.left) == 1
    gone = next(s.name for s in table.seats if s.id == table.left[0])
    assert f"{gone} timed out too often and was removed." in removed.params["text"]


async def test_in_production_the_jobqueue_runs_a_job_at_its_point_on_the_clock(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """The fake clock stands in for the JobQueue in the tests above; here the
    real one (what `unobot telegram` runs) gets a job due on the service's clock."""
    import asyncio

    from unobot.adapters.telegram.scheduler import Scheduler

    bot = await BotProcess(server, redis_server.url, prefix, real_time=True).start()
    try:
        scheduler = bot.app.bot_data["unobot"].scheduler
        assert type(scheduler) is Scheduler and bot.service is not None and scheduler.clock is bot.service.clock
        ran = asyncio.Event()

        async def probe(context: object) -> None:
            ran.set()

        scheduler.callbacks = {**scheduler.callbacks, "probe": probe}
        scheduler.plan("probe", 1, scheduler.now() + 0.05, {"chat": 1})
        assert scheduler.has("probe", 1)
        await asyncio.wait_for(ran.wait(), 5)
        for _ in range(100):  # forgotten once it ran (the runner's finally follows the callback)
            if not scheduler.has("probe", 1):
                break
            await asyncio.sleep(0)
        assert not scheduler.has("probe", 1)
    finally:
        await bot.stop()


async def test_a_rules_round_clock_rings_on_time(server: BotAPIServer, bot: BotProcess) -> None:
    """Blitz ends a round after five minutes: core's wake plan says so, the bot
    plans a `clock` job at that point of the service's clock, and when it rings
    the round is over, without anyone sending a command."""
    from unobot.chat import commands as c
    from unobot.chat.table import BETWEEN_ROUNDS, FINISHED

    group = server.group()
    chat = str(group["id"])
    assert bot.service is not None
    out = await bot.service.handle(chat, c.Person("setup", "Setup", None, True), c.SetRule(rule="blitz", enabled=True))
    assert out.ok, out.error
    group, _ann, _ben = await timed_game(server, bot, 0, group)
    table = await bot.service.table(chat)
    assert table is not None and table.game is not None and table.round_started
    due = bot.scheduler.due_at("clock", group["id"])
    assert due == pytest.approx(table.round_started + 5 * 60)
    assert not bot.scheduler.has("timer", group["id"])
    await bot.advance(due - bot.clock.now - 0.5)  # type: ignore[union-attr]
    still = await bot.service.table(chat)
    assert still is not None and still.phase not in (BETWEEN_ROUNDS, FINISHED)
    await bot.advance(1.0)
    rung = await bot.service.table(chat)
    assert rung is None or rung.phase in (BETWEEN_ROUNDS, FINISHED)
    assert not bot.scheduler.has("clock", group["id"])


async def test_the_hand_offers_to_skip_a_player_whose_time_is_up(server: BotAPIServer, bot: BotProcess) -> None:
    """Once the turn timer ran out, the players' hands offer core's "skip the
    player whose time is up", as Discord's panel does (the hand was built
    without the clock, so Telegram offered it only as /skip)."""
    from unobot.adapters.telegram import inline_results

    group, ann, ben = await timed_game(server, bot, 30)
    assert bot.service is not None and bot.clock is not None
    table = await bot.service.table(str(group["id"]))
    assert table is not None and table.game is not None
    waiting = ben if table.seats[table.game.turn].id == str(ann["id"]) else ann

    async def skips() -> list[str]:
        query = server.inline_query(waiting, "")
        await bot.settle(query)
        results = server.inline_answers[query["inline_query"]["id"]]["results"]
        return [r["id"] for r in results if (inline_results.decode(r["id"]) or inline_results.Choice("", 0, "", "")).code == "t"]

    assert await skips() == []
    bot.clock.advance(30)  # the time is up; the timer's job (due after its grace) has not run
    offered = await skips()
    assert len(offered) == 1
    version = table.version
    message, chosen = server.pick_inline_result(group, waiting, offered[0])
    assert chosen is not None
    await bot.settle(chosen)
    after = await bot.service.table(str(group["id"]))
    assert after is not None and after.version > version and "timed_out" in [r[0] for r in after.recent]
