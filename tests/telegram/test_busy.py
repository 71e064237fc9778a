"""One busy group slows nobody else; a restart refreshes every status; a player in
two games plays each from its own group (issue 15)."""

from __future__ import annotations

import asyncio
import datetime as dt
import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

from telegram.error import RetryAfter

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.clock import FakeClock
from tests.telegram.driver import BotProcess, TableDriver
from tests.telegram.test_game import short_games
from unobot.adapters.telegram import inline_results, keyboards
from unobot.adapters.telegram.limiter import (
    EDIT,
    NORMAL,
    SHED,
    WORKER,
    GroupLimiter,
    Shed,
    priority,
)
from unobot.chat import commands as c
from unobot.chat.commands import Person

ROOT = Path(__file__).resolve().parents[2]


def load_bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_telegram_busy", ROOT / "bench" / "telegram_busy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


# -- the limiter ---------------------------------------------------------------------------

async def test_limiter_keeps_a_reserve_sheds_replies_and_paces_only_group_posts() -> None:
    """On a clock that stands still until the test moves it: a token comes back only
    then, however slow the machine, so "at once" is "without a token the clock would
    bring" and "waits" is "until the clock moves" (a stall of the machine changes neither)."""
    clock = FakeClock()
    limiter = GroupLimiter(clock=clock, group_per_minute=60, group_burst=4, reserve=2, overall_per_second=0)
    calls: list[str] = []

    async def call(name: str) -> bool:
        calls.append(name)
        return True

    async def post(endpoint: str, chat: int, level: str) -> Any:
        with priority(level):
            return await limiter.process_request(call, (endpoint,), {}, endpoint, {"chat_id": chat}, None)

    async def at_once(endpoint: str, chat: int, level: str) -> Any:
        return await asyncio.wait_for(post(endpoint, chat, level), 10)  # a timeout: it waited for a token

    group = -100123
    # Edits leave two tokens: two go at once, the third waits for a token (1 a second).
    await at_once("editMessageText", group, EDIT)
    await at_once("editMessageText", group, EDIT)
    waiting = asyncio.get_running_loop().create_task(post("editMessageText", group, EDIT))
    await asyncio.sleep(0.1)
    assert not waiting.done()
    # ...while a new message (a round's) takes the reserve at once, and a reply is shed, not queued.
    await at_once("sendMessage", group, NORMAL)
    await at_once("sendMessage", group, NORMAL)
    try:
        await post("sendMessage", group, SHED)
        raise AssertionError("a reply waited for a spent budget")
    except Shed:
        pass
    # Admin checks, answers and private messages spend no group budget.
    for _ in range(20):
        await at_once("getChatMember", group, NORMAL)
        await at_once("sendMessage", 42, NORMAL)
    assert not waiting.done() and calls.count("editMessageText") == 2
    clock.advance(3.0)  # the tokens the edit needs (it leaves the reserve)
    await asyncio.wait_for(waiting, 10)
    assert calls.count("editMessageText") == 3


