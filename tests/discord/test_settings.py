"""House rules per server and per channel (Manage Server only), language per
channel, turn timers, AI seats and stats, through the slash commands."""

from __future__ import annotations

import asyncio

from tests.discord.driver import BotProcess, TableDriver
from tests.discord.test_game import short_games
from tests.discord_api import DiscordAPIServer, Member


def two_channels(server: DiscordAPIServer, bot: BotProcess) -> tuple[Member, Member, TableDriver, TableDriver]:
    """Two channels of one server (the second added), a member who manages the
    server and one who does not, and a driver in each channel."""
    guild = next(iter(server.guilds.values()))
    second = server.snowflake()  # a second channel in the same guild
    guild.channels.append(second)
    server.channel_guild[second] = guild.id
    boss = server.member("Boss", manage_guild=True)
    ann = server.member("Ann")
    one, two = (TableDriver(server, bot, channel, [boss, ann]) for channel in (guild.channels[0], second))
    return boss, ann, one, two


async def test_rules_per_server_and_channel(server: DiscordAPIServer, bot: BotProcess) -> None:
    boss, ann, one, two = two_channels(server, bot)
    # A member without Manage Server sees the rules, with nothing to change them with ...
    seen = await one.slash(ann, "rules")
    assert seen.message is not None and seen.message.ephemeral and not seen.message.components
    assert "Official" in seen.message.content or "official" in seen.message.content.lower()
    # ... and cannot change them, even with a forged select.
    refused = await one.slash(ann, "variant", name="party")
    assert refused.message is not None and "⚠️" in refused.message.content
    # The admin turns stacking on for the whole server: both channels get it.
    shown = await one.slash(boss, "rules", scope="server")
    assert shown.message is not None and shown.message.components
    forged = await one.press(ann, shown.message, "s|server|#0", ["on:stacking"])
    assert forged.message is not None and forged.message.ephemeral and "⚠️" in forged.message.content
    assert "stacking" not in (await one.service.settings(one.chat))["rules"]
    await one.press(boss, shown.message, "s|server|#0", ["on:stacking"])
    assert "stacking" in (await one.service.settings(one.chat))["rules"]
    assert "stacking" in (await two.service.settings(two.chat))["rules"]
    # A channel's own choice wins over the server's, in that channel only.
    await two.slash(boss, "language", language="es")
    await one.slash(boss, "timer", seconds=45, scope="server")
    assert (await two.service.settings(two.chat))["lang"] == "es"
    assert (await one.service.settings(one.chat))["lang"] == "en"
    assert (await two.service.settings(two.chat))["timer"] == 45
    sent = await two.slash(ann, "new")
    assert sent.message is not None and "Esperando jugadores" in sent.message.content, sent.message.content
    table = await two.table()
    assert table is not None and table.lang == "es" and table.timer == 45 and "stacking" in table.overrides


