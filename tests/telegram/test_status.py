"""The status message's text: whose turn, top card and colour, direction,
card counts, the pending draw; never a card from a hand. And the round's
message: "Next round" in front of the players at once, whatever the group's
message budget."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.clock import FakeClock
from tests.telegram.driver import BotProcess, TableDriver
from tests.telegram.test_game import ADMIN
from tests.telegram.test_inline import table
from unobot.adapters.telegram import keyboards
from unobot.adapters.telegram.limiter import GroupLimiter
from unobot.adapters.telegram.runtime import KEY
from unobot.adapters.telegram.status import render
from unobot.cards import parse_card
from unobot.chat import commands as c
from unobot.chat.table import BETWEEN_ROUNDS, PLAYING
from unobot.engine import apply
from unobot.moves import PLAY, Move


def test_status_shows_colour_pending_draw_counts_and_turn() -> None:
    t = table(["W+4 G5 B7 RR", "R5 R6", "Y1 Y2"], "R9")
    assert t.game is not None
    t.game, _events = apply(t.game, Move(PLAY, 0, parse_card("W+4"), "G"))
    status = render(t)
    lines = status.text.splitlines()
    assert lines[0] == "UNO · Official rules" and status.bold == len(lines[0])
    assert lines[1] == "🟩 Top card: Wild Draw Four · colour: green"
    assert lines[2] == "Ann (3) → ▶ Ben (2) → ⏭ Ada (AI) (2)"  # direction, counts, who is on turn and next
    assert "Ben must draw 4, or answer it." in lines
    assert "Turn: Ben" in lines
    button = status.markup.inline_keyboard[0][0] if status.markup is not None else None
    assert button is not None and button.switch_inline_query_current_chat == "#-1001234567890 "  # "My cards", naming the game
    for card in ("G5", "B7", "Red Reverse", "R5", "Red 5", "Y1", "Yellow 1"):
        assert card not in status.text


def test_a_reverse_turns_the_arrows() -> None:
    t = table(["RR G5 B7", "R5 R6", "Y1 Y2"], "R9")
    assert t.game is not None
    t.game, _events = apply(t.game, Move(PLAY, 0, parse_card("RR")))
    lines = render(t).text.splitlines()
    assert lines[1] == "🟥 Top card: Red Reverse · colour: red"
    assert lines[2] == "Ann (2) ← ⏭ Ben (2) ← ▶ Ada (AI) (2)"


# -- the round's message under a spent budget (issue 15) ------------------------------------

async def test_next_round_arrives_at_once_while_the_groups_budget_is_spent(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """Issue 15: "the Next round button arrives within a second of the round
    ending", even in a group whose message budget a burst of moves spent.

    The bot runs with its own rate limiter at Telegram's group budget (20
    messages a minute, a burst of 20, edits leaving a reserve of 2) on the
    service's fake clock, which stands still while the round is played: a
    token the group spends is not given back until the test moves the
    clock. So the budget is as busy as it can be, and any wait for it is
    not a slow second but forever (the test's real-time limit catches it).

    Ann and Ben play quickly; their status edits spend the budget down to
    the edits' reserve, then passers-by typing /new take the reserve (a
    command's reply may). From then on every move's status edit waits in
    the group's status worker. The move that ends the round must bring the
    round's message, with "Next round", without the clock moving: 0 seconds
    of the budget's time, where a token would take 3 s (20 a minute) at
    the earliest. Measured on the service's clock, not the wall clock: the
    limiter keeps that clock too, so "no wait for the budget" is exact and
    a loaded machine cannot change it. Then the button works at once, and
    once the clock moves every held edit is shown (the final state wins).
    """
    clock = FakeClock()
    # Telegram's budgets on the service's clock; no bot-wide pacing (30 a second: not what is tested here).
    limiter = GroupLimiter(clock=clock, overall_per_second=0)
    bot = await BotProcess(server, redis_server.url, prefix, rate_limiter=limiter, clock=clock).start()
    try:
        group = server.group(title="Busy")
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        driver = TableDriver(server, bot, group, [ann, ben], check_privacy=False)
        chat = group["id"]
        # Five cards each: a round long enough to spend the budget first, short enough to end soon.
        assert bot.service is not None
        out = await bot.service.handle(driver.chat, ADMIN, c.SetRule(rule="deck", option="hand_size", value=5))
        assert out.ok, out.error
        await driver.command(ann, "/new")
        await driver.press(ben, keyboards.JOIN)
        await driver.press(ann, keyboards.START)
        budget = limiter.budget(chat)
        start_clock = clock()

        async def handled(update: dict[str, Any]) -> None:
            """The update's handler is done (not waiting for the status edits it asked for)."""
            await server.wait_consumed(update, timeout=10)
            try:
                await asyncio.wait_for(bot.app.update_queue.join(), 10)
            except TimeoutError:
                raise AssertionError(f"update {update['update_id']} is still being handled: "
                                     "it waits for the group's message budget") from None

        async def move() -> dict[str, Any]:
            """The player on turn opens their hand and picks, as the driver would; the chosen update."""
            table = await driver.table()
            assert table is not None and table.phase == PLAYING and table.game is not None
            user = next(p for p in (ann, ben) if str(p["id"]) == table.seats[table.game.turn].id)
            query = server.inline_query(user, f"#{driver.chat} ")
            answer = await server.wait_answer(query, "answerInlineQuery", timeout=10)  # no group budget
            pick = driver.pick(answer.params["results"])
            assert pick is not None
            _message, chosen = server.pick_inline_result(group, user, pick)
            assert chosen is not None
            return chosen

        # Quick moves: their edits spend the budget down to the edits' reserve.
        while budget.tokens >= 3:
            await handled(await move())
            table = await driver.table()
            assert table is not None and table.phase == PLAYING, "the round ended before the budget was spent"
        # Passers-by type /new: refused, and the replies take the reserve.
        for i in range(3):
            await handled(server.send_command(group, server.user(50 + i, f"P{i}"), "/new"))
        assert budget.tokens < 1, budget.tokens
        # Play on to the round's end: every status edit from here is held back.
        held = await driver.table()
        assert held is not None
        status_id = int(held.adapter["status"])
        await asyncio.sleep(0.2)  # the worker had its chance: had the budget a token, the edit is out
        shown = server.messages[chat][status_id]["text"]
        for _ in range(200):
            mark = server.mark()
            before = clock()
            chosen = await move()
            await handled(chosen)
            table = await driver.table()
            assert table is not None
            if table.phase == PLAYING:
                continue
            assert table.phase == BETWEEN_ROUNDS
            # The round's message, with "Next round", went out with no token to spare and the clock
            # not moved: it waited for no budget at all (well within the second).
            call = await server.wait_for(
                "sendMessage", lambda p: p.get("chat_id") == chat and keyboards.NEXT_ROUND in str(p.get("reply_markup")),
                timeout=5, after=mark)
            assert clock() - before < 1.0 and clock() == start_clock
            assert "Next round" in str(call.params["reply_markup"])
            # Meanwhile the moves' status edits still wait for the budget: the group's
            # status shows what it showed before them.
            assert table.version > held.version and bot.app.bot_data[KEY].status.busy()
            assert server.messages[chat][status_id]["text"] == shown
            # It took a token the group had not earned yet: the edits behind it pay for it.
            assert budget.tokens < 0, budget.tokens
            break
        else:
            raise AssertionError("the round did not end")
        # The button works at once, budget or not.
        nxt = driver.message_with(keyboards.NEXT_ROUND)
        assert nxt is not None and nxt["message_id"] != status_id
        press = server.press_button(group, ann, nxt["message_id"], keyboards.NEXT_ROUND)
        await handled(press)
        table = await driver.table()
        assert table is not None and table.phase == PLAYING and table.game is not None
        # Once the budget refills, the newest state is shown everywhere: the old status
        # closed (no buttons), the round's message showing the new round.
        clock.advance(60)
        await bot.idle(30)
        assert "reply_markup" not in server.messages[chat][status_id]
        assert "Press “My cards”" in server.messages[chat][nxt["message_id"]]["text"]
    finally:
        clock.advance(3600)  # whatever still waits for the budget (a failed run) can finish
        await bot.stop()


async def test_a_start_that_sends_first_cards_back_says_no_stale_first_card(server: BotAPIServer,
                                                                            bot: BotProcess) -> None:
    """No Mercy sends an action starter back (with this seed three of them:
    eight lines, where the last moves keep six). The lines that scrolled
    out were shown again under the last moves, as the newest news: "The
    first card is Wild Reverse Draw Four." under "The first card is Blue
    7." A move's line is said once, among the last moves."""
    group = server.group(title="Sin piedad")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    driver = TableDriver(server, bot, group, [ann, ben], check_privacy=False)
    await driver.command(ann, "/new", "no-mercy")
    await driver.command(ben, "/join")
    await driver.press(ann, keyboards.START)
    await bot.idle()
    found = await driver.table()
    assert found is not None and found.game is not None
    status = driver.status_message()
    assert status is not None
    text = status["text"]
    lines = text.splitlines()
    firsts = [line for line in lines if "The first card is" in line]
    assert len(firsts) >= 2, text  # this seed's start sends cards back (else the test proves nothing)
    last_move = max(i for i, line in enumerate(lines) if line.startswith("· "))
    assert not any("first card" in line for line in lines[last_move + 1:]), text
    said = [line.removeprefix("· ") for line in lines if line]
    assert len(said) == len(set(said)), text
