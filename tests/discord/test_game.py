"""Whole games in a channel, played as members play them: slash commands,
buttons on the status message, ephemeral hands, select menus and pickers."""

from __future__ import annotations

import pytest

from tests.discord.driver import ADMIN, BotProcess, TableDriver
from tests.discord_api import DiscordAPIServer, Member
from unobot.chat import commands as c


async def short_games(driver: TableDriver, **extra: str) -> None:
    """Channel settings that keep a test game short (hand size 3, a low target)."""
    out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule="deck", option="hand_size", value=3))
    assert out.ok, out.error
    for rule, value in extra.items():
        option, _, number = value.partition("=")
        out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule=rule, option=option,
                                                                        value=int(number)))
        assert out.ok, out.error


def three(server: DiscordAPIServer) -> list[Member]:
    return [server.member("Ann"), server.member("Bruno", locale="es-ES"), server.member("Cleo", locale="en-GB")]


async def lobby_and_start(driver: TableDriver, variant: str | None = None) -> None:
    ann, bruno, cleo = driver.members
    sent = await driver.slash(ann, "new", variant=variant)
    assert sent.message is not None and not sent.message.ephemeral and "Ann" in sent.message.content
    await driver.press_status(bruno, "u|join")
    await driver.press_status(cleo, "u|join")
    table = await driver.table()
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Bruno", "Cleo"]
    refused = await driver.press_status(bruno, "u|start")  # only the creator starts
    assert refused.message is not None and refused.message.viewer == bruno.id
    assert "Solo quien creó la partida" in refused.message.content  # in his language
    await driver.press_status(ann, "u|start")


@pytest.mark.parametrize(("variant", "target"), [("official", "target=100"), ("reglas-de-uno", "target=0")])
async def test_whole_game(server: DiscordAPIServer, bot: BotProcess, variant: str, target: str) -> None:
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    await short_games(driver, scoring=target)
    await lobby_and_start(driver, variant)
    table = await driver.table()
    assert table is not None and table.variant == variant and table.phase == "playing"
    status = driver.status_message()
    assert status is not None
    status_id = status.id
    stats = await driver.play()
    # One status message for the whole match, edited as it went, ending with the winner.
    shown = server.channel_messages(driver.channel)
    assert [m.id for m in shown] == [status_id]
    assert len(shown[0].versions) > stats.moves // 2
    assert "wins the match" in shown[0].content, shown[0].content
    assert not shown[0].components
    # Every member made real moves through their own hand.
    movers = {s.member.id for s in server.interactions.values()
              if s.payload["type"] == 3 and str(s.payload["data"]["custom_id"]).split("|")[1] in
              ("sel", "p", "d", "dp", "pa", "un", "ch", "ca")}
    assert movers == {m.id for m in driver.members}
    assert {"sel", "dp"} <= set(stats.verbs) or {"sel", "d"} <= set(stats.verbs), stats.verbs
    assert stats.checked > 10
    assert stats.refusals == 0 and stats.pickers >= 1  # a colour (or target) was picked
    # The Spanish member saw their hand in Spanish; the channel reads English.
    bruno = driver.members[1]
    hands = [m for m in server.messages.values() if m.viewer == bruno.id]
    assert hands and any("tu turno" in v[0] or "turno de" in v[0] for m in hands for v in m.versions)
    ann_hands = [m for m in server.messages.values() if m.viewer == driver.members[0].id]
    assert any("your turn" in v[0] or "'s turn" in v[0] for m in ann_hands for v in m.versions)
    # Stats were counted.
    chat_stats = await driver.service.stats("chat", driver.chat)
    assert chat_stats.get("matches") == 1
