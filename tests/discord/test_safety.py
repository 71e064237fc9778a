"""Forged, stale and malformed interactions change nothing; a restart mid-game loses nothing."""

from __future__ import annotations

import asyncio

from tests.discord.driver import BotProcess, TableDriver
from tests.discord.test_game import lobby_and_start, short_games, three
from tests.discord_api import DiscordAPIServer, Guild
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.commands import Person
from unobot.chat.service import ChatService
from unobot.chat.wake import LOBBY_EXPIRY


async def started(server: DiscordAPIServer, bot: BotProcess) -> TableDriver:
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    await short_games(driver, scoring="target=100")
    await lobby_and_start(driver, "official")
    return driver


async def test_forged_and_stale(server: DiscordAPIServer, bot: BotProcess) -> None:
    driver = await started(server, bot)
    table = await driver.table()
    assert table is not None and table.game is not None
    version = table.version
    on_turn = table.game.turn
    mover = driver.member_of(table.seats[on_turn].id)
    other = next(m for m in driver.members if m is not mover)
    assert mover is not None
    status = driver.status_message()
    assert status is not None
    other_seat = table.seat_of(str(other.id))
    assert other_seat is not None
    shown_before = len(status.versions)
    not_held = next(t for t in ("W+4", "W", "R0", "G9", "BS", "Y+2")
                    if all(card.text != t for card in table.game.hands[on_turn]))
    forged = [
        (mover, f"u|a|{version}|p{not_held}.R"),            # a card the member does not hold
        (other, f"u|a|{version}|p{table.game.hands[other_seat][0].text}.R"),  # out of turn
        (mover, "u|a|notanumber|pR5"),                      # malformed
        (mover, f"u|a|{version}|p"),                        # malformed action id
        (mover, f"u|a|{version}|Mnotadigest"),              # a digest nobody may play
        (mover, "u|zzz"),                                     # unknown verb
        (mover, "somebody-else|join"),                        # not ours at all
        (mover, f"u|a|{version}|k{other.id}"),              # catching someone who is not exposed
        (server.member("Eve"), f"u|a|{version}|d"),         # not in the game
    ]
    for member, custom_id in forged:
        sent = await driver.press(member, status, custom_id)
        assert sent.message is not None and sent.message.viewer == member.id, custom_id
        assert "⚠️" in sent.message.content, (custom_id, sent.message.content)
        after = await driver.table()
        assert after is not None and after.version == version, custom_id
    # The public status message was not touched by any of them (no hand in it).
    assert len(status.versions) == shown_before
    await driver.check_privacy()
    # A hand opened before a move is stale after it: refused, and shown again fresh.
    hand = await driver.open_hand(mover)
    picks = [cid for _, cid in hand.custom_ids() if cid.endswith("|d") or cid.endswith("|d+")]
    draw = picks[0] if picks else next(cid for _, cid in hand.custom_ids() if cid.startswith("u|s|"))
    other_hand = await driver.open_hand(other)
    # (read before the move: when the move gives `other` the turn, their open panel is brought up to date)
    stale = [cid for _, cid in other_hand.custom_ids() if cid.startswith(("u|a|", "u|s|"))]
    await driver.pick(mover, hand, draw)
    moved = await driver.table()
    assert moved is not None and moved.version > version
    for cid in stale[:2]:
        base, _, value = cid.partition("=")
        now = await driver.table()
        assert now is not None
        sent = await driver.press(other, other_hand, base, [value] if value else None)
        assert sent.message is not None
        later = await driver.table()
        assert later is not None and later.version == now.version, cid
    # Nothing was answered twice, and the server saw no request it does not model.
    assert not [r for r in server.refusals if r[1] == 40060]


async def test_stale_hand_refused(server: DiscordAPIServer, bot: BotProcess) -> None:
    driver = await started(server, bot)
    table = await driver.table()
    assert table is not None and table.game is not None
    mover = driver.member_of(table.seats[table.game.turn].id)
    assert mover is not None
    hand = await driver.open_hand(mover)
    first = hand.custom_ids()[0][1]
    # The game moves on (the member draws through a second hand message) ...
    fresh = await driver.open_hand(mover)
    draw = next(cid for _, cid in fresh.custom_ids() if cid.endswith(("|d", "|d+")))
    base, _, value = draw.partition("=")
    await driver.press(mover, fresh, base, [value] if value else None)
    version = (await driver.table()).version  # type: ignore[union-attr]
    # ... so the first hand's choices are out of date.
    base, _, value = first.partition("=")
    sent = await driver.press(mover, hand, base, [value] if value else None)
    assert sent.message is not None and sent.message.id == hand.id
    assert "out of date" in sent.message.content, sent.message.content
    assert (await driver.table()).version == version  # type: ignore[union-attr]
    await driver.check_privacy()


async def test_old_status_message(server: DiscordAPIServer, bot: BotProcess) -> None:
    driver = await started(server, bot)
    ann = driver.members[0]
    old = driver.status_message()
    assert old is not None
    sent = await driver.slash(ann, "stop")
    assert sent.message is not None and "stopped" in sent.message.content
    assert not old.components  # the stopped game's message lost its buttons
    await driver.slash(ann, "new")
    new = driver.status_message()
    assert new is not None and new.id != old.id
    sent = await driver.press(driver.members[1], old, "u|a|1|j")
    assert sent.message is not None and sent.message.ephemeral and "⚠️" in sent.message.content
    table = await driver.table()
    assert table is not None and [s.name for s in table.seats] == ["Ann"]