async def test_answers_and_reads_never_wait_and_replies_never_queue_behind_the_bot_wide_budget() -> None:
    """The bot-wide budget (30 a second) spent, on a clock that stands still (so
    any wait for it would be forever): answers, admin checks and other reads
    go at once, in any number; a reply is dropped at once; a post that must
    go (a status edit, a notice) waits, and says who waited."""
    clock = FakeClock()
    limiter = GroupLimiter(clock=clock)
    calls: list[str] = []

    async def call(name: str) -> bool:
        calls.append(name)
        return True

    async def post(endpoint: str, data: dict[str, Any], level: str = NORMAL) -> Any:
        with priority(level):
            return await asyncio.wait_for(
                limiter.process_request(call, (endpoint,), {}, endpoint, data, None), 5)

    # Thirty private messages spend the bot-wide budget (no group budget is involved).
    for user in range(1, 31):
        await post("sendMessage", {"chat_id": user, "text": "x"})
    overall = limiter.overall()
    assert overall is not None and overall.tokens < 1
    started = len(calls)
    for _ in range(100):
        await post("answerInlineQuery", {"inline_query_id": "1", "results": []})
        await post("answerCallbackQuery", {"callback_query_id": "1"})
        await post("getChatMember", {"chat_id": -100123, "user_id": 5})
        await post("getChat", {"chat_id": -100123})
        # A picked inline result's message, edited to say why the pick was refused: no chat, no budget.
        await post("editMessageText", {"inline_message_id": "im", "text": "no"})
    assert len(calls) - started == 500
    for chat in (-100123, 42):
        try:
            await post("sendMessage", {"chat_id": chat, "text": "help"}, SHED)
            raise AssertionError("a reply waited for the bot-wide budget")
        except Shed:
            pass
    assert not limiter.waited
    # A status edit (the status worker's task) waits for the budget, and is counted as the worker's.
    async def worker() -> None:
        WORKER.set("status")
        await limiter.process_request(call, ("editMessageText",), {}, "editMessageText",
                                      {"chat_id": -100123, "message_id": 1, "text": "t"}, None)

    waiting = asyncio.get_running_loop().create_task(worker())
    await asyncio.sleep(0.05)
    assert not waiting.done() and limiter.waited == {("editMessageText", "status"): 1}
    clock.advance(1.0)
    await asyncio.wait_for(waiting, 5)
    # With the reserve back (10 of 30 are kept from replies), a reply goes again.
    clock.advance(1.0)
    await post("sendMessage", {"chat_id": -100123, "text": "help"}, SHED)


async def test_a_flood_answer_in_one_group_pauses_that_group_only() -> None:
    """On a clock that stands still: the flooded group waits until the clock passes its
    retry_after, while another group's post goes at once (no stall of the machine counts)."""
    clock = FakeClock()
    limiter = GroupLimiter(clock=clock, group_per_minute=600, group_burst=10, overall_per_second=0)
    tries: dict[int, int] = {}

    async def call(chat: int) -> bool:
        tries[chat] = tries.get(chat, 0) + 1
        if chat == -1 and tries[chat] == 1:
            raise RetryAfter(dt.timedelta(seconds=1))
        return True

    async def post(chat: int) -> Any:
        return await limiter.process_request(call, (chat,), {}, "sendMessage", {"chat_id": chat}, None)

    flooded = asyncio.get_running_loop().create_task(post(-1))
    await asyncio.sleep(0.05)
    assert tries.get(-1) == 1
    assert await asyncio.wait_for(post(-2), 10) is True  # another group is not held up
    await asyncio.sleep(1.3)  # the flooded post's own retry_after (and its 0.1) in real time...
    assert not flooded.done() and tries[-1] == 1  # ...but its group waits for the clock to pass it
    clock.advance(1.2)
    assert await asyncio.wait_for(flooded, 10) is True and tries[-1] == 2


# -- end to end --------------------------------------------------------------------------------

async def test_a_busy_group_slows_no_other_and_its_status_keeps_up(server: BotAPIServer, redis_server: RedisServer,
                                                                   prefix: str) -> None:
    """Telegram's real budgets (20 a minute per group); one group picks 5 times a second.

    Each bound sets the design against its failure, not a speed (how fast is
    `bench/telegram_busy.py`'s to print, as a ratio to the idle latency): a
    move that waited on the busy group's budget would wait for its next
    token, about 3 s (one every 3 s), so the quiet groups' moves stay well
    under that, beside the busy group's picks on the same machine; a status
    left behind the picks would go unedited for the whole 9 s, and the
    budget's refill edits it every 3 s. (Before: within 2x of the idle
    latency, a ratio a machine shared with other work broke once.)"""
    bench = load_bench()
    result = await bench.measure(server, redis_server.url, prefix, seconds=9.0, samples=8)
    assert result.picks >= 10  # picks waiting on the budget: 3 in 9 s
    idle = result.pct(result.idle, 0.5)
    busy = result.pct(result.busy, 0.5)
    assert len(result.busy) >= 4
    assert busy <= idle + 1.0, (result.idle, result.busy)
    assert result.pct(result.busy, 0.99) < 2.5, result.busy
    assert result.longest_gap <= 6.0, result.longest_gap
    assert result.final_shown


