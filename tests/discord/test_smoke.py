"""The bot connects to the local gateway, registers its commands, opens a lobby."""

from __future__ import annotations

import pytest

from tests.discord.driver import BotProcess, TableDriver, action_of
from tests.discord_api import DiscordAPIServer
from tests.support.redis_server import RedisServer
from unobot.adapters.discord import render


async def test_lobby(server: DiscordAPIServer, bot: BotProcess) -> None:
    assert [c["name"] for c in server.commands] == ["uno"]
    guild = next(iter(server.guilds.values()))
    ann = server.member("Ann")
    driver = TableDriver(server, bot, guild.channels[0], [ann])
    sent = await driver.slash(ann, "new")
    assert sent.message is not None and not sent.message.ephemeral
    assert "Ann" in sent.message.content
    # The lobby's actions of the table model, for anyone: join, start, add an AI (a level next), leave.
    shown = [action_of(cid) for _, cid in sent.message.custom_ids()]
    assert shown[:2] == ["j", "g"] and shown[2].startswith("a") and shown[3:] == ["l"], shown
    assert [cid for _, cid in sent.message.custom_ids()][2].startswith("u|n|")  # the level is picked next


async def test_spanish_command_menu(server: DiscordAPIServer, bot: BotProcess) -> None:
    uno = server.commands[0]
    assert uno["description_localizations"]["es-ES"] == "Jugar al UNO en este canal"
    new = next(o for o in uno["options"] if o["name"] == "new")
    assert new["description_localizations"]["es-ES"].startswith("Abr"), new
    # A choice is named in the member's language too: the words they would type for it.
    top = next(o for o in uno["options"] if o["name"] == "top")
    periods = {c["value"]: c for c in top["options"][0]["choices"]}
    assert periods["week"]["name"] == "week" and periods["week"]["name_localizations"]["es-ES"] == "semana"
    assert periods["week"]["name_localizations"]["de"] == "woche", periods
    assert periods["week"]["name_localizations"]["zh-CN"] == "周", periods  # the first of the words typed
    ai = next(o for o in uno["options"] if o["name"] == "ai")
    level = next(opt for opt in ai["options"] if opt["name"] == "level")
    hard = next(c for c in level["choices"] if c["value"] == "hard")
    assert hard["name_localizations"]["es-ES"] == "difícil", hard
    # Where a setting goes: "this channel" or "the whole server", in the member's language (was English).
    for sub in ("rules", "variant", "language", "timer"):
        command = next(o for o in uno["options"] if o["name"] == sub)
        scope = {c["value"]: c for opt in command["options"] if opt["name"] == "scope" for c in opt["choices"]}
        assert scope["channel"]["name_localizations"]["es-ES"] == "este canal", scope
        assert scope["server"]["name_localizations"]["de"] == "der ganze Server", scope
    # The options' own names too ("variante", "segundos"), one word each as Discord takes names;
    # the interaction still carries the English name the bot reads.
    new_variant = next(opt for opt in new["options"] if opt["name"] == "variant")
    assert new_variant["name_localizations"]["es-ES"] == "variante", new_variant
    timer = next(o for o in uno["options"] if o["name"] == "timer")
    names = {opt["name"]: opt.get("name_localizations", {}) for opt in timer["options"]}
    assert names["seconds"]["es-ES"] == "segundos" and names["scope"]["de"] == "bereich", names
    assert names["seconds"]["zh-CN"] == "秒数" and names["seconds"]["hi"] == "सेकंड", names
    forget = next(o for o in uno["options"] if o["name"] == "forgetme")
    assert forget["options"][0]["name_localizations"]["fr"] == "confirmer", forget
    everyone = [loc for o in uno["options"] for opt in o.get("options", []) for loc in
                opt.get("name_localizations", {}).values()]
    assert len(everyone) > 100  # and each one passed the local server's check of Discord's pattern


