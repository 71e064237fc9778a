"""Every person's command is answered (issue 25).

After a fast game the status edits had spent the group's message budget,
and a reply to a command was dropped when the group had no token at that
instant: an admin's /rules and /help went unanswered. Now a reply goes at
once or at the group's next token, ahead of the status edits, and the
edits leave a token for it; only repeats of the same reply in a flood are
not queued again (the one on its way answers them all).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.clock import FakeClock
from tests.telegram.driver import BotProcess, TableDriver
from unobot.adapters.telegram import keyboards
from unobot.adapters.telegram.limiter import EDIT, REPLY, GroupLimiter, priority
from unobot.chat.table import PLAYING

#: The bound the issue sets for an answer when the group's budget is spent:
#: the budget refills a token every 3 s (20 a minute).
ANSWER_BOUND = 3.0
#: A reply that waits for the group's next token gets it 3 s after the last one,
#: plus the machine's own time to send it.
NEXT_TOKEN_SLACK = 1.0


async def test_a_reply_takes_the_next_token_ahead_of_the_edits() -> None:
    """The group's budget spent, on a clock the test moves: an edit and then a
    reply wait; the token that comes goes to the reply, the next to the edit.
    A stale edit leaves `room` tokens: a reply finds one at once."""
    clock = FakeClock()
    # A token every 0.1 s (the limiter sleeps the real time it computes, then looks at the clock).
    limiter = GroupLimiter(clock=clock, overall_per_second=0, group_per_minute=600, stale=0.3)
    sent: list[str] = []

    async def call(name: str) -> bool:
        sent.append(name)
        return True

    async def post(name: str, level: str) -> Any:
        with priority(level):
            return await limiter.process_request(call, (name,), {}, "sendMessage" if level == REPLY
                                                 else "editMessageText", {"chat_id": -100}, None)

    budget = limiter.budget(-100)
    budget.tokens = 0.0
    edit = asyncio.get_running_loop().create_task(post("edit", EDIT))
    await asyncio.sleep(0.01)
    reply = asyncio.get_running_loop().create_task(post("reply", REPLY))
    await asyncio.sleep(0.01)
    assert sent == []
    clock.advance(0.11)  # one token
    await asyncio.wait_for(reply, 2)
    await asyncio.sleep(0.1)
    assert sent == ["reply"] and not edit.done()
    clock.advance(1.0)
    await asyncio.wait_for(edit, 2)
    assert sent == ["reply", "edit"]
    # A stale edit (nothing shown for `stale` seconds) leaves the room.
    budget.tokens = 1.5
    budget.last_post = clock() - 60
    stale = asyncio.get_running_loop().create_task(post("edit", EDIT))
    await asyncio.sleep(0.05)
    assert not stale.done()
    await asyncio.wait_for(post("reply", REPLY), 1)  # the room's token, at once
    stale.cancel()


async def test_an_admins_rules_right_after_a_fast_game_is_answered_within_3_s(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """The production limiter on the real clock. Ann and Ben play quickly
    a round to its end (the edits spend the group's budget, the round's
    message takes a token more); passers-by type
    /new (refused: each reply takes a token). Then Ann, an admin, types
    /rules and /help: each is answered within 3 s."""
    limiter = GroupLimiter()
    bot = await BotProcess(server, redis_server.url, prefix, rate_limiter=limiter).start()
    try:
        group = server.group(title="Fast")
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        server.set_status(group, ann, "administrator")
        driver = TableDriver(server, bot, group, [ann, ben], check_privacy=False)
        assert bot.service is not None
        await driver.command(ann, "/new")
        await driver.press(ben, keyboards.JOIN)
        await driver.press(ann, keyboards.START)
        budget = limiter.budget(group["id"])

        async def move() -> None:
            table = await driver.table()
            assert table is not None and table.phase == PLAYING and table.game is not None
            user = next(p for p in (ann, ben) if str(p["id"]) == table.seats[table.game.turn].id)
            query = server.inline_query(user, f"#{driver.chat} ")
            answer = await server.wait_answer(query, "answerInlineQuery", timeout=10)
            pick = driver.pick(answer.params["results"])
            assert pick is not None
            _message, chosen = server.pick_inline_result(group, user, pick)
            assert chosen is not None
            await server.wait_consumed(chosen, timeout=10)
            await asyncio.wait_for(bot.app.update_queue.join(), 10)
            await asyncio.sleep(0.05)  # the status worker edits

        for _ in range(400):  # the round, played out: its last move posts the round's message
            table = await driver.table()
            assert table is not None
            if table.phase != PLAYING:
                break
            await move()
        assert table.phase != PLAYING
        for i in range(3):
            server.send_command(group, server.user(50 + i, f"P{i}"), "/new")
        await asyncio.sleep(0.2)
        # /rules finds the token the edits left; /help, right behind it, the next
        # token (one every 3 s), ahead of any status edit.
        for command, bound in (("/rules", ANSWER_BOUND), ("/help", ANSWER_BOUND + NEXT_TOKEN_SLACK)):
            started = time.monotonic()
            update = server.send_command(group, ann, command)
            await server.wait_answer(update, "sendMessage", timeout=bound + 1)
            took = time.monotonic() - started
            print(f"{command} answered in {took:.2f} s (group tokens {budget.tokens:.2f})")
            assert took < bound, took
    finally:
        await bot.stop()