async def test_a_restarted_bot_refreshes_every_running_status(server: BotAPIServer, redis_server: RedisServer,
                                                              prefix: str) -> None:
    """Three running games; in each a move is saved and the process dies before
    its status edit went out. The next process (the production limiter)
    brings every game's status message up to date as it starts, no move
    needed."""
    first = await BotProcess(server, redis_server.url, prefix, seed=3).start()
    drivers, drawn = [], []
    for i in range(3):
        group = server.group(title=f"Crash {i}")
        ann, ben = server.user(10 * i + 1, f"Ann{i}"), server.user(10 * i + 2, f"Ben{i}")
        driver = TableDriver(server, first, group, [ann, ben], check_privacy=False)
        await short_games(first, driver.chat)
        await driver.command(ann, "/new")
        await driver.press(ben, keyboards.JOIN)
        await driver.press(ann, keyboards.START)
        drivers.append(driver)
    assert first.service is not None
    for driver in drivers:
        table = await first.service.table(driver.chat)
        assert table is not None and table.game is not None
        # The move is saved, then (below) the process dies before its status edit went out.
        on_turn = table.seats[table.game.turn]
        person = Person(on_turn.id, on_turn.name)
        outcome = await first.service.handle(driver.chat, person, c.Draw(version=table.version))
        if outcome.code == "name_color_first":  # a Wild starter: its colour first, then the draw
            outcome = await first.service.handle(driver.chat, person, c.NameColor(color="R", version=table.version))
            assert outcome.ok and outcome.table is not None
            outcome = await first.service.handle(driver.chat, person, c.Draw(version=outcome.table.version))
        assert outcome.ok and outcome.table is not None
        drawn.append(on_turn.name)
    await first.stop()
    for driver in drivers:
        status = driver.status_message()
        assert status is not None and "drew" not in status["text"]
    mark = server.mark()
    second = await BotProcess(server, redis_server.url, prefix, seed=4, rate_limiter=GroupLimiter()).start()
    try:
        for driver, name in zip(drivers, drawn, strict=True):
            chat = driver.group["id"]
            edit = await server.wait_for("editMessageText", lambda p, chat=chat: p.get("chat_id") == chat,
                                         timeout=10, after=mark)
            assert f"{name} drew" in edit.params["text"]
            status = driver.status_message()
            assert status is not None and f"{name} drew" in status["text"]
    finally:
        await second.stop()


