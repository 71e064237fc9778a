"""Storms and crowds with the production rate limiter (issue 15).

The bot runs with `GroupLimiter()` at its production settings: Telegram's
budgets of about 20 messages a minute per group and 30 a second for the
whole bot. A storm of junk commands in forty groups, fifty people typing
/new and /join, seventy pressing Start: the replies they ask for are more
than both budgets allow. None of it may hold up an answer. A quiet group's
player keeps asking for their hand and pressing a /rules button meanwhile,
and every answer must come at once: Telegram drops an inline answer (and a
button's answer) that comes more than about 15 s after the query (the
local server refuses it as "query is too old": `server.too_old`).

Time: the limiter keeps the service's `FakeClock`, which stands still
while the crowd comes, so a budget the crowd spends is not given back
during the test: anything that waits for a budget waits forever, not for
a slow second. That makes the checks independent of how loaded the
machine is: an update handler that waited for a budget (as every reply
did for the bot-wide one, before) would hold its slot for good, and with
PTB's 64 slots held nothing else would be answered at all; the limiter's
own accounts (`GroupLimiter.waited`) also say exactly who waited for what.
At the end the clock moves on an hour, so the status edits held back go
out.

The bounds. Through a storm, a quiet player's answers come within
`ANSWER_BOUND` = 2 s (p99): the issue's goal, far from what the bug did
(the audit measured 6 to 30 s for a quiet player's hand under a storm, on
the real clock) and far above what the fixed bot needs (0.03 to 0.10 s
measured the same way; here p50 under 0.05 s). What remains is the
machine's own speed, so the storm is fed at 40 updates a second (about a
third of a core here) and never more than `WINDOW` updates ahead of what
the bot has finished: a loaded machine gets fewer updates a second, not a
longer queue in front of the quiet player. `WINDOW` is 70, more than PTB's
64 slots, so handlers stuck on a budget would still fill every slot. A
crowd comes all at once instead (a hundred /new and /join, seventy Start
presses): every answer queued behind it waits for the whole burst to be
handled, about 0.8 s of this machine at rest, so those answers are held to
`CROWD_BOUND` = 5 s: room for a machine six times slower, a tenth of what
the bug did (51 to 77 s), and a third of Telegram's 15 s.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Callable
from typing import Any

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.clock import FakeClock
from tests.telegram.driver import BotProcess, TableDriver
from unobot.adapters.telegram import keyboards
from unobot.adapters.telegram.limiter import GroupLimiter
from unobot.adapters.telegram.runtime import KEY
from unobot.chat import commands as c
from unobot.chat.commands import Person
from unobot.chat.table import PLAYING

JSON = dict[str, Any]

ANSWER_BOUND = 2.0
CROWD_BOUND = 5.0
WINDOW = 70
ADMIN = Person("setup", "Setup", None, True)
JUNK = ["/help", "/stats", "/rules", "/variant", "/timer x", "/ai", "/language", "/new x", "/join"]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def backlog(bot: BotProcess) -> int:
    """Updates the bot has not finished: still at the server, or taken and not
    yet handled (asyncio.Queue counts them until `task_done`)."""
    return len(bot.server._updates) + bot.app.update_queue._unfinished_tasks


async def feed(bot: BotProcess, updates: list[Callable[[], JSON]], rate: float) -> None:
    """Queue the updates at `rate` a second, never more than `WINDOW` ahead of the bot."""
    began = time.monotonic()
    for i, make in enumerate(updates):
        while backlog(bot) >= WINDOW:
            await asyncio.sleep(0.01)
        make()
        await asyncio.sleep(max(0.0, began + (i + 1) / rate - time.monotonic()))


class Quiet:
    """A quiet group: two players and a running game with big hands; its first
    player is an admin with the /rules keyboard. `probe` asks for the hand of
    the player on turn, picks a card, presses a /rules button, and records how
    long each answer took."""

    def __init__(self, server: BotAPIServer, bot: BotProcess) -> None:
        self.server = server
        self.bot = bot
        self.inline: list[float] = []
        self.buttons: list[float] = []
        self.moves = 0
        self.driver: TableDriver | None = None
        self.rules_message = 0
        self.rng = random.Random(3)

    async def start(self) -> Quiet:
        server, bot = self.server, self.bot
        group = server.group(title="Quiet")
        players = [server.user(201, "Q0"), server.user(202, "Q1")]
        server.set_status(group, players[0], "administrator")
        self.driver = driver = TableDriver(server, bot, group, players, check_privacy=False)
        assert bot.service is not None
        await bot.service.handle(driver.chat, ADMIN, c.SetRule(rule="deck", option="hand_size", value=20))
        await driver.command(players[0], "/new")
        await driver.press(players[1], keyboards.JOIN)
        await driver.press(players[0], keyboards.START)
        await driver.command(players[0], "/rules")
        rules = driver.message_with(f"{keyboards.TIMER}30")
        assert rules is not None
        self.rules_message = rules["message_id"]
        return self

    async def probe(self) -> None:
        server, driver = self.server, self.driver
        assert driver is not None and self.bot.service is not None
        table = await self.bot.service.table(driver.chat)
        if table is not None and table.phase == PLAYING and table.game is not None:
            user = next(p for p in driver.players if str(p["id"]) == table.seats[table.game.turn].id)
            started = time.monotonic()
            query = server.inline_query(user, f"#{driver.chat} ")
            call = await server.wait_answer(query, "answerInlineQuery", timeout=20)
            self.inline.append(time.monotonic() - started)
            pick = driver.pick(call.params["results"])
            if pick is not None:
                server.pick_inline_result(driver.group, user, pick)
                self.moves += 1
        started = time.monotonic()
        press = server.press_button(driver.group, driver.players[0], self.rules_message,
                                    f"{keyboards.TIMER}{self.rng.choice([30, 60])}")
        await server.wait_answer(press, "answerCallbackQuery", timeout=20)
        self.buttons.append(time.monotonic() - started)

    async def probing(self, done: asyncio.Task[Any], least: int = 0) -> None:
        """Probe every 0.2 s until `done` is, `least` times at least (`done`
        cancelled if a probe fails). A probe after the crowd still tells: on
        the clock that stands still, a handler stuck on a budget stays stuck."""
        try:
            for i in itertools.count():
                if done.done() and i >= least:
                    break
                await self.probe()
                await asyncio.sleep(0.2)
        finally:
            if not done.done():
                done.cancel()
        await done

    @property
    def chat_id(self) -> int:
        assert self.driver is not None
        return int(self.driver.group["id"])

    def check(self, least: int = 5, bound: float = ANSWER_BOUND) -> None:
        print(f"quiet: {len(self.inline)} hands, p50 {pct(self.inline, 0.5):.3f} s, max {max(self.inline):.3f} s; "
              f"{len(self.buttons)} buttons, p50 {pct(self.buttons, 0.5):.3f} s, max {max(self.buttons):.3f} s")
        assert len(self.inline) >= least and len(self.buttons) >= least, (self.inline, self.buttons)
        assert pct(self.inline, 0.99) < bound, sorted(self.inline)[-5:]
        assert pct(self.buttons, 0.99) < bound, sorted(self.buttons)[-5:]


class Frozen:
    """A bot process with the production limiter on a clock that stands still."""

    def __init__(self, server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
        self.clock = FakeClock()
        self.limiter = GroupLimiter(clock=self.clock)
        self.bot = BotProcess(server, redis_server.url, prefix, clock=self.clock, rate_limiter=self.limiter)

    async def __aenter__(self) -> Frozen:
        await self.bot.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        # The clock runs (a minute every 10 ms) while the bot stops: whatever waits for a budget goes now.
        async def thaw() -> None:
            while True:
                self.clock.advance(60)
                await asyncio.sleep(0.01)

        thawing = asyncio.get_running_loop().create_task(thaw())
        try:
            await self.bot.stop()
        finally:
            thawing.cancel()

    async def handled(self, timeout: float = 30.0) -> None:
        """Every update taken is handled (not the status edits: those wait for the budgets)."""
        await asyncio.wait_for(self.bot.app.update_queue.join(), timeout)

    def check_waits(self) -> None:
        """No answer or read ever waited in the limiter, and no update handler
        waited for anything but the one message it posts itself (a lobby)."""
        waited = dict(self.limiter.waited)
        assert not [k for k in waited if k[0].startswith(("answer", "get"))], waited
        assert not [k for k in waited if k[1] == "handler" and k[0] != "sendMessage"], waited


async def test_a_storm_in_forty_groups_holds_up_no_answer(server: BotAPIServer, redis_server: RedisServer,
                                                          prefix: str) -> None:
    """480 junk updates in forty groups (replies to commands, ten times what
    the budgets hold; admin checks; strangers' inline queries), fed at up to
    40 a second while a quiet group plays: its player's hands and button
    answers come within the bound, no answer is too old, every stranger's
    inline query is answered, and no answer, admin check or handler waited
    for a budget; the replies beyond the budgets were dropped, not queued."""
    async with Frozen(server, redis_server, prefix) as frozen:
        bot = frozen.bot
        quiet = await Quiet(server, bot).start()
        rng = random.Random(15)
        groups = [server.group(title=f"J{i}") for i in range(40)]
        users = [server.user(5000 + i, f"U{i}") for i in range(30)]
        for group in groups[:20]:
            server.set_status(group, users[0], "administrator")
        mark = server.mark()

        def junk() -> JSON:
            user = rng.choice(users)
            if rng.random() < 0.3:
                return server.inline_query(user, rng.choice(["", "r5", "#1"]))
            command, _, args = rng.choice(JUNK).partition(" ")
            return server.send_command(rng.choice(groups), user, command, args)

        storm = asyncio.get_running_loop().create_task(feed(bot, [junk] * 480, rate=40.0))
        await quiet.probing(storm)
        await frozen.handled()
        quiet.check()
        assert quiet.moves >= 5
        frozen.check_waits()
        assert server.too_old == []
        assert not [q for q in server._open_inline_queries.values() if q.get("from")]
        calls = server.calls[mark:]
        assert sum(call.method == "getChatMember" for call in calls) >= 30
        replies = [call for call in calls if call.method == "sendMessage" and call.params["chat_id"] != quiet.chat_id]
        # The bot-wide budget's 30 tokens, less the reserve replies leave: the rest were dropped.
        assert 0 < len(replies) <= 30 - frozen.limiter.overall_reserve


async def test_fifty_people_open_and_join_and_seventy_press_start(server: BotAPIServer, redis_server: RedisServer,
                                                                   prefix: str) -> None:
    """A big group: fifty people type /new and /join at once (a hundred
    updates, one lobby, the rest refusals whose replies exceed the group's
    budget), then seventy press Start. Meanwhile the quiet group's player
    gets every hand and button answer within the crowd's bound; every Start
    press is answered within it too, none too old, the game starts once,
    and no handler waited for a budget but the lobby's own message."""
    async with Frozen(server, redis_server, prefix) as frozen:
        bot = frozen.bot
        quiet = await Quiet(server, bot).start()
        big = server.group(title="Big")
        people = [server.user(1000 + i, f"N{i}") for i in range(70)]
        mark = server.mark()
        updates: list[Callable[[], JSON]] = []
        for person in people[:50]:
            updates.append(lambda person=person: server.send_command(big, person, "/new"))
            updates.append(lambda person=person: server.send_command(big, person, "/join"))
        crowd = asyncio.get_running_loop().create_task(feed(bot, updates, rate=1000.0))
        await quiet.probing(crowd, least=5)
        await frozen.handled()
        assert bot.service is not None
        table = await bot.service.table(str(big["id"]))
        assert table is not None and table.seats[0].name == "N0" and len(table.seats) >= 2
        lobbies = [call for call in server.calls[mark:] if call.method == "sendMessage"
                   and call.params["chat_id"] == big["id"] and keyboards.START in str(call.params.get("reply_markup"))]
        assert len(lobbies) == 1
        lobby = int(table.adapter["status"])
        # Seventy press Start at once (the opener among them: the game starts, once).
        waits: list[float] = []

        async def press_start() -> None:
            presses = [(time.monotonic(), server.press_button(big, person, lobby, keyboards.START))
                       for person in people]
            for started, press in presses:
                await server.wait_answer(press, "answerCallbackQuery", timeout=20)
                waits.append(time.monotonic() - started)

        crowd = asyncio.get_running_loop().create_task(press_start())
        await quiet.probing(crowd, least=5)
        await frozen.handled()
        print(f"Start presses: p50 {pct(waits, 0.5):.3f} s, max {max(waits):.3f} s")
        assert len(waits) == 70 and pct(waits, 0.99) < CROWD_BOUND, sorted(waits)[-5:]
        table = await bot.service.table(str(big["id"]))
        assert table is not None and table.phase == PLAYING
        quiet.check(least=10, bound=CROWD_BOUND)
        frozen.check_waits()
        assert server.too_old == []
        assert sum(call.method == "getChatMember" for call in server.calls[mark:]) >= 60


async def test_notices_and_rules_views_wait_in_their_workers_not_in_handlers(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """Both budgets spent, on the clock that stands still: a draw is saved and
    its handler done while the private "You drew" waits in the notice sender
    (the hand says what was drawn meanwhile); a /rules button is answered at
    once while its view's edit waits in the status worker. Once the clock
    moves, the notice and the edit go out."""
    async with Frozen(server, redis_server, prefix) as frozen:
        bot = frozen.bot
        quiet = await Quiet(server, bot).start()
        driver = quiet.driver
        assert driver is not None and bot.service is not None
        for player in driver.players:  # both started the bot in private: they get notices
            await bot.settle(server.send_command(server.private_chat(player), player, "/start"))
        rt = bot.app.bot_data[KEY]
        table = await bot.service.table(driver.chat)
        assert table is not None and table.game is not None
        user = next(p for p in driver.players if str(p["id"]) == table.seats[table.game.turn].id)
        frozen.limiter.budget(quiet.chat_id).tokens = 0.0
        overall = frozen.limiter.overall()
        assert overall is not None
        overall.tokens = 0.0
        mark = server.mark()
        query = server.inline_query(user, f"#{driver.chat} ")
        results = (await server.wait_answer(query, "answerInlineQuery", timeout=5)).params["results"]
        draw = next(r["id"] for r in results if r["id"].endswith(":d"))
        _message, chosen = server.pick_inline_result(driver.group, user, draw)
        assert chosen is not None
        await server.wait_consumed(chosen)
        await frozen.handled(timeout=5)  # the handler is done...
        after = await bot.service.table(driver.chat)
        assert after is not None and after.version > table.version
        assert rt.notices.busy()  # ...while its notice waits for the bot-wide budget
        assert not [c for c in server.calls[mark:] if c.method == "sendMessage" and c.params["chat_id"] == user["id"]]
        query = server.inline_query(user, f"#{driver.chat} ")
        results = (await server.wait_answer(query, "answerInlineQuery", timeout=5)).params["results"]
        # The hand says which card was drawn ("🆕 your last draw"), notice or not.
        assert any("🆕" in str(r.get("description", "")) or "just drew" in str(r.get("description", ""))
                   for r in results), results
        # A /rules button: answered at once, its view edited later.
        shown = server.messages[quiet.chat_id][quiet.rules_message]["text"]
        press = server.press_button(driver.group, driver.players[0], quiet.rules_message, f"{keyboards.TIMER}120")
        answer = await server.wait_answer(press, "answerCallbackQuery", timeout=5)
        assert "Saved" in answer.params.get("text", "")
        await frozen.handled(timeout=5)
        assert server.messages[quiet.chat_id][quiet.rules_message]["text"] == shown and rt.status.busy()
        assert frozen.limiter.waited[("sendMessage", "notices")] == 1
        frozen.check_waits()
        frozen.clock.advance(60)
        await bot.idle(10)
        notice = await server.wait_for("sendMessage", lambda p: p.get("chat_id") == user["id"], after=mark, timeout=5)
        assert notice.params["text"].startswith("You drew")
        rules = server.buttons(quiet.chat_id, quiet.rules_message)
        assert any(b["text"].startswith("⏱ 120") for b in rules), rules
