"""Private notices speak the player's own language, as their hand does (issue 15)."""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.telegram.driver import JSON, BotProcess, TableDriver
from tests.telegram.test_game import short_games
from unobot.adapters.telegram import inline_results, keyboards
from unobot.cards import parse_card
from unobot.chat.i18n import gettext_for
from unobot.chat.table import Table


async def test_a_spanish_player_is_told_their_draw_in_spanish(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group(title="English chat")
    ann = server.user(1, "Ann")
    bob = server.user(2, "Bob", language_code="es")
    driver = TableDriver(server, bot, group, [ann, bob], check_privacy=False)
    await short_games(bot, driver.chat)
    await bot.settle(server.send_command(server.private_chat(bob), bob, "/start"))  # Bob may be written to
    await driver.command(ann, "/new")
    await driver.press(bob, keyboards.JOIN)
    await driver.press(ann, keyboards.START)
    for _ in range(6):  # until Bob is on turn (the first player may be skipped)
        table = await driver.table()
        assert table is not None and table.game is not None
        on_turn = ann if table.seats[table.game.turn].id == str(ann["id"]) else bob
        results = await driver.hand(on_turn)
        if on_turn is bob:
            draw = next(r["id"] for r in results if (ch := inline_results.decode(r["id"])) and ch.code == "d")
            mark = server.mark()
            await driver.choose(bob, draw)
            notice = await server.wait_for("sendMessage", lambda p: p.get("chat_id") == bob["id"], after=mark)
            assert notice.params["text"].startswith("Robaste") or "robaste" in notice.params["text"].lower(), \
                notice.params["text"]
            return
        pick = driver.pick(results)
        assert pick is not None
        await driver.choose(ann, pick)
    raise AssertionError("Bob never came on turn")


async def rig_draw_two(bot: BotProcess, chat: str, user: JSON) -> None:
    """Set the game in the store so `user` is on turn holding a red Draw Two, red in force."""
    assert bot.service is not None

    def rig(table: Table) -> list[str]:
        game, seat = table.game, table.seat_of(str(user["id"]))
        assert game is not None and seat is not None
        game.turn, game.color, game.pending, game.drawn = seat, "R", 0, None
        game.hands[seat][0] = parse_card("R+2")
        return []

    assert await bot.service.mutate(chat, rig) is not None


def code_of(result: JSON) -> str:
    choice = inline_results.decode(result["id"])
    return choice.code if choice is not None else ""


async def last_draws_marked(driver: TableDriver, user: JSON) -> dict[str, str]:
    """The cards the user's hand marks as their last draw: card -> the result's description."""
    return {code_of(r)[1:]: r["description"] for r in await driver.hand(user) if "🆕" in str(r.get("description"))}


async def ann_and_bob_playing(server: BotAPIServer, bot: BotProcess) -> tuple[TableDriver, JSON, JSON]:
    """Ann (English) and Bob (Spanish) in a started game of an English chat,
    Bob seated with the lobby's button."""
    group = server.group(title="English chat")
    ann = server.user(1, "Ann")
    bob = server.user(2, "Bob", language_code="es")
    driver = TableDriver(server, bot, group, [ann, bob], check_privacy=False)
    await short_games(bot, driver.chat)
    await driver.command(ann, "/new")
    await driver.press(bob, keyboards.JOIN)
    await driver.press(ann, keyboards.START)
    return driver, ann, bob


async def test_the_hand_marks_a_penalty_taken_and_a_card_drawn(server: BotAPIServer, bot: BotProcess) -> None:
    """Bob (Spanish) takes a +2: his hand, whenever he opens it, marks both cards
    as his last draw, in Spanish; Ann (English) draws a card: hers is marked in English."""
    driver, ann, bob = await ann_and_bob_playing(server, bot)
    await rig_draw_two(bot, driver.chat, ann)
    results = await driver.hand(ann)
    assert not [r for r in results if "🆕" in str(r.get("description"))]  # nothing drawn yet
    await driver.choose(ann, next(r["id"] for r in results if code_of(r) == "pR+2"))
    table = await driver.table()
    assert table is not None and table.game is not None
    taken = [card.text for card in table.drawn_last[1]]
    assert len(taken) == 2
    marked = await last_draws_marked(driver, bob)
    assert sorted(marked) == sorted(set(taken)), marked
    assert all(d.endswith("🆕 lo último que robaste") or "🆕 lo último que robaste (×" in d for d in marked.values())
    # Ann (on turn again: the +2 skipped Bob) draws of her own will.
    results = await driver.hand(ann)
    await driver.choose(ann, next(r["id"] for r in results if code_of(r) == "d"))
    table = await driver.table()
    assert table is not None and table.game is not None
    drawn = [card.text for card in table.drawn_last[0]]
    assert len(drawn) == 1
    marked = await last_draws_marked(driver, ann)
    assert list(marked) == drawn and "🆕 your last draw" in marked[drawn[0]], marked
    # Bob's two are still his last draw.
    assert set(await last_draws_marked(driver, bob)) == set(taken)


async def test_a_player_who_never_opened_the_hand_is_told_a_penalty_in_their_language(
        server: BotAPIServer, bot: BotProcess) -> None:
    """Bob (Spanish) joined with a button and never opened his hand: the +2
    he takes is still told to him in Spanish (every update teaches the bot
    its sender's language, not only an inline query)."""
    driver, ann, bob = await ann_and_bob_playing(server, bot)
    await bot.settle(server.send_command(server.private_chat(bob), bob, "/start"))  # Bob may be written to
    await rig_draw_two(bot, driver.chat, ann)
    results = await driver.hand(ann)
    mark = server.mark()
    await driver.choose(ann, next(r["id"] for r in results if code_of(r) == "pR+2"))
    notice = await server.wait_for("sendMessage", lambda p: p.get("chat_id") == bob["id"], after=mark)
    text = notice.params["text"]
    assert "robaste" in text.lower() or "roba" in text.lower(), text
    assert "drew" not in text.lower() and "draw" not in text.lower(), text


async def test_a_private_chat_speaks_its_persons_language_until_it_sets_one(
        server: BotAPIServer, bot: BotProcess) -> None:
    """A private chat with the bot is one person: it reads their app's language
    (issue 26) until /language says otherwise. Before, only /start was in it:
    /new opened a game "Waiting for players: Ben" and /forgetme asked
    "send the command again followed by “yes”" in English to a Spanish user."""
    es = gettext_for("es")
    ben = server.user(2, "Ben", language_code="es-ES")
    chat = server.private_chat(ben)

    async def said(command: str, args: str = "") -> str:
        mark = server.mark()
        await bot.settle(server.send_command(chat, ben, command, args))
        sent = [c for c in server.calls[mark:] if c.method in ("sendMessage", "editMessageText")]
        assert sent, f"{command}: no answer"
        return str(sent[-1].params["text"])

    asked = await said("/forgetme")
    assert "«sí»" in asked and "yes" not in asked, asked
    assert await said("/forgetme", "sí") == es("Your records are removed, and your name is gone from the kept games.")
    lobby = await said("/new")
    assert es("Official rules") in lobby and "Waiting for players" not in lobby, lobby
    await said("/stop")
    # The chat's own choice wins over the app's.
    await said("/language", "de")
    lobby = await said("/new")
    assert gettext_for("de")("Official rules") in lobby and es("Official rules") not in lobby, lobby


async def test_notify_speaks_each_subscribers_own_language(server: BotAPIServer, bot: BotProcess) -> None:
    """/notify's private texts (the confirmation, and "a game just opened")
    are in the subscriber's app language, not the group's (issue 26): the
    notice comes when they may sit in no game, so the language is kept with
    the subscription. Before, a Spanish member of an English group read both
    in English."""
    es = gettext_for("es")
    group = server.group(title="English chat")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben", language_code="es")
    driver = TableDriver(server, bot, group, [ann, ben], check_privacy=False)
    await bot.settle(server.send_command(server.private_chat(ben), ben, "/start"))
    mark = server.mark()
    await driver.command(ben, "/notify")
    private = [c.params["text"] for c in server.calls[mark:] if c.method == "sendMessage" and c.params["chat_id"] == ben["id"]]
    assert private == [es("I will tell you when the next game opens in {chat}.").format(chat="English chat")], private
    mark = server.mark()
    await driver.command(ann, "/new")
    private = [c.params["text"] for c in server.calls[mark:] if c.method == "sendMessage" and c.params["chat_id"] == ben["id"]]
    assert private == [es("A game of {variant} just opened in {chat}. Join it there!").format(
        variant=es("Official rules"), chat="English chat")], private
