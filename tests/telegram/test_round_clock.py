"""A round with a clock (blitz) says how long it has left in the group's
status message (core's line, "⏱ Round ends in 5 minutes"), said again
whenever the status is edited anyway: on the service's clock, a move made
two and a half minutes in shows the time then left. No edit is made for
the clock alone (the clock's only job is the one that ends the round)."""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, bot_messages
from tests.telegram.test_timer import timed_game


async def test_the_status_says_how_long_the_round_has_left(server: BotAPIServer, bot: BotProcess) -> None:
    from unobot.adapters.telegram import inline_results
    from unobot.chat import commands as c

    group = server.group()
    chat = str(group["id"])
    assert bot.service is not None and bot.clock is not None
    out = await bot.service.handle(chat, c.Person("setup", "Setup", None, True), c.SetRule(rule="blitz", enabled=True))
    assert out.ok, out.error
    group, ann, ben = await timed_game(server, bot, 0, group)
    table = await bot.service.table(chat)
    assert table is not None and table.game is not None and table.round_started
    status = await server.wait_for("editMessageText", lambda p: "Round ends" in p.get("text", ""), timeout=5)
    assert "⏱ Round ends in 5 minutes" in status.params["text"], status.params["text"]
    assert "⏱ Round ends in 5 minutes" in bot_messages(server, group)[-1]["text"]
    # Two and a half minutes later the player on turn draws: the edited status tells the time left then.
    mark = server.mark()
    await bot.advance(150)
    mover = ann if table.seats[table.game.turn].id == str(ann["id"]) else ben
    query = server.inline_query(mover, "")
    await bot.settle(query)
    results = server.inline_answers[query["inline_query"]["id"]]["results"]
    codes = {r["id"]: (inline_results.decode(r["id"]) or inline_results.Choice("", 0, "", "")).code for r in results}
    move = next(rid for rid, code in codes.items() if inline_results.is_move(code))
    message, chosen = server.pick_inline_result(group, mover, move)
    assert chosen is not None
    await bot.settle(chosen)
    edit = await server.wait_for("editMessageText", lambda p: "Round ends" in p.get("text", ""),
                                 timeout=5, after=mark)
    assert "⏱ Round ends in 3 minutes" in edit.params["text"], edit.params["text"]


async def test_the_lobby_says_rounds_are_timed_before_the_deal(server: BotAPIServer, bot: BotProcess) -> None:
    """A lobby opened before an admin turns blitz on from /rules says, once it is on, that
    each round lasts 5 minutes (and in the chat's language, with its plural form): a
    player joining a blitz table is told rounds are timed before the deal, not when the
    first round's clock already runs."""
    from tests.telegram.driver import TableDriver
    from unobot.adapters.telegram import keyboards
    from unobot.chat import commands as c
    from unobot.chat.settings_menu import rule_ref

    group = server.group(title="Blitz night")
    ana, beto = server.user(301, "Ana", "ana", language_code="ru"), server.user(302, "Beto", "beto")
    server.set_status(group, ana, "creator")
    driver = TableDriver(server, bot, group, [ana, beto], seed=3)
    assert bot.service is not None
    await driver.command(ana, "/new")
    lobby = driver.message_with(keyboards.START)
    assert lobby is not None and "⏱" not in lobby["text"], lobby["text"]
    await driver.command(ana, "/rules")
    mark = server.mark()
    await driver.press(ana, keyboards.RULE_ON + rule_ref("blitz"))
    status = await server.wait_for("editMessageText", lambda p: "Each round lasts" in p.get("text", ""),
                                   timeout=5, after=mark)
    assert "⏱ Each round lasts 5 minutes" in status.params["text"], status.params["text"]
    out = await bot.service.handle(driver.chat, c.Person("setup", "Setup", None, True), c.SetLanguage(lang="ru"))
    assert out.ok, out.error
    await driver.command(beto, "/join")
    shown = driver.message_with(keyboards.START)
    assert shown is not None and "⏱ Каждый раунд длится 5 минут" in shown["text"], shown["text"]
