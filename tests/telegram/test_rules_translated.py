"""/rules in a Spanish chat: every option of every rule on is explained in
Spanish (through the rule's own catalogue, `Rule.option_help`), for the
shared rules and for house rules, on the real PTB client against the local
Bot API server."""

from __future__ import annotations

import html

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess
from tests.telegram.test_rules import press, rules_message
from unobot.adapters.telegram import keyboards
from unobot.chat.settings_menu import rule_by_key, rule_ref
from unobot.rule import option_specs


async def test_a_spanish_chat_reads_every_option_help_in_spanish(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group(title="Reglas")
    ana = server.user(1, "Ana")
    server.set_status(group, ana, "creator")
    chat = str(group["id"])
    assert bot.service is not None
    await bot.settle(server.send_command(group, ana, "/rules"))
    await press(server, bot, group, ana, keyboards.LANGUAGE + "es")
    checked: set[str] = set()
    for variant in ("official", "crazy"):  # the shared rules, then most house rules
        await press(server, bot, group, ana, keyboards.VARIANT + variant)
        settings = await bot.service.settings(chat)
        assert settings["lang"] == "es" and settings["variant"] == variant
        shown = rules_message(server, group)
        data = [b["callback_data"] for b in server.buttons(group, shown["message_id"])]
        with_options = [d for d in data if d.startswith(keyboards.OPTIONS)]
        assert len(with_options) >= 5
        for button in with_options:
            cls = rule_by_key(button[len(keyboards.OPTIONS):])
            assert cls is not None
            await press(server, bot, group, ana, button)
            text = html.unescape(rules_message(server, group)["text"])
            assert "Opciones de" in text, text
            for spec in option_specs(cls):
                spanish = cls.option_help(spec.name, "es")
                assert spanish and spanish != spec.help, f"{cls.name}.{spec.name} has no Spanish help"
                assert spanish in text and spec.help not in text, (cls.name, spec.name, text)
                # Named by its Spanish title, never by its id (nobody types one in a chat).
                assert cls.option_title(spec.name, "es") in text, (cls.name, spec.name, text)
                assert spec.name not in text or "_" not in spec.name and spec.name in cls.option_title(
                    spec.name, "es"), (cls.name, spec.name, text)
                checked.add(f"{cls.name}.{spec.name}")
            await press(server, bot, group, ana, keyboards.BACK)
    # every rule of unobot's own with options was seen on at least one of the two variants
    assert {"value-stacking.optional", "mercy.limit", "double-score.factor", "scoring.target",
            "seven-o.mandatory", "deck.hand_size"} <= checked


async def test_a_stopped_match_shows_the_rules_report_in_spanish(server: BotAPIServer, bot: BotProcess) -> None:
    """A plugin's `match_end` report (the example plugin's match-report)
    reaches the group's status message when an admin stops the match."""
    group = server.group(title="Informe")
    ana, ben = server.user(1, "Ana"), server.user(2, "Ben")
    server.set_status(group, ana, "creator")
    chat = str(group["id"])
    assert bot.service is not None
    await bot.settle(server.send_command(group, ana, "/rules"))
    await press(server, bot, group, ana, keyboards.LANGUAGE + "es")
    await press(server, bot, group, ana, keyboards.RULE_ON + rule_ref("match-report"))
    assert "match-report" in (await bot.service.settings(chat))["rules"]
    await bot.settle(server.send_command(group, ana, "/new"))
    await bot.settle(server.send_command(group, ben, "/join"))
    await bot.settle(server.send_command(group, ana, "/start"))
    table = await bot.service.table(chat)
    assert table is not None and table.phase == "playing"
    status_id = table.adapter["status"]
    await bot.settle(server.send_command(group, ana, "/stop"))
    text = html.unescape(server.messages[group["id"]][status_id]["text"])
    assert "Resumen: la partida se detuvo; Ana iba primero con 0 puntos." in text, text
    assert "La partida duró 0 manos." in text
