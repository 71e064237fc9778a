"""/uno rules in a Spanish channel, read by a Spanish member: the options of the rules on, each with
its help in Spanish (through the rule's own catalogue), on the real
discord.py client against the local Discord API server."""

from __future__ import annotations

from tests.discord.driver import BotProcess, TableDriver
from tests.discord_api import DiscordAPIServer
from unobot.registry import available_rules
from unobot.rule import option_specs
from unobot.variants import resolve


async def test_a_spanish_channel_reads_option_help_in_spanish(server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    boss = server.member("Boss", manage_guild=True)
    ann = server.member("Ana", locale="es-ES")  # a private answer speaks the member's language
    one = TableDriver(server, bot, guild.channels[0], [boss, ann])
    await one.slash(boss, "language", language="es")
    await one.slash(boss, "variant", name="party")
    seen = await one.slash(ann, "rules")
    assert seen.message is not None
    text = seen.message.content
    assert "Opciones" in text, text
    settings = await one.service.settings(one.chat)
    assert settings["variant"] == "party"
    rules = available_rules()
    shown = 0
    for name in resolve(settings["variant"], settings.get("rules") or None).rules:
        cls = rules[name]
        for spec in option_specs(cls):
            spanish = cls.option_help(spec.name, "es")
            assert spanish in text and spec.help not in text, (name, spec.name, text)
            shown += 1
    assert shown >= 8
