"""Players' records on Telegram, end to end through the local Bot API server:
a whole match, then /top, /me, /last, /forgetme and /resetstats, in English
and in Spanish (the chat's language)."""

from __future__ import annotations

import pytest

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess
from tests.telegram.test_game import lobby_and_start, open_table, short_games
from unobot.chat.audit import audit_archived
from unobot.chat.table import BETWEEN_ROUNDS
from unobot.store import Standing


async def said(server: BotAPIServer, bot: BotProcess, group: dict[str, object], user: dict[str, object],
               command: str, args: str = "") -> str:
    update = server.send_command(group, user, command, args)
    await bot.settle(update)
    return str((await server.wait_answer(update, "sendMessage")).params["text"])


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_records_commands_after_a_whole_match(server: BotAPIServer, bot: BotProcess, lang: str) -> None:
    driver = await open_table(server, bot)
    group = driver.group
    alice, bob, carol = driver.players
    server.set_status(group, alice, "administrator")
    await short_games(bot, driver.chat, scoring="target=0")
    if lang == "es":
        assert "Idioma" in await said(server, bot, group, alice, "/language", "es")
    nothing = {"en": "No finished match is kept here.", "es": "Aquí no se guarda ninguna partida terminada."}
    assert nothing[lang] in await said(server, bot, group, bob, "/last")  # nothing kept yet
    await lobby_and_start(driver)
    await driver.play()
    summary = await bot.service.store.archived(driver.chat, 5)  # type: ignore[union-attr]
    assert len(summary) == 1
    winner = summary[0]["players"][summary[0]["winner"]]["name"]

    top = await said(server, bot, group, bob, "/top")
    words = {"en": ("Standings: all time", "won of 1"), "es": ("Clasificación: de siempre", "de 1, puntos")}[lang]
    assert words[0] in top and top.count(words[1]) == 3 and winner in top.splitlines()[1], top
    week = await said(server, bot, group, bob, "/top", "semana" if lang == "es" else "week")
    assert ("esta semana" if lang == "es" else "this week") in week and "Alice" in week
    bad = await said(server, bot, group, bob, "/top", "decade")
    assert ("/top week" if lang == "en" else "/top semana") in bad
    me = await said(server, bot, group, carol, "/me")
    assert ("Carol" in me) and ("Here" if lang == "en" else "Aquí") in me
    last = await said(server, bot, group, carol, "/last")
    # a match of one round (target 0) says "1 round", "1 ronda": a plural form, not "1 rounds"
    assert winner in last and ("won after 1 round (moves:" if lang == "en" else "ganó tras 1 ronda (jugadas:") in last, last

    # Not an admin: refused, nothing changes. An admin: the standings go.
    refused = await said(server, bot, group, bob, "/resetstats")
    assert ("Only an admin" if lang == "en" else "Solo un administrador") in refused
    assert "Bob" in await said(server, bot, group, bob, "/top")
    # Asked first (a tap in the command menu must not erase anything), then done with "yes".
    asked = await said(server, bot, group, bob, "/forgetme")
    assert ("cannot be undone" if lang == "en" else "No se puede deshacer") in asked
    assert "Bob" in await said(server, bot, group, bob, "/top")
    gone = await said(server, bot, group, bob, "/forgetme", "yes" if lang == "en" else "sí")
    assert ("removed" if lang == "en" else "borrados") in gone
    nothing_yet = {"en": "You have not finished a match yet.", "es": "Todavía no has terminado ninguna partida."}
    assert nothing_yet[lang] in await said(server, bot, group, bob, "/me")
    after = await said(server, bot, group, alice, "/top")
    assert "Bob" not in after and "Alice" in after
    assert "Bob" not in await said(server, bot, group, alice, "/last")
    # The kept game still replays to the game it ended as (what `unobot audit` checks), with Bob's id gone.
    kept = (await bot.service.store.archived(driver.chat, 5))[0]  # type: ignore[union-attr]
    assert (await audit_archived(kept)).ok, await audit_archived(kept)
    words = {w for entry in kept["log"] if not entry.startswith("deal ") for w in entry.split()}
    assert str(bob["id"]) not in {*kept["state"]["p"], *words} and "Bob" not in repr(kept)
    assert ("cannot be undone" if lang == "en" else "No se puede deshacer") in await said(
        server, bot, group, alice, "/resetstats")
    assert "Alice" in await said(server, bot, group, alice, "/top")
    assert ("reset" if lang == "en" else "reiniciada") in await said(server, bot, group, alice, "/resetstats", "yes")
    assert "Alice" not in await said(server, bot, group, alice, "/top")


