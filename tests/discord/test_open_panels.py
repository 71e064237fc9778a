"""A member's open hand panel is brought up to date when their turn comes.

Why: the panel is an ephemeral message; it changed only when its member
pressed something on it. A member who opened it while others played found,
when their turn came, the hand of several moves ago: every card they picked
was refused as "an old hand" until they pressed 🔄. Now the panel of the
member on turn is edited to the table as it is (through the interaction that
last showed it; Discord lets an interaction edit its answer for 15 minutes).
"""

from __future__ import annotations

from tests.discord.driver import BotProcess, TableDriver
from tests.discord.test_game import lobby_and_start, short_games, three
from tests.discord_api import DiscordAPIServer
from tests.discord_api.server import Member
from tests.support.redis_server import RedisServer
from tests.support.waiting import until
from unobot.adapters.discord import render
from unobot.adapters.discord.place import settings_followers, settings_places
from unobot.adapters.redis_store import RedisStore
from unobot.chat.actions import menu
from unobot.chat.commands import Person
from unobot.chat.i18n import known
from unobot.chat.service import ChatService
from unobot.chat.table import Table


async def others_play_until_the_turn_of(driver: TableDriver, waiting: Member) -> Table:
    """The other members play (through `driver`'s presses) until the turn is `waiting`'s: that table."""
    for _ in range(12):
        now = await driver.table()
        assert now is not None and now.game is not None and now.phase == "playing"
        on_turn = driver.member_of(now.seats[now.game.turn].id)
        assert on_turn is not None
        if on_turn is waiting:
            return now
        await driver.turn(on_turn)
    raise AssertionError("the turn never came")


async def refreshed(server: DiscordAPIServer, message_id: int) -> None:
    """Wait until the panel `message_id` was edited at least once since it was sent."""
    async def edited() -> bool:
        return len(server.messages[message_id].versions) > 1
    await until(edited, 5, "the panel was never brought up to date")


async def test_the_panel_of_the_member_on_turn_shows_the_table_now(server: DiscordAPIServer,
                                                                    bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    await short_games(driver, scoring="target=100")
    await lobby_and_start(driver, "official")
    table = await driver.table()
    assert table is not None and table.game is not None
    waiting = next(m for m in driver.members if str(m.id) != table.seats[table.game.turn].id)
    panel = await driver.open_hand(waiting)  # opened while another member is on turn
    opened_at = table.version
    now = await others_play_until_the_turn_of(driver, waiting)
    await bot.idle()
    assert now.version > opened_at
    shown = server.messages[panel.id]
    assert len(shown.versions) > 1, "the panel was never brought up to date"
    fresh = render.panel(now, str(waiting.id), known(waiting.locale) or "en", is_admin=False)
    assert {cid.partition("=")[0] for _, cid in shown.custom_ids()} == {
        cid for row in fresh.view.to_components() for cid in [c.get("custom_id") for c in row["components"]] if cid}
    # A card picked on it now is taken, not refused as an old hand.
    cards = [cid for _, cid in shown.custom_ids() if cid.startswith("u|s|")]
    assert cards, shown.custom_ids()
    sent = await driver.pick(waiting, shown, cards[0])
    assert sent.message is not None and "⚠️" not in sent.message.content, sent.message.content


async def test_a_move_made_through_another_process_refreshes_the_open_panel(
        server: DiscordAPIServer, bot: BotProcess, redis_server: RedisServer, prefix: str) -> None:
    """Two bot processes on one Redis (two shards, or `unobot web` beside the
    bot): the panel a member opened through the first is brought up to date
    when the moves of the others, made through the second, bring the turn to
    them (the second holds no interaction that may edit it)."""
    second = await BotProcess(server, redis_server.url, prefix, seed=8).start()
    try:
        guild = next(iter(server.guilds.values()))
        driver = TableDriver(server, bot, guild.channels[0], three(server))
        driver.others = [second]
        driver._session = lambda: 1  # type: ignore[method-assign]  # every press through the second
        await short_games(driver, scoring="target=100")
        await lobby_and_start(driver, "official")
        table = await driver.table()
        assert table is not None and table.game is not None
        waiting = next(m for m in driver.members if str(m.id) != table.seats[table.game.turn].id)
        status = driver.status_message()
        assert status is not None
        # Opened through the first process (the gateway session the bot fixture started).
        opened = await driver.settle(await server.component(waiting, status, "u|hand", session=0))
        panel = opened.message
        assert panel is not None and panel.viewer == waiting.id
        await others_play_until_the_turn_of(driver, waiting)
        await refreshed(server, panel.id)  # the change feed carries the move to the first process
        await bot.idle()
        shown = server.messages[panel.id]
        assert len(shown.versions) > 1, "the panel was never brought up to date"
        cards = [cid for _, cid in shown.custom_ids() if cid.startswith("u|s|")]
        assert cards, shown.custom_ids()
        sent = await driver.pick(waiting, shown, cards[0])
        assert sent.message is not None and "⚠️" not in sent.message.content, sent.message.content
    finally:
        await second.stop()


async def test_a_move_made_on_the_web_table_refreshes_the_open_panel(
        server: DiscordAPIServer, bot: BotProcess, redis_server: RedisServer, prefix: str) -> None:
    """The others play on the web table (`unobot web`: a chat service of its own on
    the same Redis, no Discord client): the panel the waiting member opened in
    Discord is brought up to date when those moves bring the turn to them."""
    web_store = RedisStore.from_url(redis_server.url, prefix=prefix)
    web = ChatService(web_store, settings_from=settings_places, settings_followers=settings_followers)
    try:
        guild = next(iter(server.guilds.values()))
        driver = TableDriver(server, bot, guild.channels[0], three(server))
        await short_games(driver, scoring="target=100")
        await lobby_and_start(driver, "official")
        table = await driver.table()
        assert table is not None and table.game is not None
        waiting = next(m for m in driver.members if str(m.id) != table.seats[table.game.turn].id)
        panel = await driver.open_hand(waiting)
        for _ in range(12):
            now = await web.table(driver.chat)
            assert now is not None and now.game is not None and now.phase == "playing"
            seat = now.seats[now.game.turn]
            if seat.id == str(waiting.id):
                break
            moves = [x for x in menu(now, seat.id, "en").grouped() if x.command is not None and not x.needs]
            play = [x for x in moves if x.kind == "play"] or [x for x in moves if x.kind in ("draw", "pass")]
            assert play, [x.kind for x in moves]
            out = await web.handle(driver.chat, Person(seat.id, seat.name, "en"), play[0].command)
            assert out.ok, out.error
        else:
            raise AssertionError("the turn never came")
        await refreshed(server, panel.id)  # the change feed carries the web's moves to the bot
        await bot.idle()
        shown = server.messages[panel.id]
        assert len(shown.versions) > 1, "the panel was never brought up to date"
        cards = [cid for _, cid in shown.custom_ids() if cid.startswith("u|s|")]
        draw = [cid for _, cid in shown.custom_ids() if cid.startswith("u|a|") and cid.split("|")[3] == "d"]
        sent = await driver.pick(waiting, shown, (cards or draw)[0])
        assert sent.message is not None and "⚠️" not in sent.message.content, sent.message.content
    finally:
        await web_store.close()
