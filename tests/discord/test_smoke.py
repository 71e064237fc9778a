"""The bot connects to the local gateway, registers its commands, opens a lobby."""

from __future__ import annotations

from tests.discord.driver import BotProcess, TableDriver, action_of
from tests.discord_api import DiscordAPIServer


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
