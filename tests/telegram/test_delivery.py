"""An update Telegram sent is an update handled (issue 25).

Webhook: python-telegram-bot's server answered 200 as soon as an update
was queued, before any handler ran; a process that died then lost the
update, as Telegram never sends one again after its 200. unobot's own
server (`adapters/telegram/webhook.py`) answers once the handler is done,
so a killed process's update comes again, to the next process; and an
update that comes again after it was applied changes nothing.

Polling: one update in a batch that python-telegram-bot cannot parse used
to drop the whole batch ("Received data was *not* processed!"), the valid
updates with it. Now each update is parsed on its own: only the poisoned
one is lost, and it is logged once.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from tests.botapi import BotAPIServer
from tests.support.ports import free_port
from tests.support.redis_server import RedisServer
from tests.support.waiting import until
from tests.telegram.driver import BotProcess, CliBot, StoreReader
from unobot.adapters.redis_store import RedisStore

#: Updates no version of python-telegram-bot can parse: a sender that is a
#: string, a button press that is a number, a date that is a word.
POISON = [
    {"message": {"message_id": 1, "date": 0, "chat": {"id": -5, "type": "group"}, "from": "bob", "text": "/new"}},
    {"callback_query": 7},
    {"message": {"message_id": 1, "date": "x", "chat": 5}},
]


async def test_a_poisoned_polling_batch_loses_only_the_poisoned_update(
        server: BotAPIServer, bot: BotProcess, caplog: pytest.LogCaptureFixture) -> None:
    group = server.group(title="Batch")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    caplog.set_level(logging.WARNING, logger="unobot.adapters.telegram.bot")
    # One batch: the bot is waiting in getUpdates, and all of these are queued before it wakes.
    first = server.send_command(group, ann, "/new")
    bad = [server.queue_update(dict(p)) for p in POISON]
    last = server.send_command(group, ben, "/join")
    await bot.settle(last)
    assert bot.service is not None
    table = await bot.service.table(str(group["id"]))
    assert table is not None, "the /new before the poisoned updates was lost"
    assert [s.name for s in table.seats] == ["Ann", "Ben"], "the /join after them was lost"
    assert first["update_id"] < bad[0]["update_id"] < last["update_id"]
    logged = [r for r in caplog.records if "could not be parsed" in r.getMessage()]
    assert sorted(str(b["update_id"]) in r.getMessage() for b in bad for r in logged).count(True) == len(bad)
    assert len(logged) == len(bad)
    # Polling went on: a later update is handled too.
    later = server.send_command(group, ann, "/leave")
    await bot.settle(later)
    table = await bot.service.table(str(group["id"]))
    assert table is not None and [s.name for s in table.seats] == ["Ben"]


async def test_a_webhook_process_killed_before_its_handler_saved_loses_nothing(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, tmp_path: Path) -> None:
    """Process A (`unobot telegram --webhook`, as run in production) gets Ben's
    /join while Redis takes no writes (CLIENT PAUSE: its handler cannot save
    yet) and is killed (SIGKILL). Nothing was saved and A never answered,
    so the Bot API server sends the update again; once process B serves the
    webhook it gets it, and Ben is seated."""
    reader = StoreReader(RedisStore.from_url(redis_server.url, prefix=prefix))
    client = aioredis.from_url(redis_server.url)
    first = CliBot(server, redis_server.url, prefix, tmp_path / "a", port=free_port()).start()
    second = CliBot(server, redis_server.url, prefix, tmp_path / "b", port=free_port())
    try:
        await first.ready()
        group = server.group(title="Kill")
        chat = str(group["id"])
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        server.send_command(group, ann, "/new")  # through the webhook, to A

        async def seats() -> list[str]:
            table = await reader.service.table(chat)
            return [s.name for s in table.seats] if table is not None else []

        await until(lambda: _is(seats, ["Ann"]), 20, "A never opened the game")
        await client.execute_command("CLIENT", "PAUSE", "30000", "WRITE")
        join = server.send_command(group, ben, "/join")

        async def posting() -> bool:
            return server.webhook_posting == join["update_id"]

        await until(posting, 10, "the /join was never posted to A")
        await asyncio.sleep(0.5)  # A has read the update and its handler waits to save
        assert first.process is not None
        first.process.kill()
        first.process.wait()
        await client.execute_command("CLIENT", "UNPAUSE")
        # A save A had already sent waits in Redis's paused input and may still be applied
        # (Redis reads the dead connection's end only after it): Ben seated once, or not yet.
        assert await seats() in (["Ann"], ["Ann", "Ben"])
        assert all(uid != join["update_id"] or status != 200 for uid, status in server.webhook_deliveries)
        second.start()
        await second.ready()
        await until(lambda: _is(seats, ["Ann", "Ben"]), 20, "the /join A never handled was lost")

        async def answered() -> bool:
            return (join["update_id"], 200) in server.webhook_deliveries

        await until(answered, 10, "B never answered the /join")
        statuses = [status for uid, status in server.webhook_deliveries if uid == join["update_id"]]
        assert statuses[-1] == 200 and statuses.count(200) == 1 and statuses[0] != 200, statuses
    finally:
        await client.execute_command("CLIENT", "UNPAUSE")
        await client.aclose()
        first.stop()
        second.stop()
        await reader.close()


async def test_a_webhook_process_killed_right_after_receiving_a_move_loses_nothing(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, tmp_path: Path) -> None:
    """As above, with a card played from the hand (the pick's updates) instead of
    a /join: process A receives the move while Redis takes no writes and is
    killed before its handler could save; the Bot API server sends the pick
    again, process B applies it, once."""
    reader = StoreReader(RedisStore.from_url(redis_server.url, prefix=prefix))
    client = aioredis.from_url(redis_server.url)
    first = CliBot(server, redis_server.url, prefix, tmp_path / "a", port=free_port()).start()
    second = CliBot(server, redis_server.url, prefix, tmp_path / "b", port=free_port())
    try:
        await first.ready()
        group = server.group(title="Kill a move")
        chat = str(group["id"])
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        server.send_command(group, ann, "/new")
        server.send_command(group, ben, "/join")

        async def table() -> Any:
            return await reader.service.table(chat)

        async def seated() -> bool:
            found = await table()
            return found is not None and len(found.seats) == 2

        await until(seated, 20, "A never seated both")
        lobby = await table()
        server.press_button(group, ann, int(lobby.adapter["status"]), "g:start")

        async def started() -> bool:
            found = await table()
            return found is not None and found.game is not None

        await until(started, 20, "A never started the game")
        before = await table()
        user = next(p for p in (ann, ben) if str(p["id"]) == before.seats[before.game.turn].id)
        query = server.inline_query(user, f"#{chat} ")
        query_id = query["inline_query"]["id"]

        async def offered() -> bool:
            return query_id in server.inline_answers

        await until(offered, 20, "A never offered the hand")
        results = server.inline_answers[query_id]["results"]
        pick = _a_move(results)
        await client.execute_command("CLIENT", "PAUSE", "30000", "WRITE")
        message, chosen = server.pick_inline_result(group, user, pick)
        assert chosen is not None
        picked = {message["update_id"], chosen["update_id"]}

        async def posting() -> bool:
            # The move itself (the chosen result), not only the "via @bot" message posted before it:
            # killed while still on that message, A would never have been sent the move.
            return server.webhook_posting == chosen["update_id"]

        await until(posting, 20, "the move was never posted to A")
        await asyncio.sleep(0.5)  # A has read it and its handler waits to save
        assert first.process is not None
        first.process.kill()
        first.process.wait()
        await client.execute_command("CLIENT", "UNPAUSE")
        same = await table()
        # As above: a save A had already sent may still be applied once Redis is unpaused (once).
        assert same.version in (before.version, before.version + 1)
        # The move is the chosen result (the message the pick posts is answered at once):
        # A never said 200 for it, so it is Telegram's to send again.
        assert (chosen["update_id"], 200) not in server.webhook_deliveries
        second.start()
        await second.ready()

        async def moved() -> bool:
            found = await table()
            return found is not None and found.version > before.version

        await until(moved, 20, "the move A never handled was lost")

        async def answered() -> bool:
            return all((uid, 200) in server.webhook_deliveries for uid in picked)

        await until(answered, 10, "B never answered the pick")
        after = await table()
        player = after.seat_of(str(user["id"]))
        assert after.game is not None and player is not None
        # One move, not two: the game counts one more, and the hand changed as that move does
        # (a card left it, one card came in, or, naming a Wild starter's colour, none).
        assert after.game.moves == before.game.moves + 1, (pick, before.game.moves, after.game.moves)
        assert len(after.game.hands[player]) - len(before.game.hands[player]) == _HAND_CHANGE[_code(pick)[0]]
        for uid in picked:
            statuses = [status for u, status in server.webhook_deliveries if u == uid]
            assert statuses.count(200) == 1, (uid, statuses)
        statuses = [status for u, status in server.webhook_deliveries if u == chosen["update_id"]]
        assert statuses[0] != 200 and statuses[-1] == 200, statuses  # A died on it, B answered it
    finally:
        await client.execute_command("CLIENT", "UNPAUSE")
        await client.aclose()
        first.stop()
        second.stop()
        await reader.close()


def _code(result_id: str) -> str:
    """The model's action id in an inline result's id (`<chat>:<version>:<user>:<action>`)."""
    return result_id.split(":", 3)[3]


#: How one move of each kind `_a_move` picks changes its player's hand (official rules).
_HAND_CHANGE = {"p": -1, "d": 1, "h": 0}


def _a_move(results: list[Any]) -> str:
    """A result that is one move now, whatever the deal (the CLI processes' seeds vary):
    a card, else a plain draw (not "draw and play", which may be two moves), else (a Wild
    starter: nothing else is offered yet) the colour. A card said with UNO is two moves,
    and never offered with a hand of seven."""
    ids = [r["id"] for r in results]
    for wanted in (lambda code: code[0] == "p" and not code.endswith("!"), lambda code: code == "d",
                   lambda code: code[0] == "h"):
        found = [rid for rid in ids if wanted(_code(rid))]
        if found:
            return found[0]
    raise AssertionError(f"no card, draw or colour among the results: {ids}")


async def _is(get: object, wanted: list[str]) -> bool:
    return await get() == wanted  # type: ignore[operator,no-any-return]


async def _start(server: BotAPIServer, bot: BotProcess, group: dict[str, Any],
                 ann: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """Ann presses Start on the lobby of Ann and Ben, posted to `bot`'s webhook:
    the update and the table it started."""
    assert bot.service is not None
    chat = str(group["id"])
    table = await bot.service.table(chat)
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Ben"]
    start = server.press_button(group, ann, int(table.adapter["status"]), "g:start", queue=False)
    assert await server.post_update_to(bot.webhook_url, start, secret_token=bot.secret) == 200
    started = await bot.service.table(chat)
    assert started is not None and started.game is not None
    return start, started


async def _move(server: BotAPIServer, bot: BotProcess, group: dict[str, Any], started: Any,
                people: tuple[dict[str, Any], ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The player on turn picks a move from their hand, posted to `bot`'s webhook:
    who, and the pick's update."""
    user = next(p for p in people if str(p["id"]) == started.seats[started.game.turn].id)
    query = server.inline_query(user, f"#{group['id']} ", queue=False)
    assert await server.post_update_to(bot.webhook_url, query, secret_token=bot.secret) == 200
    pick = _a_move(server.inline_answers[query["inline_query"]["id"]]["results"])
    _message, chosen = server.pick_inline_result(group, user, pick, queue=False)
    assert chosen is not None
    assert await server.post_update_to(bot.webhook_url, chosen, secret_token=bot.secret) == 200
    return user, chosen


async def test_an_update_delivered_again_changes_nothing(server: BotAPIServer, redis_server: RedisServer,
                                                        prefix: str) -> None:
    """Telegram sends an update again when it got no 200 in time (a slow
    answer, a lost connection): the process that handled it answers 200 and
    does nothing; a second process given a move already applied refuses it
    by the table's version, and the game stays as it was."""
    bots = [BotProcess(server, redis_server.url, prefix, seed=i, webhook_port=free_port()) for i in (1, 2)]
    for bot in bots:
        await bot.start()
    try:
        group = server.group(title="Again")
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        chat = str(group["id"])
        first = bots[0]
        for update in (server.send_command(group, ann, "/new", queue=False),
                       server.send_command(group, ben, "/join", queue=False)):
            assert await server.post_update_to(first.webhook_url, update, secret_token=first.secret) == 200
        start, started = await _start(server, first, group, ann)
        # The 200 comes once the start is saved; its status edit may still be on its way.
        for bot in bots:
            await bot.idle()
        mark = server.mark()
        # The same update again, to the process that handled it: answered, not handled.
        assert await server.post_update_to(first.webhook_url, start, secret_token=first.secret) == 200
        again = await first.service.table(chat)
        assert again is not None and again.version == started.version
        assert [c.method for c in server.calls[mark:]] == []
        # A move picked from a hand, applied by the first process, then delivered to the second.
        user, chosen = await _move(server, first, group, started, (ann, ben))
        moved = await first.service.table(chat)
        assert moved is not None and moved.version > started.version
        second = bots[1]
        assert await server.post_update_to(second.webhook_url, chosen, secret_token=second.secret) == 200
        await second.idle()
        after = await first.service.table(chat)
        assert after is not None and after.store_version == moved.store_version and after.version == moved.version
    finally:
        for bot in bots:
            await bot.stop()


async def test_a_repeat_handled_by_another_process_is_answered_not_handled_again(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """Telegram sends an update again when the first answer was slow or lost, and
    the repeat may reach another process serving the bot. That process must
    answer it as handled: no "A game is already running here" for a repeated
    /new, no refusal said aloud for a move applied already. The memory of
    handled updates is the store's, not one process's."""
    bots = [BotProcess(server, redis_server.url, prefix, seed=i, webhook_port=free_port()) for i in (1, 2)]
    for bot in bots:
        await bot.start()
    try:
        first, second = bots
        group = server.group(title="Repeats")
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        chat = str(group["id"])
        new = server.send_command(group, ann, "/new", queue=False)
        assert await server.post_update_to(first.webhook_url, new, secret_token=first.secret) == 200
        join = server.send_command(group, ben, "/join", queue=False)
        assert await server.post_update_to(first.webhook_url, join, secret_token=first.secret) == 200
        for bot in bots:
            await bot.idle()
        mark = server.mark()
        for update in (new, join):
            assert await server.post_update_to(second.webhook_url, update, secret_token=second.secret) == 200
        await second.idle()
        assert [c.method for c in server.calls[mark:]] == [], [c.params for c in server.calls[mark:]]
        start, started = await _start(server, first, group, ann)
        _user, chosen = await _move(server, first, group, started, (ann, ben))
        for bot in bots:
            await bot.idle()
        moved = await first.service.table(chat)
        assert moved is not None
        mark = server.mark()
        for update in (start, chosen):
            assert await server.post_update_to(second.webhook_url, update, secret_token=second.secret) == 200
        await second.idle()
        assert [c.method for c in server.calls[mark:]] == [], [c.params for c in server.calls[mark:]]
        after = await first.service.table(chat)
        assert after is not None and after.version == moved.version
    finally:
        for bot in bots:
            await bot.stop()


async def test_a_repeat_arriving_while_another_process_handles_it_waits_for_that_outcome(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """The first copy is still being handled (its process holds the claim) when
    the repeat reaches a second process: the second waits, and once the first
    is done it answers 200 without handling it; while the holder never
    finishes and its lease never runs out, it answers 503 (Telegram tries
    again later), never 200 for an update nobody handled."""
    bots = [BotProcess(server, redis_server.url, prefix, seed=i, webhook_port=free_port()) for i in (1, 2)]
    for bot in bots:
        await bot.start()
    store = RedisStore.from_url(redis_server.url, prefix=prefix)
    try:
        first, second = bots
        group = server.group(title="Held")
        ann = server.user(1, "Ann")
        new = server.send_command(group, ann, "/new", queue=False)
        assert first.app is not None and second.app is not None
        key = f"telegram:{second.app.bot.id}:{new['update_id']}"
        # Another process holds it (claimed, not finished) for the next 2 s.
        assert await store.claim_delivery(key, "elsewhere-1", 2.0) == "mine"
        assert second.webhook is not None
        deliveries = second.webhook.deliveries()
        assert deliveries is not None
        deliveries.wait = 0.5
        assert await server.post_update_to(second.webhook_url, new, secret_token=second.secret) == 503
        # It finishes meanwhile: the repeat is answered, not handled.
        deliveries.wait = 5.0
        mark = server.mark()
        posting = asyncio.ensure_future(server.post_update_to(second.webhook_url, new, secret_token=second.secret))
        await asyncio.sleep(0.3)
        assert not posting.done()
        await store.finish_delivery(key, 60.0)
        assert await posting == 200
        assert [c.method for c in server.calls[mark:]] == []
        # A holder that died: its lease runs out and the repeat is handled here, once.
        other = server.send_command(group, ann, "/new", queue=False)
        key = f"telegram:{second.app.bot.id}:{other['update_id']}"
        assert await store.claim_delivery(key, "dead-1", 0.5) == "mine"
        assert await server.post_update_to(second.webhook_url, other, secret_token=second.secret) == 200
        assert second.service is not None
        assert await second.service.table(str(group["id"])) is not None
        assert await store.claim_delivery(key, "late-1", 5.0) == "done"
    finally:
        await store.close()
        for bot in bots:
            await bot.stop()


async def test_a_move_sent_while_the_store_is_down_is_made_once_it_is_back(
        server: BotAPIServer, prefix: str, tmp_path: Path) -> None:
    """Ben's /join reaches the webhook while Redis is stopped. Answered 200, it
    was gone (Telegram never sends an update again after its 200) and Ben was
    told to try again. Now it is answered 503: the Bot API server sends it
    again, with growing pauses, until Redis is back, and then Ben is seated.
    Ben is told once (not once per repeat) that it will be handled, and not to
    send it again. A reading command in the same outage (/stats) is answered
    200 with the plain outage text: an answer minutes later helps nobody."""
    redis = RedisServer(tmp_path / "redis").start()  # this test's own: it is stopped and started
    bot = BotProcess(server, redis.url, prefix, webhook_port=free_port())
    await bot.start()
    try:
        group = server.group(title="Outage")
        chat = str(group["id"])
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        await bot.settle(server.send_command(group, ann, "/new"))
        redis.stop()
        mark = server.mark()
        join = server.send_command(group, ben, "/join")

        async def repeated() -> bool:
            return [s for u, s in server.webhook_deliveries if u == join["update_id"]].count(503) >= 3

        await until(repeated, 20, "the /join was not answered 503 three times")
        told = [c.params["text"] for c in server.calls[mark:] if c.method == "sendMessage"]
        assert told == ["The game store is not reachable right now. I will handle this as soon as it is "
                        "back: no need to send it again."], told
        redis.start()

        async def seated() -> bool:
            table = await bot.service.table(chat)  # type: ignore[union-attr]
            return table is not None and [s.name for s in table.seats] == ["Ann", "Ben"]

        await until(seated, 20, "the /join sent during the outage was never made")

        async def joined_answered() -> bool:  # the pump records the 200 once it read the answer
            return (join["update_id"], 200) in server.webhook_deliveries

        await until(joined_answered, 10, "the /join was never answered 200")
        statuses = [s for u, s in server.webhook_deliveries if u == join["update_id"]]
        assert statuses[-1] == 200 and statuses.count(200) == 1, statuses
        await bot.idle()
        said = [c.params["text"] for c in server.calls[mark:] if c.method == "sendMessage"]
        assert said.count(told[0]) == 1, said  # once, whatever the number of repeats

        redis.stop()
        stats = server.send_command(group, ann, "/stats")

        async def answered() -> bool:
            return (stats["update_id"], 200) in server.webhook_deliveries

        await until(answered, 10, "/stats in an outage was not answered 200")
        assert [s for u, s in server.webhook_deliveries if u == stats["update_id"]] == [200]
    finally:
        await bot.stop()
        redis.stop()


async def test_a_repeat_whose_first_process_saved_but_never_marked_it_done_says_nothing(
        server: BotAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """The window the store's "done" mark leaves: process A saved the change and
    died (or lost the store) before marking the update done. Telegram sends it
    again, here to process B. B handled it again: Ann's repeated /new was told
    "A game is already running here" about the lobby she had just opened, and
    the card Ben had played was refused aloud under it ("that hand is out of
    date"). Now the table the update changed keeps its key: the repeat changes
    nothing and says nothing."""
    bots = [BotProcess(server, redis_server.url, prefix, seed=i, webhook_port=free_port()) for i in (1, 2)]
    for bot in bots:
        await bot.start()
    store = RedisStore.from_url(redis_server.url, prefix=prefix)
    try:
        first, second = bots
        assert first.app is not None
        group = server.group(title="Died after saving")
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        chat = str(group["id"])
        new = server.send_command(group, ann, "/new", queue=False)
        join = server.send_command(group, ben, "/join", queue=False)
        for update in (new, join):
            assert await server.post_update_to(first.webhook_url, update, secret_token=first.secret) == 200
        start, started = await _start(server, first, group, ann)
        _user, chosen = await _move(server, first, group, started, (ann, ben))
        for bot in bots:
            await bot.idle()
        moved = await first.service.table(chat)  # type: ignore[union-attr]
        assert moved is not None and moved.version > started.version
        # A "died" after each save: the store never heard that these updates were handled.
        updates = (new, join, start, chosen)
        for update in updates:
            await store.client.delete(store.keys.delivery(f"telegram:{first.app.bot.id}:{update['update_id']}"))
        shown = [dict(m) for m in server.shown(group)]
        mark = server.mark()
        for update in updates:
            assert await server.post_update_to(second.webhook_url, update, secret_token=second.secret) == 200
        await second.idle()
        said = [c for c in server.calls[mark:] if c.method in ("sendMessage", "sendSticker")
                or c.params.get("inline_message_id")]
        assert said == [], [(c.method, c.params.get("text")) for c in said]
        assert [dict(m) for m in server.shown(group)] == shown  # the group shows what it showed
        after = await first.service.table(chat)  # type: ignore[union-attr]
        assert after is not None and after.version == moved.version and after.seats == moved.seats
    finally:
        await store.close()
        for bot in bots:
            await bot.stop()
