"""The bot connects to the local gateway, registers its commands, opens a lobby."""

from __future__ import annotations

from tests.discord.driver import BotProcess, TableDriver
from tests.discord_api import DiscordAPIServer


async def test_lobby(server: DiscordAPIServer, bot: BotProcess) -> None:
    assert [c["name"] for c in server.commands] == ["uno"]
    guild = next(iter(server.guilds.values()))
    ann = server.member("Ann")
    driver = TableDriver(server, bot, guild.channels[0], [ann])
    sent = await driver.slash(ann, "new")
    assert sent.message is not None and not sent.message.ephemeral
    assert "Ann" in sent.message.content
    assert [cid for _, cid in sent.message.custom_ids()] == ["u|join", "u|start", "u|ai"]