async def test_a_match_stopped_after_a_round_is_the_last_match_with_no_winner(
        server: BotAPIServer, bot: BotProcess) -> None:
    """/stop after a finished round: the rounds played are real, so /last
    tells the stopped match (no winner) and /top counts it, nobody's win."""
    driver = await open_table(server, bot)
    group = driver.group
    alice, bob, _carol = driver.players
    await short_games(bot, driver.chat, scoring="target=5000")
    await lobby_and_start(driver)
    for _ in range(400):
        table = await driver.table()
        assert table is not None
        if table.phase == BETWEEN_ROUNDS:
            break
        assert await driver.step()
    else:
        raise AssertionError("the first round did not end")
    await bot.settle(server.send_command(group, alice, "/stop"))
    last = await said(server, bot, group, bob, "/last")
    assert "The match was stopped with no winner (rounds played: 1)." in last and "won after" not in last, last
    top = await said(server, bot, group, bob, "/top")
    assert top.count("0 won of 1") == 3, top


async def test_me_names_other_groups_by_their_titles_never_their_ids(server: BotAPIServer, bot: BotProcess) -> None:
    """`/me` listed another group as "Elsewhere (-1001234567890)": now, asked in the private
    chat with the bot, by its title as the bot last saw it (a title changed since is the new
    one), a group it never saw by what kind of place it is, in the reader's language; a Discord
    channel's name as its bot kept it. Asked in a group, whose members all read the answer,
    the other places are named by kind only: a group's title is not another group's to read."""
    friday, home = server.group(title="Friday UNO"), server.group(title="Home")
    ann = server.user(61, "Ann")
    alone = server.private_chat(ann)
    server.set_status(home, ann, "administrator")
    await said(server, bot, friday, ann, "/top")  # the bot sees the group: its title is kept
    store = bot.service.store
    assert store is not None
    unseen, channel = "-100555", "dc_1_2"
    await bot.service.note_place(channel, "discord", "#uno · Game night")  # as the Discord bot notes it
    for chat in (str(friday["id"]), unseen, channel):
        standing = Standing("all", None, "61", "Ann", wins=1, games=1, points=7)
        assert await store.archive_game(chat, f"{chat}#1", {"players": []}, [standing])
    mine = await said(server, bot, alone, ann, "/me")
    for words in ("Friday UNO: 1 won of 1", "A Telegram chat: 1 won of 1", "#uno · Game night: 1 won of 1"):
        assert words in mine, mine
    assert str(friday["id"]) not in mine and unseen not in mine and channel not in mine, mine
    in_group = await said(server, bot, home, ann, "/me")
    assert "Friday UNO" not in in_group and "Game night" not in in_group, in_group
    assert in_group.count("A Telegram chat: 1 won of 1") == 2 and "A Discord channel: 1 won of 1" in in_group, in_group
    friday["title"] = "Friday UNO night"  # renamed: the next update carries the new title
    await said(server, bot, friday, ann, "/top")
    assert "Idioma" in await said(server, bot, alone, ann, "/language", "es")
    spanish = await said(server, bot, alone, ann, "/me")
    assert "Friday UNO night: victorias 1 de 1" in spanish and "Un chat de Telegram: victorias 1" in spanish, spanish