async def test_timer_ai_seats_and_stats(server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    boss = server.member("Boss", manage_guild=True)
    driver = TableDriver(server, bot, guild.channels[0], [boss])
    await short_games(driver, scoring="target=50")
    await driver.slash(boss, "timer", seconds=1)
    await driver.slash(boss, "new")
    await driver.add_ai(boss)
    await driver.add_ai(boss)
    table = await driver.table()
    assert table is not None and [s.is_ai for s in table.seats] == [False, True, True]
    await driver.press_status(boss, "g")
    status = driver.status_message()
    assert status is not None and "1 second per turn" in status.content
    # Boss does nothing on some turn: the timer moves the game on by itself.
    for _ in range(200):
        table = await driver.table()
        assert table is not None
        if table.phase != "playing" or table.game is None:
            break
        if table.seats[table.game.turn].id == str(boss.id):
            break
        await asyncio.sleep(0.05)
    before = await driver.table()
    assert before is not None and before.phase == "playing" and before.game is not None
    assert before.seats[before.game.turn].id == str(boss.id)
    # Boss's turn passes by: the timer's job (1 s and its grace) moves the table on, on a loaded
    # machine a little later; only that job can, as nobody else acts on Boss's turn.
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while (now := await driver.table()) is not None and now.version == before.version:
        assert loop.time() < deadline, "Boss's turn never timed out"
        await asyncio.sleep(0.05)
    await bot.idle()
    after = await driver.table()
    assert after is not None and after.version > before.version
    assert any(r[0] == "timed_out" for r in after.recent) or after.phase != "playing"
    assert "ran out of time" in "\n".join(v[0] for v in status.versions)
    # Now play it out; then the stats count it.
    await driver.slash(boss, "timer", seconds=0)
    await driver.play()
    stats = await driver.slash(boss, "stats")
    assert stats.message is not None and stats.message.ephemeral
    assert "1 match finished" in stats.message.content, stats.message.content
    await driver.check_privacy()


async def test_a_rule_that_clashes_is_refused_in_the_members_language(server: DiscordAPIServer,
                                                                       bot: BotProcess) -> None:
    """Turning on a rule that conflicts with one that is on: refused to that
    member alone, naming both rules, in the member's language; nothing changes."""
    guild = next(iter(server.guilds.values()))
    boss = server.member("Boss", manage_guild=True)
    jefa = server.member("Jefa", locale="es-ES", manage_guild=True)
    driver = TableDriver(server, bot, guild.channels[0], [boss, jefa])
    for member, text in (
        (boss, "⚠️ “No bluffing with +4” cannot be on together with “Challenging a Wild Draw Four”: "
               "turn “Challenging a Wild Draw Four” off first."),
        (jefa, "⚠️ «Sin faroles con +4» no puede estar activa junto con «Desafiar un +4»: "
               "desactiva «Desafiar un +4» primero."),
    ):
        shown = await driver.slash(member, "rules")
        assert shown.message is not None and shown.message.components
        select = next(cid for _, cid in shown.message.custom_ids() if cid.startswith("s|channel|#0="))
        select = select.partition("=")[0]  # the select's id (an option's entry is `id=value`)
        sent = await driver.press(member, shown.message, select, ["on:no-bluffing"])
        assert sent.message is not None and sent.message.ephemeral and sent.message.viewer == member.id
        assert sent.message.content == text
        assert "no-bluffing" not in (await driver.service.settings(driver.chat))["rules"]


async def test_a_lobby_in_another_channel_shows_the_servers_new_settings(server: DiscordAPIServer,
                                                                         bot: BotProcess) -> None:
    """A server's settings (`/uno ... scope:server`) reach the lobby waiting in
    another channel: its status message says them at once, not only once
    Start deals the game on them; a channel's own setting stays over the server's."""
    boss, ann, one, two = two_channels(server, bot)
    await two.slash(boss, "timer", seconds=45)  # the second channel's own timer
    await two.slash(ann, "new")
    await bot.idle()
    before = two.status_message()
    assert before is not None and "Official" in before.content, before.content
    await one.slash(boss, "variant", name="party", scope="server")
    await one.slash(boss, "timer", seconds=90, scope="server")
    await bot.idle()
    lobby = two.status_message()
    assert lobby is not None and "Party" in lobby.content, lobby.content
    table = await two.table()
    assert table is not None and table.variant == "party" and table.timer == 45


def test_a_servers_settings_are_followed_by_its_channels_alone() -> None:
    from unobot.adapters.discord.place import (
        chat_id,
        guild_chat,
        settings_followers,
        settings_places,
    )

    prefix = settings_followers(guild_chat(5))
    assert prefix is not None and chat_id(5, 9).startswith(prefix) and not chat_id(55, 9).startswith(prefix)
    assert guild_chat(5) in settings_places(chat_id(5, 9))
    assert settings_followers(chat_id(5, 9)) is None


async def test_saved_says_a_waiting_lobby_plays_the_change_now(server: DiscordAPIServer, bot: BotProcess) -> None:
    """With a lobby open, a changed variant shows on its status at once: "Saved" says the
    lobby plays it too (it once said "It applies from the next game" beside a lobby that
    already showed the new variant); with none open, "from the next game" is right."""
    boss, ann, one, _two = two_channels(server, bot)
    before = await one.slash(boss, "variant", name="party")
    assert before.message is not None and "Saved. It applies from the next game." in before.message.content
    await one.slash(ann, "new")
    during = await one.slash(boss, "variant", name="official")
    assert during.message is not None, "no answer"
    assert "Saved. The game waiting for players here plays it too." in during.message.content, during.message.content
    assert "next game" not in during.message.content
    status = one.status_message()
    assert status is not None and "Official" in status.content, status.content
    # The settings message's own press says the same (core's `Pressed.note`).
    shown = await one.slash(boss, "rules")
    assert shown.message is not None
    pressed = await one.press(boss, shown.message, "s|channel|#0", ["on:stacking"])
    assert pressed.message is not None and "plays it too" in pressed.message.content, pressed.message.content
