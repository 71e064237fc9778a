"""Hostile and odd input: whatever a stranger sends, no traceback, no ERROR line,
every Bot API limit kept, and the games in the store stay legal (issue 15)."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, TableDriver
from tests.telegram.test_game import short_games
from unobot.adapters.telegram import guard, inline_results, keyboards
from unobot.adapters.telegram.bot import Article
from unobot.adapters.telegram.keyboards import play_keyboard
from unobot.chat.names import MAX_NAME
from unobot.chat.table import Table

JSON = dict[str, Any]

JUNK_WORDS = ["²", "٣", "-1", "0", "99999999999999999999999", "x" * 300, "../../etc/passwd", "/etc/hostname",
              "__init__", "\x00", "\u202e", "🃏" * 100, "", " ", "off", "es", "zz", "official", "1e3", "0x10",
              "reglas-de-uno", "ñ" * 5000, "None", "null", "{}", "<b>", "&amp;", "1_000"]
COMMANDS = ["/new", "/join", "/leave", "/start", "/stop", "/kick", "/skip", "/ai", "/rules", "/variant",
            "/timer", "/language", "/stats", "/notify", "/help", "/nonsense"]
HUGE = 10 ** 30


def test_parse_int_takes_only_what_int_takes() -> None:
    assert guard.parse_int("²") is None and "²".isdigit()
    assert guard.parse_int("12") == 12 and guard.parse_int("-3") == -3
    assert guard.parse_int("5", 0, 3) is None and guard.parse_int("x") is None
    assert guard.parse_int("9" * 300) is None  # never handed to int() at that length
    assert guard.telegram_id("-1001234567890") == -1001234567890
    assert guard.telegram_id(str(HUGE)) is None and guard.telegram_id("٣") is None  # not canonical
    assert guard.telegram_id("0") is None and guard.telegram_id("+5") is None
    assert inline_results.decode("-1:²:5:d") is None and inline_results.decode(f"{HUGE}:1:5:d") is None
    assert inline_results.page([], "²") == ([], "")


def test_names_and_texts_fit() -> None:
    name = guard.display_name("A\nB\u202e" + "é" * 200, "1")
    assert "\n" not in name and "\u202e" not in name and len(name) <= MAX_NAME
    assert guard.display_name("\x00\x01", "42") == "42"
    assert guard.utf16_len(guard.clip16("🃏" * 5000, 4096)) <= 4096
    long_id = Article("9" * 70, "t", "x", play_keyboard("en"))
    fine = Article("1:1:1:d", "t" * 1000, "y" * 10000, play_keyboard("en"))
    assert len(fine.wire()["title"]) <= 256 and len(fine.wire()["input_message_content"]["message_text"]) <= 4096
    assert long_id.id != fine.id


def junk_update(server: BotAPIServer, rng: random.Random, groups: list[JSON], lobby_message: dict[int, int],
                users: list[JSON]) -> JSON:
    """One update of a random odd kind, ready to queue."""
    group = rng.choice(groups)
    user = rng.choice(users)
    word = rng.choice(JUNK_WORDS)
    kind = rng.randrange(9)
    if kind == 0:  # a command with a junk argument
        update = server.send_command(group, user, rng.choice(COMMANDS), word, queue=False)
    elif kind == 1:  # the same, with no sender (a channel-like post, a service message)
        update = server.send_command(group, user, rng.choice(COMMANDS), word, queue=False)
        update["message"].pop("from", None)
    elif kind == 2:  # absurd ids
        update = server.send_command(group, user, rng.choice(COMMANDS), word, queue=False)
        if rng.random() < 0.5:
            update["message"]["from"] = {"id": HUGE, "is_bot": False, "first_name": "Huge"}
        else:
            update["message"]["chat"] = {"id": -HUGE, "type": "supergroup", "title": "Huge"}
    elif kind == 3:  # a forged button
        data = rng.choice([keyboards.JOIN, keyboards.START, keyboards.ADD_AI, keyboards.NEXT_ROUND, "r:tm:²",
                           "r:tm:99999999999999999999", "r:on:" + "x" * 59, "r:var:../x", "r:lang:zz", "r:reset",
                           "r:on:stacking", "zz", "é" * 40, "r:opt:" + word[:20], "r:o:99:1", "r:o:²:²"])
        update = server.press_button(group, user, lobby_message.get(group["id"], 1), data, strict=False,
                                     queue=False)
        if rng.random() < 0.2:
            update["callback_query"].pop("from", None)
        if rng.random() < 0.2:
            update["callback_query"].pop("message", None)
            update["callback_query"]["inline_message_id"] = "junk"
    elif kind == 4:  # an inline query with a junk offset or text
        update = server.inline_query(user, rng.choice(["", word, f"#{group['id']}", f"#{HUGE}", "#²", "#"]),
                                     offset=rng.choice(["", "²", "-5", "50", word[:30]]), queue=False)
    elif kind == 5:  # a picked result with a junk id
        rid = rng.choice([f"{group['id']}:²:{user['id']}:d", f"{group['id']}:1:{user['id']}:p" + word[:20],
                          ":::", "x" * 64, f"{HUGE}:1:1:d", f"{group['id']}:1:{user['id']}:k{HUGE}",
                          f"{group['id']}:1:{user['id']}:pR5@" + "9" * 30, f"{group['id']}:99999:{user['id']}:u"])
        update = server.choose_inline_result(user, rid, inline_message_id=rng.choice([None, "im-1"]), queue=False)
        if rng.random() < 0.2:
            update["chosen_inline_result"].pop("from", None)
    elif kind == 6:  # an anonymous admin (of a group nobody plays in: they may stop games)
        update = server.send_command(groups[-1], user, rng.choice(COMMANDS), word, anonymous=True, queue=False)
    elif kind == 7:  # a channel post and an edited command
        update = server.send_command(group, user, "/new", word, queue=False)
        message = update.pop("message")
        message.pop("from", None)
        message["sender_chat"] = {"id": -1009999999999, "type": "channel", "title": "Chan"}
        update["channel_post" if rng.random() < 0.5 else "edited_message"] = message
    else:  # a user with an odd, long name
        odd = {"id": user["id"], "is_bot": False, "first_name": "\u202e" + word[:64], "last_name": "é" * 64}
        update = server.send_command(group, odd, rng.choice(["/join", "/new", "/stats"]), queue=False)
    return update


async def test_storm_of_junk_and_play(server: BotAPIServer, bot: BotProcess, caplog: pytest.LogCaptureFixture) -> None:
    """Thousands of odd updates (seeded) while two groups play: 0 tracebacks, 0 ERROR lines."""
    caplog.set_level(logging.INFO)
    rng = random.Random(15)
    players = [[server.user(200 + 10 * g + i, f"P{g}{i}") for i in range(3)] for g in range(2)]
    drivers = []
    for g in range(2):
        group = server.group(title=f"Play {g}")
        # (Privacy is checked elsewhere; here /help's "+4" would read as a card named.)
        driver = TableDriver(server, bot, group, players[g], seed=g, check_privacy=False)
        await short_games(bot, driver.chat, scoring="target=0")
        alice, bob, carol = players[g]
        await driver.command(alice, "/new")
        await driver.press(bob, keyboards.JOIN)
        await driver.command(carol, "/join")
        await driver.press(alice, keyboards.START)
        drivers.append(driver)
    lobby = server.group(title="Lobby of fifty")
    await bot.settle(server.send_command(lobby, server.user(300, "Host"), "/new"))
    lobby_message = {lobby["id"]: max(server.messages[lobby["id"]])}
    for d in drivers:
        status = d.status_message()
        assert status is not None
        lobby_message[d.group["id"]] = status["message_id"]
    groups = [d.group for d in drivers] + [lobby, server.group(title="Quiet")]
    # Strangers: the players' own odd moves are the forged picks above (a player's
    # /leave or an admin's /stop would end the games the drivers play).
    users = [server.user(400 + i, f"U{i}") for i in range(20)]
    # Fifty people press Join at once.
    for i in range(50):
        server.press_button(lobby, server.user(500 + i, f"J{i}"), lobby_message[lobby["id"]], keyboards.JOIN)
    sent = 50
    moves = 0
    while sent < 3000:
        for _ in range(250):
            server.queue_update(junk_update(server, rng, groups, lobby_message, users))
            sent += 1
        for d in drivers:
            before = d.stats.moves
            if not await d.step():  # the match ended: another one
                alice, bob, carol = d.players
                await d.command(alice, "/new")
                await d.press(bob, keyboards.JOIN)
                await d.press(alice, keyboards.START)
            moves += d.stats.moves - before
    await bot.idle(30)
    assert moves > 5
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [f"{r.name}: {r.getMessage()}" for r in bad[:5]]
    assert server.errors == []
    # Every inline query that names its sender was answered.
    unanswered = [q for q in server._open_inline_queries.values() if q.get("from")]
    assert not unanswered, unanswered[:3]
    # Every Bot API call the bot made was taken (the server refuses what breaks a limit).
    assert bot.store is not None
    for d in drivers:
        stored = await bot.store.load_game(await bot.store.chat_game(d.chat) or "")
        if stored is not None:
            Table.decode(stored.state, stored.version)  # still a legal, readable table
    table = await bot.service.table(str(lobby["id"])) if bot.service else None
    assert table is not None and len(table.seats) == 10  # the lobby took ten of fifty, the rest were refused


async def test_limits_hold_by_construction(server: BotAPIServer, bot: BotProcess) -> None:
    """Long names, many players: status texts, result ids and buttons fit Telegram's limits."""
    group = server.group(title="T" * 128)
    long = [{"id": 9_000_000_000_000 + i, "is_bot": False, "first_name": "Ŵ" * 64, "last_name": "🃏" * 64}
            for i in range(10)]
    for i, user in enumerate(long):
        await bot.settle(server.send_command(group, user, "/new" if i == 0 else "/join"))
    await bot.settle(server.send_command(group, long[0], "/start"))
    assert bot.service is not None
    table = await bot.service.table(str(group["id"]))
    assert table is not None and table.game is not None and len(table.seats) == 10
    assert all(len(s.name) <= MAX_NAME for s in table.seats)
    query = server.inline_query(long[table.game.turn], "")
    await bot.settle(query)
    answer = server.inline_answers[query["inline_query"]["id"]]
    assert 0 < len(answer["results"]) <= 50
    assert all(len(r["id"].encode()) <= 64 for r in answer["results"])
    assert server.errors == []
