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
            assert "_" not in spec.name or spec.name not in text, (name, spec.name, text)  # never its id
            shown += 1
    assert shown >= 8


async def test_the_rules_selects_show_titles_in_the_channels_language_never_ids(
        server: DiscordAPIServer, bot: BotProcess) -> None:
    """An admin's selects of rules and options: each entry by its title, its
    description what it is (a rule's options, an option's help), in Spanish;
    no rule or option id beside them (nobody types one here)."""
    guild = next(iter(server.guilds.values()))
    jefa = server.member("Jefa", manage_guild=True, locale="es-ES")
    one = TableDriver(server, bot, guild.channels[0], [jefa])
    await one.slash(jefa, "language", language="es")
    await one.slash(jefa, "variant", name="party")
    shown = await one.slash(jefa, "rules")
    assert shown.message is not None and shown.message.components
    options = [opt for row in shown.message.components for comp in row.get("components", [])
               if comp.get("type") == 3 for opt in comp.get("options", [])]
    assert options
    ids = {name for name in available_rules()} | {spec.name for cls in available_rules().values()
                                                  for spec in option_specs(cls) if "_" in spec.name}
    for opt in options:
        shown_words = f"{opt['label']} | {opt.get('description') or ''}"
        assert not any(word.strip("✅⬜ ") in ids for word in shown_words.split(" | ")), shown_words
    described = [opt.get("description") for opt in options]
    effects, deflect = available_rules()["card-effects"], available_rules()["deflect"]
    assert effects.option_help("two_player_reverse_skips", "es") in described, described
    # A switch with options: described by their titles.
    assert ", ".join(deflect.option_title(s.name, "es") for s in option_specs(deflect)) in described, described
