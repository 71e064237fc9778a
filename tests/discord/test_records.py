"""Players' records on Discord, end to end through the local gateway: a whole
match, then /uno top, me, last, forgetme and reset, each answered to the
member alone in their client's language (English and Spanish)."""

from __future__ import annotations

from tests.discord.driver import BotProcess, TableDriver
from tests.discord.test_game import lobby_and_start, short_games, three
from tests.discord_api import DiscordAPIServer, Sent


def text(sent: Sent, member_id: int) -> str:
    message = sent.message
    assert message is not None and message.ephemeral and message.viewer == member_id
    return message.content


async def test_records_commands_after_a_whole_match(server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    ann, bruno, cleo = three(server)
    boss = server.member("Boss", manage_guild=True)
    driver = TableDriver(server, bot, guild.channels[0], [ann, bruno, cleo])
    registered = {o["name"] for o in server.commands[0]["options"]}
    assert {"top", "me", "last", "forgetme", "reset"} <= registered
    assert "No finished match is kept here." in text(await driver.slash(ann, "last"), ann.id)
    await short_games(driver, scoring="target=0")
    await lobby_and_start(driver)
    await driver.play()
    kept = await bot.service.store.archived(driver.chat, 5)
    assert len(kept) == 1
    winner = kept[0]["players"][kept[0]["winner"]]["name"]

    top = text(await driver.slash(ann, "top"), ann.id)
    assert top.startswith("**Standings: all time**") and top.count("won of 1") == 3
    assert winner in top.splitlines()[1]
    spanish = text(await driver.slash(bruno, "top", period="week"), bruno.id)
    assert spanish.startswith("**Clasificación: esta semana**") and spanish.count("ganadas de 1") == 3
    me = text(await driver.slash(bruno, "me"), bruno.id)
    assert "Bruno" in me and "Este chat" in me
    last = text(await driver.slash(cleo, "last"), cleo.id)
    assert f"{winner} won after" in last
    assert "ganó tras" in text(await driver.slash(bruno, "last"), bruno.id)

    # Not an admin: refused, nothing changes; forgetme removes only the member.
    assert "Solo un administrador" in text(await driver.slash(bruno, "reset"), bruno.id)
    assert "borrados" in text(await driver.slash(bruno, "forgetme"), bruno.id)
    after = text(await driver.slash(ann, "top"), ann.id)
    assert "Bruno" not in after and after.count("won of 1") == 2
    assert "Bruno" not in text(await driver.slash(ann, "last"), ann.id)
    assert "reset" in text(await driver.slash(boss, "reset"), boss.id)
    assert "No finished match is counted here yet." in text(await driver.slash(ann, "top"), ann.id)
    shown = [m.content for m in server.channel_messages(driver.channel)]
    assert not [t for t in shown if "Standings" in t or "record" in t]  # nothing said in the channel