async def test_restart_mid_game(server: DiscordAPIServer, bot: BotProcess, redis_server: RedisServer,
                                prefix: str) -> None:
    driver = await started(server, bot)
    for _ in range(4):
        table = await driver.table()
        assert table is not None and table.game is not None
        member = driver.member_of(table.seats[table.game.turn].id)
        assert member is not None
        await driver.turn(member)
    before = await driver.table()
    assert before is not None and before.phase == "playing"
    status = driver.status_message()
    assert status is not None
    await bot.stop()
    # A new process on the same store picks the game up where it was.
    fresh = await BotProcess(server, redis_server.url, prefix).start()
    try:
        driver.bot = fresh
        again = await driver.table()
        assert again is not None and again.version == before.version and again.game is not None
        assert [list(h) for h in again.game.hands] == [list(h) for h in before.game.hands]  # type: ignore[union-attr]
        stats = await driver.play()
        assert stats.moves >= 1
        shown = server.channel_messages(driver.channel)
        assert [m.id for m in shown] == [status.id]  # the same status message, edited by the new process
        assert "wins the match" in shown[0].content
    finally:
        await fresh.stop()
        driver.bot = bot


async def test_a_restart_brings_the_status_messages_up_to_date(server: DiscordAPIServer, bot: BotProcess,
                                                               redis_server: RedisServer, prefix: str) -> None:
    """A process that stopped right after a change (here: a join made while
    no bot ran) never showed it; the next one shows it at start-up, on the
    same message, as Telegram's start-up does."""
    guild = next(iter(server.guilds.values()))
    ann, bruno, cleo = three(server)
    driver = TableDriver(server, bot, guild.channels[0], [ann, bruno, cleo])
    await driver.slash(ann, "new")
    status = driver.status_message()
    assert status is not None and "Bruno" not in status.content
    await bot.stop()
    store = RedisStore.from_url(redis_server.url, prefix=prefix)
    try:
        out = await ChatService(store).handle(driver.chat, Person(str(bruno.id), "Bruno"), c.Join())
        assert out.ok, out.error
    finally:
        await store.close()
    fresh = await BotProcess(server, redis_server.url, prefix).start()
    try:
        driver.bot = fresh
        await fresh.idle()
        shown = server.channel_messages(driver.channel)
        assert [m.id for m in shown if not m.ephemeral] == [status.id], [m.content for m in shown]
        assert "Bruno" in shown[-1].content, shown[-1].content
    finally:
        await fresh.stop()
        driver.bot = bot


async def test_two_processes_share_games(server: DiscordAPIServer, bot: BotProcess, redis_server: RedisServer,
                                         prefix: str) -> None:
    """Two bot processes on one Redis, interactions alternating between them
    (as two gateway shards would see different guilds, or a process restart
    mid-game): the game is whole, every move counted once."""
    second = await BotProcess(server, redis_server.url, prefix, seed=8).start()
    try:
        guild = next(iter(server.guilds.values()))
        driver = TableDriver(server, bot, guild.channels[0], three(server))
        driver.others = [second]
        await short_games(driver, scoring="target=100")
        await lobby_and_start(driver, "official")
        stats = await driver.play()
        assert stats.moves > 3
        shown = server.channel_messages(driver.channel)
        assert len(shown) == 1 and "wins the match" in shown[0].content
        game_log = [s for s in server.interactions.values() if s.payload["type"] == 3]
        assert all(s.answered.is_set() for s in game_log)
    finally:
        await second.stop()


async def test_each_shard_watches_its_own_servers(server: DiscordAPIServer, redis_server: RedisServer,
                                                  prefix: str) -> None:
    """`--shard 0 --shards 2` and `--shard 1 --shards 2` on one Redis: a
    server's events reach one shard, `(guild_id >> 22) % 2`. Each process
    plans the timers of its own servers' tables and shows the changes made
    to them elsewhere; it left the others' alone (both edited every status
    message and rang every timer, twice the channel's edit budget)."""
    base = server.snowflake() >> 22
    guilds: dict[int, Guild] = {(base + k) % 2: server.guild(f"club {k}", gid=((base + k) << 22) + 7)
                                for k in (1, 2)}
    shards = [await BotProcess(server, redis_server.url, prefix, shard=(i, 2)).start() for i in range(2)]
    try:
        for owner in (0, 1):
            guild, other = guilds[owner], shards[1 - owner]
            ann, bruno = server.member("Ann"), server.member("Bruno")
            driver = TableDriver(server, shards[owner], guild.channels[0], [ann, bruno])
            driver.others = [other]
            driver._session = lambda owner=owner: owner  # type: ignore[method-assign]  # Discord's routing
            await driver.slash(ann, "new")
            status = driver.status_message()
            assert status is not None
            await driver.press_status(bruno, "j")
            # A change another process made (the web table, say): the owner shows it, the other does not.
            assert other.service is not None
            out = await other.service.handle(driver.chat, Person(str(ann.id), "Ann"), c.AddAI(count=1))
            assert out.ok, out.error
            for _ in range(100):
                if len(server.messages[status.id].edits) >= 2:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)  # a second process's edit, if any, would come meanwhile
            for bot in shards:
                await bot.idle()
            edits = server.messages[status.id].edits
            assert len(edits) == 2, edits  # the join, and the AI seat: once each
            assert shards[owner].client is not None and other.client is not None
            assert shards[owner].client.timers.has(LOBBY_EXPIRY, driver.chat)
            assert not other.client.timers.has(LOBBY_EXPIRY, driver.chat)
    finally:
        for bot in shards:
            await bot.stop()
