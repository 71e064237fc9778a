"""A member who is no longer in the server loses their seats, as `/uno leave`
would remove them (adapters/discord/departures.py).

Why: a member who left, or was kicked or banned, mid-game kept their seat;
every turn of theirs ran the whole turn timer out while the others waited
for somebody who could never come back. What Discord tells the bot decides
when it is noticed: a ban at once (the moderation intent, not privileged);
a leave or kick at once with the Server Members intent (privileged, the
operator's `discord.members_intent`), else when their turn runs out (the
bot looks them up then).
"""

from __future__ import annotations

import asyncio
import dataclasses

from tests.discord.driver import FAST, BotProcess, TableDriver
from tests.discord.test_commands import Clock
from tests.discord.test_game import lobby_and_start, short_games, three
from tests.discord_api import DiscordAPIServer, Member
from tests.support.redis_server import RedisServer
from unobot.chat import commands as c
from unobot.chat.table import PLAYING, Table

ADMIN = c.Person("setup", "Setup", None, True)


async def seated(driver: TableDriver) -> Table:
    await short_games(driver, scoring="target=500")
    await lobby_and_start(driver, "official")
    table = await driver.table()
    assert table is not None and table.game is not None and table.phase == PLAYING
    return table


async def until(driver: TableDriver, check: object, seconds: float = 20.0) -> Table:
    """The table once `check(table)` holds (the bot works on its own timer or event)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        table = await driver.table()
        assert table is not None
        if check(table):  # type: ignore[operator]
            await driver.bot.idle()
            return table
        assert asyncio.get_running_loop().time() < deadline, (table.phase, table.left, table.recent[-3:])
        await asyncio.sleep(0.05)


def gone(table: Table, member: Member) -> bool:
    seat = table.seat_of(str(member.id))
    return seat is not None and table.has_left(seat)


async def test_a_banned_member_loses_the_seat_at_once(server: DiscordAPIServer, bot: BotProcess) -> None:
    """No privileged intent: a ban still arrives (GUILD_BAN_ADD, moderation
    intent); the seat goes, the game goes on with the others, the status says so."""
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    table = await seated(driver)
    banned = next(m for m in driver.members if str(m.id) != table.seats[table.game.turn].id)  # type: ignore[union-attr]
    await server.remove_member(guild.id, banned, ban=True)
    after = await until(driver, lambda t: gone(t, banned))
    assert after.phase == PLAYING and after.game is not None
    assert after.seats[after.game.turn].id != str(banned.id)
    status = driver.status_message()
    assert status is not None and f"{banned.name} left the game" in status.content, status.content


async def test_a_member_who_left_is_removed_when_their_turn_runs_out(
        server: DiscordAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """No members intent: nobody tells the bot of a leave (or a kick). When the
    member's turn runs out the bot looks them up: Discord says "Unknown
    Member", so the seat is removed instead of the timeout (a draw and a pass,
    turn after turn). A member still there gets the timeout as before."""
    guild = server.guild()
    clock = Clock()
    bot = await BotProcess(server, redis_server.url, prefix, clock=clock).start()
    try:
        driver = TableDriver(server, bot, guild.channels[0], three(server))
        out = await driver.service.handle(driver.chat, ADMIN, c.SetTimer(seconds=30))
        assert out.ok, out.error
        table = await seated(driver)
        assert table.game is not None
        on_turn = driver.member_of(table.seats[table.game.turn].id)
        assert on_turn is not None
        # Still in the server: the timeout applies (not a removal).
        clock.now += 31
        timed = await until(driver, lambda t: t.version > table.version)
        assert not gone(timed, on_turn) and "timed_out" in [r[0] for r in timed.recent]
        assert timed.game is not None
        leaver = driver.member_of(timed.seats[timed.game.turn].id)
        assert leaver is not None
        await server.remove_member(guild.id, leaver)  # no event: the bot has no members intent
        await asyncio.sleep(0.2)
        assert not gone(await until(driver, lambda t: True), leaver)
        clock.now += 31
        after = await until(driver, lambda t: t.version > timed.version)
        assert gone(after, leaver), after.recent[-3:]
        assert after.phase == PLAYING and after.game is not None
        assert after.seats[after.game.turn].id != str(leaver.id)
        status = driver.status_message()
        assert status is not None and f"{leaver.name} left the game" in status.content, status.content
    finally:
        await bot.stop()


async def test_with_the_members_intent_a_leave_removes_the_seat_at_once(
        server: DiscordAPIServer, redis_server: RedisServer, prefix: str) -> None:
    """`discord.members_intent: true` (and the intent switched on at the
    Developer Portal): GUILD_MEMBER_REMOVE arrives, and the seat goes at once,
    in every channel of that server where the member sits (a thread's too),
    not in another server's."""
    server.members_intent_allowed = True
    guild, other = server.guild(channels=2), server.guild("Elsewhere")
    bot = await BotProcess(server, redis_server.url, prefix,
                           options=dataclasses.replace(FAST, members_intent=True)).start()
    try:
        members = three(server)
        driver = TableDriver(server, bot, guild.channels[0], members)
        thread = TableDriver(server, bot, server.thread(guild.channels[1]), members)
        away = TableDriver(server, bot, other.channels[0], members)
        for d in (driver, thread, away):
            await seated(d)
        leaver = members[2]
        await server.remove_member(guild.id, leaver)
        for d in (driver, thread):
            after = await until(d, lambda t: gone(t, leaver))
            assert after.phase == PLAYING
        kept = await away.table()
        assert kept is not None and not gone(kept, leaver)
    finally:
        await bot.stop()


async def test_a_deleted_channel_or_thread_stops_its_game(server: DiscordAPIServer, bot: BotProcess) -> None:
    """A channel deleted mid-game (CHANNEL_DELETE), and a forum post or thread
    deleted (THREAD_DELETE): their games could never be shown or played
    again, yet their timers went on moving them. Each is stopped (as /uno
    stop: put away), the other channel's game goes on."""
    guild = next(iter(server.guilds.values()))
    extra = server.snowflake()
    guild.channels.append(extra)
    server.channel_guild[extra] = guild.id
    members = three(server)
    doomed = TableDriver(server, bot, guild.channels[0], members)
    thread = TableDriver(server, bot, server.thread(extra), members)
    kept = TableDriver(server, bot, extra, members)
    for d in (doomed, thread, kept):
        await seated(d)
    await server.delete_channel(guild.channels[0])
    await server.delete_channel(thread.channel)
    for d in (doomed, thread):
        deadline = asyncio.get_running_loop().time() + 20
        while await d.table() is not None:
            assert asyncio.get_running_loop().time() < deadline, "the game of a deleted channel goes on"
            await asyncio.sleep(0.05)
    await bot.idle()
    still = await kept.table()
    assert still is not None and still.phase == PLAYING
    assert server.errors == []


async def test_a_channel_deleted_while_no_process_ran_stops_its_game_at_start(
        server: DiscordAPIServer, bot: BotProcess, redis_server: RedisServer, prefix: str) -> None:
    """Nobody heard the deletion: the process that starts brings the status
    message up to date, Discord answers "Unknown Channel", and the game is
    stopped instead of being posted again and again."""
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    await seated(driver)
    await bot.stop()
    await server.delete_channel(guild.channels[0])
    fresh = await BotProcess(server, redis_server.url, prefix).start()
    try:
        driver.bot = fresh
        deadline = asyncio.get_running_loop().time() + 20
        while await driver.table() is not None:
            assert asyncio.get_running_loop().time() < deadline, "the game of a deleted channel goes on"
            await asyncio.sleep(0.05)
    finally:
        await fresh.stop()


async def test_a_server_that_removes_the_bot_has_its_games_stopped(server: DiscordAPIServer, bot: BotProcess) -> None:
    """GUILD_DELETE (the bot kicked, or the server deleted): every game of that
    server is stopped; another server's goes on."""
    guild = next(iter(server.guilds.values()))
    other = server.guild("Elsewhere")
    members = three(server)
    here = TableDriver(server, bot, guild.channels[0], members)
    away = TableDriver(server, bot, other.channels[0], members)
    for d in (here, away):
        await seated(d)
    await server.remove_bot(guild.id)
    deadline = asyncio.get_running_loop().time() + 20
    while await here.table() is not None:
        assert asyncio.get_running_loop().time() < deadline, "the game goes on in a server the bot left"
        await asyncio.sleep(0.05)
    await bot.idle()
    kept = await away.table()
    assert kept is not None and kept.phase == PLAYING


async def test_with_no_turn_timer_skip_removes_a_member_who_left(server: DiscordAPIServer, bot: BotProcess) -> None:
    """No turn timer (the default) and no members intent: the turn of a member
    who left waited for them forever, and `/uno skip` was refused ("There is
    no turn timer"). Now a player's `/uno skip` finds them gone and removes
    their seat, said in the channel; a passer-by's changes nothing."""
    guild = next(iter(server.guilds.values()))
    members = three(server)
    driver = TableDriver(server, bot, guild.channels[0], members)
    table = await seated(driver)
    assert table.game is not None and not table.timer
    leaver = driver.member_of(table.seats[table.game.turn].id)
    assert leaver is not None
    other = next(m for m in members if m is not leaver)
    passer = server.member("Eve")
    sent = await driver.slash(other, "skip")  # still in the server: the ordinary refusal
    assert sent.message is not None and sent.message.ephemeral and "⚠️" in sent.message.content
    await server.remove_member(guild.id, leaver)
    sent = await driver.slash(passer, "skip")
    assert sent.message is not None and sent.message.ephemeral and "⚠️" in sent.message.content
    same = await driver.table()
    assert same is not None and same.version == table.version
    sent = await driver.slash(other, "skip")
    assert sent.message is not None and not sent.message.ephemeral
    assert f"{leaver.name} left the game" in sent.message.content, sent.message.content
    after = await driver.table()
    assert after is not None and gone(after, leaver) and after.phase == PLAYING and after.game is not None
    assert after.seats[after.game.turn].id != str(leaver.id)
