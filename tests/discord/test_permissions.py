"""A channel where the bot lacks a permission it needs: the member is told, in
their language, what to grant; no game is left running unseen.

Why: a slash command's own answer needs no channel permission, so `/uno new`
in a channel the bot may not post files in (the status message carries the
top card's picture) showed a lobby; every later edit was refused (403) and
only logged: the game went on where nobody could see it, and nobody was told
why the message never changed.
"""

from __future__ import annotations

from tests.discord.driver import BotProcess, TableDriver
from tests.discord_api import DiscordAPIServer
from tests.discord_api.server import (
    ALL_PERMISSIONS,
    ATTACH_FILES,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
)
from unobot.chat.i18n import gettext_for


async def test_new_in_a_channel_without_attach_files_says_what_to_grant(server: DiscordAPIServer,
                                                                        bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    channel = guild.channels[0]
    server.bot_permissions[channel] = ALL_PERMISSIONS & ~ATTACH_FILES
    ann, eve = server.member("Ann"), server.member("Eve", locale="de")
    driver = TableDriver(server, bot, channel, [ann, eve])
    sent = await driver.slash(eve, "new")
    assert sent.message is not None and sent.message.ephemeral, "the refusal is Eve's alone"
    assert gettext_for("de")("Attach Files") in sent.text and "Attach Files" not in sent.text, sent.text
    assert server.channel_messages(channel) == [], "no lobby the bot could never update"
    assert await driver.table() is None
    server.bot_permissions[channel] = ALL_PERMISSIONS  # granted: the game opens
    sent = await driver.slash(ann, "new")
    assert sent.message is not None and not sent.message.ephemeral and "Ann" in sent.text


async def test_a_permission_taken_away_mid_game_is_said_to_whoever_presses(server: DiscordAPIServer,
                                                                           bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    channel = guild.channels[0]
    ann, bob = server.member("Ann"), server.member("Bob")
    driver = TableDriver(server, bot, channel, [ann, bob])
    await driver.slash(ann, "new")
    server.bot_permissions[channel] = ALL_PERMISSIONS & ~(SEND_MESSAGES | ATTACH_FILES)
    sent = await driver.press_status(bob, "j")
    told = "\n".join(m.content for m in [*([sent.message] if sent.message else []), *sent.followups])
    assert "Attach Files" in told and "Send Messages" in told, told
    assert all(m.ephemeral for m in sent.followups)
    table = await driver.table()
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Bob"], "the press itself was taken"
    panel = await driver.open_hand(ann)  # the panel says it too
    assert "Attach Files" in panel.content, panel.content


async def test_a_thread_needs_send_messages_in_threads_not_send_messages(server: DiscordAPIServer,
                                                                         bot: BotProcess) -> None:
    """In a thread (a forum channel's posts are threads too) Discord lets the
    bot post with Send Messages in Threads: a thread that allows it is played
    in whatever Send Messages says, and one that denies it is refused by name."""
    guild = next(iter(server.guilds.values()))
    played, denied = server.thread(guild.channels[0]), server.thread(guild.channels[0], "no bots")
    server.bot_permissions[played] = ALL_PERMISSIONS & ~SEND_MESSAGES
    server.bot_permissions[denied] = ALL_PERMISSIONS & ~SEND_MESSAGES_IN_THREADS
    ann, bob = server.member("Ann"), server.member("Bob")
    driver = TableDriver(server, bot, played, [ann, bob])
    sent = await driver.slash(ann, "new")
    assert sent.message is not None and not sent.message.ephemeral and "Ann" in sent.text
    await driver.press_status(bob, "j")
    await driver.press_status(ann, "g")
    table = await driver.table()
    assert table is not None and table.phase == "playing"
    status = driver.status_message()
    assert status is not None and status.channel_id == played and len(status.versions) > 1
    sent = await TableDriver(server, bot, denied, [ann]).slash(ann, "new")
    assert sent.message is not None and sent.message.ephemeral and "Send Messages in Threads" in sent.text


async def test_a_thread_archived_mid_game_is_unarchived_and_the_status_goes_on(server: DiscordAPIServer,
                                                                              bot: BotProcess) -> None:
    """Discord archives a thread after its inactivity time, and a game played on
    its status message alone posts nothing new: mid-game, every status edit
    was refused (50083, "Thread is archived") and only logged, and the status
    stood still. Now the bot unarchives the thread and edits."""
    guild = next(iter(server.guilds.values()))
    thread = server.thread(guild.channels[0])
    ann, bob = server.member("Ann"), server.member("Bob")
    driver = TableDriver(server, bot, thread, [ann, bob])
    await driver.slash(ann, "new")
    await driver.press_status(bob, "j")
    server.archived.add(thread)  # an hour without a new message
    await driver.press_status(ann, "g")
    table = await driver.table()
    assert table is not None and table.phase == "playing"
    status = driver.status_message()
    assert status is not None and "Bob" in status.content and thread not in server.archived
    assert [m.id for m in server.channel_messages(thread)] == [status.id], "edited, not posted again"
    assert len(status.versions) >= 3, "the join and the start were both shown"
