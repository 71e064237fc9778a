"""Players' records on Discord, end to end through the local gateway: a whole
match, then /uno top, me, last, forgetme and reset, each answered to the
member alone in their client's language (English and Spanish)."""

from __future__ import annotations

from tests.discord.driver import ADMIN, BotProcess, TableDriver
from tests.discord.test_game import lobby_and_start, short_games, three
from tests.discord_api import DiscordAPIServer, Sent
from tests.support.redis_server import RedisServer
from unobot.chat import commands as c
from unobot.chat.table import BETWEEN_ROUNDS
from unobot.store import Standing


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
    assert spanish.startswith("**Clasificación: esta semana**") and spanish.count("de 1, puntos") == 3 \
        and "1 ganadas" not in spanish  # a label, then its count: no "1 ganadas", "1 puntos"
    me = text(await driver.slash(bruno, "me"), bruno.id)
    assert me.startswith("**Historial de Bruno**") and "Aquí: victorias " in me and "de 1, puntos" in me, me
    mine = text(await driver.slash(ann, "me"), ann.id)
    assert mine.startswith("**Ann's record**") and "Here: " in mine and "won of 1" in mine, mine
    last = text(await driver.slash(cleo, "last"), cleo.id)
    assert f"{winner} won after" in last
    assert "wins the match" in last
    # Bruno reads it in Spanish, its last moments too (not the chat's English of that day).
    spanish_last = text(await driver.slash(bruno, "last"), bruno.id)
    assert "ganó tras" in spanish_last and "gana la partida" in spanish_last, spanish_last
    assert "wins" not in spanish_last and "played" not in spanish_last, spanish_last

    # Not an admin: refused, nothing changes; forgetme removes only the member.
    assert "Solo un administrador" in text(await driver.slash(bruno, "reset"), bruno.id)
    assert "No se puede deshacer" in text(await driver.slash(bruno, "forgetme"), bruno.id)  # asked first
    assert "Bruno" in text(await driver.slash(ann, "top"), ann.id)
    assert "borrados" in text(await driver.slash(bruno, "forgetme", confirm="yes"), bruno.id)
    after = text(await driver.slash(ann, "top"), ann.id)
    assert "Bruno" not in after and after.count("won of 1") == 2
    assert "Bruno" not in text(await driver.slash(ann, "last"), ann.id)
    assert "Todavía no has terminado ninguna partida." in text(await driver.slash(bruno, "me"), bruno.id)
    # The same in English: Cleo's lines go, Ann's stay.
    gone = text(await driver.slash(cleo, "forgetme", confirm="yes"), cleo.id)
    assert gone == "Your records are removed, and your name is gone from the kept games.", gone
    assert "You have not finished a match yet." in text(await driver.slash(cleo, "me"), cleo.id)
    after = text(await driver.slash(ann, "top"), ann.id)
    assert "Cleo" not in after and after.count("won of 1") == 1 and "Ann" in after
    assert "cannot be undone" in text(await driver.slash(boss, "reset"), boss.id)
    assert "reset" in text(await driver.slash(boss, "reset", confirm="yes"), boss.id)
    assert "No finished match is counted here yet." in text(await driver.slash(ann, "top"), ann.id)
    shown = [m.content for m in server.channel_messages(driver.channel)]
    assert not [t for t in shown if "Standings" in t or "record" in t]  # nothing said in the channel


async def test_a_match_stopped_after_a_round_is_the_last_match_with_no_winner(
        server: DiscordAPIServer, bot: BotProcess) -> None:
    """/uno stop after a finished round: /uno last tells the stopped match,
    each member in their language, and /uno top counts it with nobody's win."""
    guild = next(iter(server.guilds.values()))
    ann, bruno, cleo = three(server)
    driver = TableDriver(server, bot, guild.channels[0], [ann, bruno, cleo])
    await short_games(driver, scoring="target=5000")
    await lobby_and_start(driver)
    for _ in range(400):
        table = await driver.table()
        assert table is not None
        if table.phase == BETWEEN_ROUNDS:
            break
        assert table.game is not None
        member = driver.member_of(table.seats[table.game.turn].id)
        assert member is not None
        await driver.turn(member)
    else:
        raise AssertionError("the first round did not end")
    await driver.slash(ann, "stop")
    assert await driver.table() is None
    last = text(await driver.slash(cleo, "last"), cleo.id)
    assert "The match was stopped with no winner (rounds played: 1)." in last and "won after" not in last, last
    spanish = text(await driver.slash(bruno, "last"), bruno.id)
    assert "La partida se detuvo sin ganador (rondas jugadas: 1)." in spanish, spanish
    assert text(await driver.slash(ann, "top"), ann.id).count("0 won of 1") == 3


