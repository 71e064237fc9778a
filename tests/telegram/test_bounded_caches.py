"""The Telegram process's caches hold what is fresh, not everything ever seen
(issue 25's flat memory): an expired entry leaves when its cache is written."""

from __future__ import annotations

import asyncio

from telegram import Chat, User

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, TableDriver
from unobot.adapters.telegram import bot as bot_module
from unobot.adapters.telegram import keyboards
from unobot.adapters.telegram.admins import AdminCache
from unobot.adapters.telegram.limiter import GroupLimiter
from unobot.adapters.telegram.runtime import KEY
from unobot.chat import commands as c
from unobot.chat.commands import Person

ADMIN = Person("setup", "Setup", None, True)


async def test_the_runtime_caches_drop_what_expired(bot: BotProcess) -> None:
    rt = bot.app.bot_data[KEY]
    for i in range(50):
        rt.private_ok.put(f"old{i}", True, ttl=0.05)
        rt.finder.game_ids.put(f"-100{i}", f"-100{i}#1", ttl=0.05)
        rt.finder.places.put(f"old{i}", [f"-100{i}"], ttl=0.05)
    await asyncio.sleep(0.1)
    rt.private_ok.put("new", False)
    rt.finder.game_ids.put("-2", "-2#1")
    rt.finder.places.put("new", ["-2"])
    assert list(rt.private_ok) == ["new"] and rt.private_ok.get("new") is False
    assert list(rt.finder.game_ids) == ["-2"] and rt.finder.game_ids.get("-2") == "-2#1"
    assert list(rt.finder.places) == ["new"] and rt.finder.places.get("new") == ["-2"]
    rt.private_ok.put("later", True)  # fresh entries stay
    assert list(rt.private_ok) == ["new", "later"]


