"""Several bot processes, one Redis: nothing about a game lives in a process."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from telegram.ext import CallbackContext

from tests.botapi import BotAPIServer
from tests.support.ports import free_port
from tests.support.redis_server import RedisServer
from tests.telegram.driver import JSON, Balancer, BotProcess, TableDriver, bot_messages
from tests.telegram.test_delivery import _move, _start
from tests.telegram.test_game import lobby_and_start, open_table, short_games
from unobot.adapters.telegram import handlers, keyboards
from unobot.adapters.telegram.runtime import KEY
from unobot.chat import commands as c


async def test_second_process_continues_the_game(server: BotAPIServer, redis_server: RedisServer,
                                                 prefix: str) -> None:
    first = await BotProcess(server, redis_server.url, prefix, seed=3).start()
    second = BotProcess(server, redis_server.url, prefix, seed=4)
    try:
        driver = await open_table(server, first, seed=5)
        await short_games(first, driver.chat, scoring="target=0")
        await lobby_and_start(driver)
        for _ in range(6):
            assert await driver.step()
        table = await driver.table()
        assert table is not None
        status_id = table.adapter["status"]
        moves_before = driver.stats.moves
        await first.stop()  # the first process goes away mid-game

        await second.start()
        mark = server.mark()
        driver.use(second)
        stats = await driver.play()
        assert stats.moves > moves_before
        edited = {p["message_id"] for p in server.calls_to("editMessageText")[0:] if "message_id" in p}
        assert status_id in edited
        assert any(c.method == "editMessageText" and c.params.get("message_id") == status_id
                   for c in server.calls[mark:])
        assert "wins the match" in driver.bot_messages()[-1]["text"]
    finally:
        await first.stop()
        await second.stop()


async def test_two_webhook_processes_share_one_game(server: BotAPIServer, redis_server: RedisServer,
                                                    prefix: str) -> None:
    """Every update goes to the next process in turn, as behind a load balancer."""
    bots = [BotProcess(server, redis_server.url, prefix, seed=i, webhook_port=free_port()) for i in (1, 2)]
    for bot in bots:
        await bot.start()
    try:
        base = await open_table(server, bots[0], seed=9)
        driver = TableDriver(server, Balancer(bots), base.group, base.players, seed=9)
        await short_games(bots[0], driver.chat, scoring="target=0")
        await lobby_and_start(driver)
        stats = await driver.play()
        assert stats.moves > 5
        assert "wins the match" in driver.bot_messages()[-1]["text"]
        # Both processes served moves.
        assert driver.router.next > 10  # type: ignore[union-attr]
    finally:
        for bot in bots:
            await bot.stop()


async def test_a_move_costs_its_group_one_status_edit_however_many_processes_serve_the_bot(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """The processes of one bot share each group's message budget (about 20
    posts a minute, edits included). The process that saved a move edits the
    status message; the others hear of the move on the store's change feed
    and re-plan its timers, but send no second, equal edit (they did: one edit
    per process and move, so three processes left a busy group a third of
    its status updates)."""
    bots = [BotProcess(server, redis_server.url, prefix, seed=i, webhook_port=free_port()) for i in (1, 2, 3)]
    for bot in bots:
        await bot.start()
    try:
        await bots[0].listening(3)  # every process follows the feed before any save
        followed: list[list[int]] = [[] for _ in bots]
        for bot, seen in zip(bots, followed):
            waker = bot.app.bot_data[KEY].waker
            assert waker is not None
            waker.ensure = _recording(waker.ensure, seen)  # called through: what each follower heard
        first = bots[0]
        group = server.group(title="Budget")
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        chat = str(group["id"])
        for update in (server.send_command(group, ann, "/new", queue=False),
                       server.send_command(group, ben, "/join", queue=False)):
            assert await server.post_update_to(first.webhook_url, update, secret_token=first.secret) == 200
        _start_update, started = await _start(server, first, group, ann)
        await _heard(bots[1:], followed[1:], started.version)
        mark = server.mark()
        await _move(server, first, group, started, (ann, ben))
        moved = await first.service.table(chat)
        assert moved is not None and moved.version > started.version
        await _heard(bots[1:], followed[1:], moved.version)  # both other processes heard of the move
        await first.idle()
        status = int(moved.adapter["status"])
        edits = [c for c in server.calls[mark:]
                 if c.method == "editMessageText" and c.params.get("message_id") == status]
        assert len(edits) == 1, [e.params.get("text") for e in edits]
    finally:
        for bot in bots:
            await bot.stop()


def _recording(ensure: Any, seen: list[int]) -> Any:
    def recorded(place: Any, table: Any, **kwargs: Any) -> None:
        seen.append(table.version)
        ensure(place, table, **kwargs)
    return recorded


async def _heard(bots: list[BotProcess], followed: list[list[int]], version: int, timeout: float = 10.0) -> None:
    """Until each process's follower re-planned the table at `version`, and sent what it would."""
    async def heard() -> None:
        while not all(seen and max(seen) >= version for seen in followed):
            await asyncio.sleep(0.01)
    await asyncio.wait_for(heard(), timeout)
    for bot in bots:
        await bot.idle()


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_a_held_back_edit_never_overwrites_a_newer_state(server: BotAPIServer, redis_server: RedisServer,
                                                               prefix: str) -> None:
    """Process 1 handles a move while Telegram's flood limit holds its status
    edit back; process 2 handles the next move and edits at once. When
    process 1's edit finally may go, it shows an older state: it is dropped,
    and the status keeps showing the newest one."""
    bots = [BotProcess(server, redis_server.url, prefix, seed=i, webhook_port=free_port()) for i in (1, 2)]
    for bot in bots:
        await bot.start()
    try:
        base = await open_table(server, bots[0], seed=4)
        driver = TableDriver(server, Balancer(bots), base.group, base.players, seed=4)
        await short_games(bots[0], driver.chat, scoring="target=0")
        await lobby_and_start(driver)
        group = driver.group

        async def move_through(bot: BotProcess) -> JSON:
            """The player on turn opens their hand and picks, all through `bot`
            (the other process is not waited for); the pick is not waited for."""
            table = await driver.table()
            assert table is not None and table.game is not None
            user = driver.players[table.game.turn]
            query = server.inline_query(user, "", queue=False)
            assert await server.post_update_to(bot.webhook_url, query, secret_token=bot.secret) == 200
            await bot.idle()
            pick = driver.pick(server.inline_answers[query["inline_query"]["id"]]["results"])
            assert pick is not None
            _message, chosen = server.pick_inline_result(group, user, pick, queue=False)
            assert chosen is not None
            assert await server.post_update_to(bot.webhook_url, chosen, secret_token=bot.secret) == 200
            return chosen

        async def saved_after(version: int) -> None:
            deadline = asyncio.get_running_loop().time() + 30  # generous: a loaded machine is slow
            while asyncio.get_running_loop().time() < deadline:
                table = await driver.table()
                if table is not None and table.version > version:
                    return
                await asyncio.sleep(0.01)
            raise AssertionError("the move was not saved")

        start = await driver.table()
        assert start is not None
        server.flood_limit(group, 0, retry_after=1)  # every send to the group is refused for now
        mark = server.mark()
        await move_through(bots[0])
        await saved_after(start.version)
        await server.wait_for("editMessageText", lambda p: p.get("chat_id") == group["id"], timeout=5, after=mark)
        server.flood_limit(group, None)  # process 1 waits out its retry_after meanwhile
        middle = await driver.table()
        assert middle is not None
        await move_through(bots[1])
        await saved_after(middle.version)
        for bot in bots:
            await bot.idle(timeout=15)
        newest = await driver.table()
        assert newest is not None and newest.game is not None
        shown = server.messages[group["id"]][int(newest.adapter["status"])]["text"]
        assert f"Turn: {newest.seats[newest.game.turn].name}" in shown, shown
        assert f"Turn: {middle.seats[middle.game.turn].name}" not in shown or (  # type: ignore[union-attr]
            middle.game.turn == newest.game.turn), shown  # type: ignore[union-attr]
    finally:
        for bot in bots:
            await bot.stop()