async def test_a_stopped_match_s_status_says_all_the_stop_said(server: DiscordAPIServer, bot: BotProcess) -> None:
    """/uno stop: the status message says who stopped the game and then what
    the rules report at the match's end (the example plugin's match-report),
    every line, as Telegram's does (it used to keep only the first)."""
    guild = next(iter(server.guilds.values()))
    ann, bruno, cleo = three(server)
    driver = TableDriver(server, bot, guild.channels[0], [ann, bruno, cleo])
    out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule="match-report", enabled=True))
    assert out.ok, out.error
    await lobby_and_start(driver)
    table = await driver.table()
    assert table is not None and table.phase == "playing"
    status_id = int(table.adapter["status"])
    stopped = await driver.slash(ann, "stop")
    assert stopped.message is not None
    notices = stopped.message.content.splitlines()
    assert len(notices) > 1 and notices[0] == "The game was stopped by Ann.", notices
    status = next(m for m in server.channel_messages(driver.channel) if m.id == status_id)
    assert all(n in status.content for n in notices) and not status.components, status.content


async def test_a_removal_not_confirmed_names_the_confirm_option(server: DiscordAPIServer, bot: BotProcess) -> None:
    """/uno forgetme and /uno reset without `confirm` ask first, and say how to
    confirm as Discord does it: the command again with its `confirm` option
    set to "yes", both named as the member's client shows them ("confirmar:
    sí": the option's name is localized too). They said
    Telegram's "send the command again followed by “yes”", which no Discord
    member can do: a slash command takes no word after it."""
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], [])
    ali, ann = server.member("Ali", locale="ar"), server.member("Ann")
    boss = server.member("Boss", manage_guild=True, locale="es-ES")
    asked = text(await driver.slash(ann, "forgetme"), ann.id)
    assert asked.endswith("To do it, run the command again with confirm: yes."), asked
    assert "followed by" not in asked
    arabic = text(await driver.slash(ali, "forgetme"), ali.id)
    assert arabic.endswith("لتنفيذ ذلك، شغّل الأمر مرة أخرى مع تأكيد: نعم."), arabic
    spanish = text(await driver.slash(boss, "reset"), boss.id)
    assert spanish.endswith("Para hacerlo, ejecuta el comando otra vez con confirmar: sí."), spanish
    # The words shown are the option's and the choice's names in that client: the same catalogue entries.
    option = next(o for o in server.commands[0]["options"] if o["name"] == "forgetme")["options"][0]
    assert option["name"] == "confirm" and option["name_localizations"].get("es-ES") == "confirmar", option
    choice = option["choices"][0]
    assert choice["value"] == "yes" and choice["name_localizations"].get("es-ES") == "sí", choice
    assert "borrados" in text(await driver.slash(boss, "forgetme", confirm="yes"), boss.id)


async def test_me_names_other_places_as_their_members_know_them(server: DiscordAPIServer,
                                                                 redis_server: RedisServer, prefix: str) -> None:
    """`/uno me` listed another channel as "Elsewhere (dc_1234_5678)": now by its name and its
    server's, as the bot last saw them; a place it never saw by what kind of place it is, in
    the member's language, never by an id."""
    home, night = server.guild(), server.guild("Game night")
    bot = await BotProcess(server, redis_server.url, prefix).start()
    try:
        ann, bruno = server.member("Ann"), server.member("Bruno", locale="es-ES")
        there = TableDriver(server, bot, night.channels[0], [ann, bruno])
        here = TableDriver(server, bot, home.channels[0], [ann, bruno])
        await there.slash(ann, "top")  # the bot sees the channel: its name is kept
        await bot.idle()
        store = bot.service.store
        telegram = "-100555"  # a Telegram group this bot never saw
        for chat in (there.chat, telegram):
            for member in (ann, bruno):
                standing = Standing("all", None, str(member.id), member.name, wins=1, games=1, points=7)
                assert await store.archive_game(chat, f"{chat}#{member.id}", {"players": []}, [standing])
        mine = text(await here.slash(ann, "me"), ann.id)
        channel = f"#uno-{night.channels[0] % 1000} · Game night"
        assert f"{channel}: 1 won of 1" in mine and "A Telegram chat: 1 won of 1" in mine, mine
        assert telegram not in mine and there.chat not in mine and "Elsewhere" not in mine, mine
        spanish = text(await here.slash(bruno, "me"), bruno.id)
        assert f"{channel}: victorias 1 de 1" in spanish and "Un chat de Telegram: victorias 1" in spanish, spanish
    finally:
        await bot.stop()