async def test_a_process_starting_while_a_lobby_is_posted_does_not_post_it_again(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """/new is saved by one process, which is still posting the lobby (its
    status message not recorded yet) when another process starts: the new
    one plans the lobby's expiry but posts nothing there (a second lobby,
    the one whose id the store ends up without, takes every Join as "an
    older message"); it brings the recorded statuses up to date as before."""
    first = await BotProcess(server, redis_server.url, prefix, seed=5).start()
    shown = server.group(title="Shown")
    driver = TableDriver(server, first, shown, [server.user(51, "Ann"), server.user(52, "Ben")],
                         check_privacy=False)
    await driver.command(driver.players[0], "/new")
    posting = server.group(title="Posting")
    assert first.service is not None
    assert (await first.service.handle(str(posting["id"]), Person("61", "Cy"), c.NewGame())).ok
    await first.stop()
    mark = server.mark()
    second = await BotProcess(server, redis_server.url, prefix, seed=6).start()
    try:
        await server.wait_for("editMessageText", lambda p: p.get("chat_id") == shown["id"], timeout=10, after=mark)
        assert second.scheduler.has("lobby", posting["id"])
        assert [call.method for call in server.calls[mark:] if call.params.get("chat_id") == posting["id"]] == []
    finally:
        await second.stop()


async def test_a_player_in_two_games_plays_each_from_its_own_group(server: BotAPIServer, bot: BotProcess) -> None:
    ann = server.user(1, "Ann")
    drivers = []
    for i, other in enumerate([server.user(2, "Ben"), server.user(3, "Cid")]):
        group = server.group(title=f"Room {i}")
        driver = TableDriver(server, bot, group, [ann, other], check_privacy=False)
        await short_games(bot, driver.chat)
        await driver.command(other, "/new")
        await driver.press(ann, keyboards.JOIN)
        await driver.press(other, keyboards.START)
        drivers.append(driver)
    first, second = drivers
    # "My cards" under each game's status names that game.
    for driver in drivers:
        status = driver.status_message()
        assert status is not None
        button = server.buttons(driver.group, status["message_id"])[0]
        assert button["switch_inline_query_current_chat"] == f"#{driver.chat} "
    # Each button's query shows that game's hand: every result id names its chat.
    for driver in drivers:
        update = server.inline_query(ann, f"#{driver.chat} ")
        await bot.settle(update)
        results = server.inline_answers[update["inline_query"]["id"]]["results"]
        choices = [inline_results.decode(r["id"]) for r in results]
        assert choices and all(ch is not None and ch.chat == driver.chat for ch in choices)
    # No game named and two running: a picker, one entry per game, each naming its game.
    update = server.inline_query(ann, "")
    await bot.settle(update)
    results = server.inline_answers[update["inline_query"]["id"]]["results"]
    assert sorted(r["title"] for r in results) == ["🃏 Room 0", "🃏 Room 1"]
    for r in results:
        choice = inline_results.decode(r["id"])
        assert choice is not None and choice.code == "ng"
        assert r["reply_markup"]["inline_keyboard"][0][0]["switch_inline_query_current_chat"] == f"#{choice.chat} "
    # Ann plays in the first game, then the second: each move lands in its own game.
    for driver in (first, second):
        table = await driver.table()
        assert table is not None and table.game is not None
        if table.seats[table.game.turn].id != str(ann["id"]):
            other = driver.players[1]
            update = server.inline_query(other, f"#{driver.chat}")
            await bot.settle(update)
            await driver.choose(other, driver.pick(server.inline_answers[update["inline_query"]["id"]]["results"])
                                or "")
        table = await driver.table()
        assert table is not None and table.game is not None
        if table.seats[table.game.turn].id != str(ann["id"]):
            continue  # the other player's move gave them another turn (a skip): fine, nothing to check here
        update = server.inline_query(ann, f"#{driver.chat}")
        await bot.settle(update)
        pick = driver.pick(server.inline_answers[update["inline_query"]["id"]]["results"])
        assert pick is not None
        before = {d.chat: (await d.table()).version for d in drivers}  # type: ignore[union-attr]
        await driver.choose(ann, pick)
        after = {d.chat: (await d.table()).version for d in drivers}  # type: ignore[union-attr]
        assert after[driver.chat] > before[driver.chat]
        assert all(after[d.chat] == before[d.chat] for d in drivers if d is not driver)


async def test_a_hundred_help_commands_hold_up_nobody(server: BotAPIServer, redis_server: RedisServer,
                                                      prefix: str) -> None:
    """A hundred /help in one group are answered by the one reply on its way
    (repeats of the same reply are not queued again), a different command in
    the same flood is still answered, and other groups, and the group's own
    buttons and hands, are served at once."""
    bot = await BotProcess(server, redis_server.url, prefix, rate_limiter=GroupLimiter()).start()
    try:
        crowd = server.group(title="Crowd")
        for i in range(100):
            server.send_command(crowd, server.user(1000 + i, f"H{i}"), "/help")
        other = server.group(title="Elsewhere")
        ann = server.user(1, "Ann")
        started = time.monotonic()
        update = server.send_command(other, ann, "/new")
        await server.wait_answer(update, "sendMessage", timeout=5)
        query = server.inline_query(ann, "")
        await server.wait_answer(query, timeout=5)
        assert time.monotonic() - started < 2.0
        stats = server.send_command(crowd, server.user(999, "S"), "/stats")
        await server.wait_answer(stats, "sendMessage", timeout=5)
        await bot.idle(10)
        replies = [call for call in server.calls if call.method == "sendMessage"
                   and call.params.get("chat_id") == crowd["id"]]
        helps = [call for call in replies if "How to play" in call.params["text"]]
        # One reply answers every /help typed while it was on its way: never more than the burst.
        assert 1 <= len(helps) <= 20 and len(replies) == len(helps) + 1
        assert bot.app.bot.replies.shed == 100 - len(helps)
    finally:
        await bot.stop()