async def test_a_spanish_players_notices_stay_spanish_in_another_process(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """Bob's app speaks Spanish, the group English. The first process learns it from his
    pick; the process stops. In a second process, which has heard nothing from Bob, Ann's
    Draw Two makes him take two: he is told so in Spanish (the table keeps his language)."""
    from tests.telegram.test_private import code_of, rig_draw_two
    from unobot.adapters.telegram import keyboards

    first = await BotProcess(server, redis_server.url, prefix, seed=3).start()
    second = BotProcess(server, redis_server.url, prefix, seed=4)
    try:
        group = server.group(title="English chat")
        ann, bob = server.user(1, "Ann"), server.user(2, "Bob", language_code="es")
        driver = TableDriver(server, first, group, [ann, bob], check_privacy=False)
        await short_games(first, driver.chat)
        await first.settle(server.send_command(server.private_chat(bob), bob, "/start"))  # Bob may be written to
        await driver.command(ann, "/new")
        await driver.press(bob, keyboards.JOIN)
        await driver.press(ann, keyboards.START)
        await rig_draw_two(first, driver.chat, bob)  # Bob on turn: he plays his Draw Two through the first process
        results = await driver.hand(bob)
        await driver.choose(bob, next(r["id"] for r in results if code_of(r) == "pR+2"))
        await first.stop()

        await second.start()
        driver.use(second)
        await rig_draw_two(second, driver.chat, ann)
        results = await driver.hand(ann)
        mark = server.mark()
        await driver.choose(ann, next(r["id"] for r in results if code_of(r) == "pR+2"))
        notice = await server.wait_for("sendMessage", lambda p: p.get("chat_id") == bob["id"], after=mark)
        assert notice.params["text"].startswith("Robaste"), notice.params["text"]
        assert not [c for c in server.calls[mark:] if c.method == "answerInlineQuery"]  # nothing from Bob
    finally:
        await first.stop()
        await second.stop()


async def test_two_processes_posting_one_lobby_leave_one_lobby_message(server: BotAPIServer,
                                                                       redis_server: RedisServer,
                                                                       prefix: str) -> None:
    """Process 1 saved a /new and is still posting its lobby when process 2
    takes a /join: it finds no status message recorded and posts the lobby
    itself. Process 1's post, recorded second, is deleted and the lobby shown
    on process 2's: the group sees one lobby, and its buttons work (were both
    left, the store would know one, and every press on the other would be
    "an older message")."""
    bots = [BotProcess(server, redis_server.url, prefix, seed=i, webhook_port=free_port()) for i in (1, 2)]
    for bot in bots:
        await bot.start()
    try:
        group = server.group(title="Race")
        ann, ben, cy = server.user(71, "Ann"), server.user(72, "Ben"), server.user(73, "Cy")
        chat = str(group["id"])
        service = bots[0].service
        assert service is not None
        opened = await service.handle(chat, c.Person(str(ann["id"]), "Ann"), c.NewGame())
        assert opened.ok
        join = server.send_command(group, ben, "/join", queue=False)
        assert await server.post_update_to(bots[1].webhook_url, join, secret_token=bots[1].secret) == 200
        table = await service.table(chat)
        assert table is not None and [s.name for s in table.seats] == ["Ann", "Ben"]
        posted = table.adapter["status"]
        assert [m["message_id"] for m in bot_messages(server, group)] == [posted]

        # Process 1's post of the lobby, now: its claim loses to process 2's.
        await handlers.open_lobby(CallbackContext(bots[0].app), int(chat), "Race", c.Person(str(ann["id"]), "Ann"),
                                  opened)
        for bot in bots:
            await bot.idle()
        table = await service.table(chat)
        assert table is not None and table.adapter["status"] == posted and table.adapter["title"] == "Race"
        shown = bot_messages(server, group)
        assert [m["message_id"] for m in shown] == [posted]
        assert any(b.get("callback_data") == keyboards.JOIN for b in server.buttons(group, posted))

        press = server.press_button(group, cy, posted, keyboards.JOIN, queue=False)
        assert await server.post_update_to(bots[0].webhook_url, press, secret_token=bots[0].secret) == 200
        table = await service.table(chat)
        assert table is not None and [s.name for s in table.seats] == ["Ann", "Ben", "Cy"]
    finally:
        for bot in bots:
            await bot.stop()