async def test_deleted_status_is_posted_again_and_leave(server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    ann, bob = server.member("Ann"), server.member("Bob")
    driver = TableDriver(server, bot, guild.channels[0], [ann, bob])
    await driver.slash(ann, "new")
    await driver.press_status(bob, "j")
    await driver.add_ai(ann)
    await driver.press_status(ann, "g")
    first = driver.status_message()
    assert first is not None
    first.deleted = True  # a moderator deletes the status message
    sent = await driver.slash(bob, "leave")
    assert sent.message is not None and sent.message.ephemeral and "Bob" in sent.message.content
    again = driver.status_message()
    assert again is not None and again.id != first.id and not again.ephemeral
    table = await driver.table()
    assert table is not None and table.adapter["status"] == again.id
    assert "Bob" in again.content  # still listed, as out of the game


async def test_a_status_replaced_by_two_processes_at_once_leaves_one(server: DiscordAPIServer,
                                                                    bot: BotProcess) -> None:
    """The status message was deleted and another process already posted and
    recorded its replacement, while this one (its table read before) posts
    one too: its claim loses (core's `claim_status`), so it deletes its own
    and shows the game on the recorded one; the channel keeps one."""
    guild = next(iter(server.guilds.values()))
    ann, bob = server.member("Ann"), server.member("Bob")
    driver = TableDriver(server, bot, guild.channels[0], [ann, bob])
    await driver.slash(ann, "new")
    await driver.press_status(bob, "j")
    stale = await driver.table()
    first = driver.status_message()
    assert stale is not None and first is not None and stale.adapter["status"] == first.id
    first.deleted = True
    client = bot.client
    assert client is not None
    channel = client.get_partial_messageable(driver.channel)
    other = await channel.send("the other process's status")
    assert await bot.service.set_adapter_data(driver.chat, {"status": other.id}, seed=stale.seed) is not None

    await client._send_status(driver.chat, (stale, render.status(stale)))
    shown = [m for m in server.channel_messages(driver.channel) if m.id != first.id]
    assert [m.id for m in shown] == [other.id]
    assert "Bob" in shown[0].content and shown[0].custom_ids()
    table = await driver.table()
    assert table is not None and table.adapter["status"] == other.id


async def test_a_refused_command_registration_is_logged_and_the_bot_runs(
        server: DiscordAPIServer, redis_server: RedisServer, prefix: str, caplog: pytest.LogCaptureFixture) -> None:
    """Discord refuses the commands' registration (a text over a limit, the
    applications.commands scope missing): the bot said it with a traceback
    and never connected; the commands Discord already has went unanswered.
    Now it logs why, and plays on."""
    guild = server.guild()
    server.refuse_commands = True
    bot = await BotProcess(server, redis_server.url, prefix).start()
    try:
        assert "the /uno commands were not registered with Discord" in caplog.text
        ann = server.member("Ann")
        sent = await server.answer(await server.slash(ann, guild.channels[0], "uno", "new"))
        assert sent.message is not None and "Ann" in sent.message.content
    finally:
        await bot.stop()
    server.refusals.clear()


def test_every_languages_option_names_are_names_discord_takes() -> None:
    """Each catalogue's word for an option's name is one Discord takes (else the
    member would see the English name: `option_name` falls back), and the local
    server refuses, as Discord does, a name that is not."""
    from tests.discord_api.server import ApiError, _check_command
    from unobot.adapters.discord.commands import OPTION, option_name
    from unobot.chat.i18n import LANGUAGES, pgettext_for

    keys = ("variant", "scope", "name", "language", "seconds", "period", "count", "level", "player", "confirm")
    for lang in LANGUAGES:
        for key in keys:
            word = pgettext_for(lang)(OPTION, key)
            assert option_name(key, lang) == word, (lang, key, word)
    with pytest.raises(ApiError):
        _check_command({"name": "uno", "description": "x", "options": [
            {"name": "timer", "type": 1, "description": "x", "options": [
                {"name": "seconds", "type": 4, "description": "x", "name_localizations": {"de": "Sekunden"}}]}]})