async def test_the_admin_cache_keeps_the_last_minute_only(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group(title="Admins")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    server.set_status(group, ann, "administrator")
    chat = Chat(group["id"], group["type"])
    cache = AdminCache(ttl=0.05)
    assert await cache.is_admin(bot.app.bot, chat, User(ann["id"], "Ann", False))
    await asyncio.sleep(0.1)
    assert not await cache.is_admin(bot.app.bot, chat, User(ben["id"], "Ben", False))
    assert list(cache._cache) == [(group["id"], ben["id"])]  # Ann's expired check went


async def test_the_application_keeps_no_id_of_every_chat_and_person_it_met(
        server: BotAPIServer, bot: BotProcess) -> None:
    """python-telegram-bot marked every update's chat and user for a persistence
    unobot does not use, and kept them: one entry per chat and person, forever."""
    for i in range(20):
        group = server.group(title=f"Passing {i}")
        person = server.user(100 + i, f"P{i}")
        await TableDriver(server, bot, group, [person], check_privacy=False).command(person, "/help")
    assert bot.app.persistence is None
    assert not bot.app._chat_ids_to_be_updated_in_persistence
    assert not bot.app._user_ids_to_be_updated_in_persistence


def test_the_limiter_forgets_a_group_whose_budget_is_full_again() -> None:
    """A group's budget at rest is what a new one would be: it leaves when
    another group needs room (issue 25's soak kept one per group ever met),
    and a budget still in use (spent, blocked by a 429, a reply waiting) stays."""
    now = [1000.0]
    limiter = GroupLimiter(clock=lambda: now[0])
    for chat in (-1, -2, -3):
        limiter.budget(chat).spend(now[0])
    limiter.budget(-3).blocked_until = now[0] + 600
    now[0] += 2.0
    limiter.budget(-4)
    assert list(limiter._groups) == [-1, -2, -3, -4]  # spent a token 2 s ago: not at rest yet
    now[0] += 60.0
    limiter.budget(-2).replies = 1  # used: it moves to the end, and a reply waits on it
    limiter.budget(-5)
    assert list(limiter._groups) == [-3, -4, -2, -5]  # -1 rested and went; -3 is blocked
    limiter.budget(-2).replies = 0
    limiter.budget(-3).blocked_until = 0.0
    limiter.budget(-6)
    assert list(limiter._groups) == [-6]  # the others rested: a fresh budget is the same
    small = GroupLimiter(clock=lambda: now[0], size=2)
    for chat in (-1, -2, -3):
        small.budget(chat).spend(now[0])
    assert list(small._groups) == [-2, -3]  # beyond the cap the oldest goes anyway


async def test_a_lobby_leaves_no_lock_behind(server: BotAPIServer, bot: BotProcess) -> None:
    """Every lobby is posted under a lock (a /join meanwhile must edit it, not
    post another): the lock leaves once nobody holds it (the soak found one
    Lock per game kept)."""
    for i in range(5):
        group = server.group(title=f"Lobby {i}")
        ann = server.user(300 + i, "Ann")
        await TableDriver(server, bot, group, [ann], check_privacy=False).command(ann, "/new")
    await bot.idle()
    rt = bot.app.bot_data[KEY]
    assert len(bot.server.messages) >= 5 and not rt.status._reposting


async def _finished_and_stopped(server: BotAPIServer, bot: BotProcess) -> tuple[list[TableDriver], list[str]]:
    """Two short games played to their end and one stopped mid-game; returns the drivers and game ids."""
    assert bot.service is not None and bot.store is not None
    drivers, game_ids = [], []
    for i in range(3):
        group = server.group(title=f"Ends {i}")
        players = [server.user(400 + 10 * i + j, name, language_code="es")
                   for j, name in enumerate(("Ann", "Ben", "Cid"))]
        # The driver's own privacy checks read a game by id after it ended: not the bot's reads.
        driver = TableDriver(server, bot, group, players, seed=i + 1, check_privacy=False)
        await bot.service.handle(driver.chat, ADMIN, c.SetRule(rule="deck", option="hand_size", value=3))
        await bot.service.handle(driver.chat, ADMIN, c.SetRule(rule="scoring", option="target", value=0))
        ann, ben, cid = players
        await driver.command(ann, "/new")
        await driver.command(ben, "/join")
        await driver.command(cid, "/join")
        await driver.press(ann, "g:start")
        for player in players:
            await driver.hand(player)  # an inline query: the process learns the player's language
        game_id = await bot.store.chat_game(driver.chat)
        assert game_id
        drivers.append(driver)
        game_ids.append(game_id)
    await bot.idle()
    return drivers, game_ids


async def test_a_finished_game_leaves_nothing_in_the_process_caches(server: BotAPIServer, bot: BotProcess) -> None:
    """What the process kept for a game (its status messages in the editor,
    its "My cards" keyboard and the keyboard's wire form, the Redis store's
    key names, its players' languages) leaves when the game ends, finished or stopped, not when
    1,024 newer games push it out (issue 25's soak: full caches churning
    grew the allocator's arenas)."""
    assert bot.store is not None
    rt = bot.app.bot_data[KEY]
    drivers, game_ids = await _finished_and_stopped(server, bot)
    chats = [int(d.chat) for d in drivers]
    for chat, game_id in zip(chats, game_ids):  # while they are played, each is kept
        assert rt.status.holds(chat) > 0
        assert keyboards.PLAY_KEYBOARDS.get(str(chat))
        assert any(m in bot_module.WIRE_FORMS for m in keyboards.PLAY_KEYBOARDS.get(str(chat)).values())
        assert game_id in bot.store.keys._games
    people = [str(p["id"]) for d in drivers for p in d.players]
    assert [rt.user_langs.get(p) for p in people] == ["es"] * 9
    for driver in drivers[:2]:
        await driver.play(max_steps=400)
    await drivers[2].command(drivers[2].players[0], "/stop")
    await bot.idle()
    for driver in drivers:
        table = await driver.table()
        assert table is None  # over: the chat has no game now
    for chat, game_id in zip(chats, game_ids):
        assert rt.status.holds(chat) == 0, chat
        assert keyboards.PLAY_KEYBOARDS.get(str(chat)) is None
        assert not rt.status._released
        assert game_id not in bot.store.keys._games
    assert not any(str(chat) in str(m.to_dict()) for chat in chats for m in bot_module.WIRE_FORMS)
    assert [rt.user_langs.get(p) for p in people] == [None] * 9


async def test_a_move_leaves_no_lock_behind(server: BotAPIServer, bot: BotProcess) -> None:
    """A chat's move to a supergroup runs under a lock, kept only while in use
    (the runtime kept one per chat ever moved)."""

    rt = bot.app.bot_data[KEY]
    entered = []
    async def one(old: int) -> None:
        async with rt.moving.hold(old):
            entered.append(old)
            assert old in rt.moving
            await asyncio.sleep(0.01)
    await asyncio.gather(one(-1), one(-1), one(-2))
    assert entered == [-1, -2, -1] and len(rt.moving) == 0
