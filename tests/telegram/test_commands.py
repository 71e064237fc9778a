"""Commands around the game: menus, welcome, stop and kick rights, stats, notify, AI seats, outages."""

from __future__ import annotations

import asyncio

import pytest

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.driver import BotProcess, TableDriver, bot_messages
from tests.telegram.test_game import short_games
from unobot.adapters.telegram import inline_results, keyboards
from unobot.adapters.telegram.texts import COMMANDS
from unobot.chat import actions
from unobot.chat.i18n import gettext_for
from unobot.chat.render import error_text
from unobot.chat.table import Table


async def test_command_menu_in_english_and_spanish(server: BotAPIServer, bot: BotProcess) -> None:
    english = server.my_commands()
    spanish = server.my_commands(language_code="es")
    names = [c["command"] for c in english]
    for name in ("new", "join", "leave", "start", "stop", "kick", "skip", "rules", "variant", "language",
                 "ai", "stats", "notify", "help", "timer"):
        assert name in names
    assert [c["command"] for c in spanish] == names
    assert len(spanish) == len(english)
    # The Spanish menu speaks Spanish: every description translated, none left in English.
    _ = gettext_for("es")
    assert [c["description"] for c in spanish] == [_(d) for _n, d in COMMANDS]
    assert all(s["description"] != e["description"] for s, e in zip(spanish, english, strict=True))


async def test_the_language_command_offers_every_language(server: BotAPIServer, bot: BotProcess) -> None:
    """A Russian group's admin is told how to pick any of the languages the
    bot speaks. Before, the menu said "Language: en or es" in every language
    and /language alone answered "change it with /language en or /language
    es", so Russian, German, Arabic ... looked unavailable."""
    from unobot.adapters.telegram.app import menu_code, menu_languages
    from unobot.chat.i18n import LANGUAGES

    for lang in menu_languages():
        menu = {c["command"]: c["description"]
                for c in server.my_commands(language_code=menu_code(lang) if lang != "en" else "")}
        assert not {"en", "es"} <= set(menu["language"].replace("(", " ").replace(",", " ").split()), (lang, menu)
    group = server.group()
    olga = server.user(7, "Olga", language_code="ru")
    server.set_status(group, olga, "administrator")
    update = server.send_command(group, olga, "/language", "ru")
    await bot.settle(update)
    update = server.send_command(group, olga, "/language")
    await bot.settle(update)
    text = str((await server.wait_answer(update, "sendMessage")).params["text"])
    assert text.startswith("Язык: Русский."), text
    assert all(code in text for code in LANGUAGES), text
    update = server.send_command(group, olga, "/language", "uk")  # one of those it names
    await bot.settle(update)
    assert "Мова: Українська." in str((await server.wait_answer(update, "sendMessage")).params["text"])


async def test_private_start_welcomes_with_add_to_group_link(server: BotAPIServer, bot: BotProcess) -> None:
    eve = server.user(5, "Eve")
    private = server.private_chat(eve)
    update = server.send_command(private, eve, "/start")
    await bot.settle(update)
    call = await server.wait_answer(update, "sendMessage")
    assert "Eve" in call.params["text"]
    url = call.params["reply_markup"]["inline_keyboard"][0][0]["url"]
    assert url == f"https://t.me/{server.bot_username}?startgroup=new"
    update = server.send_command(private, eve, "/start", "help")
    await bot.settle(update)
    assert "/new" in (await server.wait_answer(update, "sendMessage")).params["text"]


async def test_stop_and_kick_need_the_creator_or_an_admin(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group()
    ann, ben, cid, boss = (server.user(1, "Ann"), server.user(2, "Ben"), server.user(3, "Cid"),
                           server.user(4, "Boss"))
    server.set_status(group, boss, "administrator")
    chat = str(group["id"])
    assert bot.service is not None
    await bot.settle(server.send_command(group, ann, "/new"))
    await bot.settle(server.send_command(group, ben, "/join"))
    join = server.send_command(group, cid, "/join")
    await bot.settle(join)

    # Ben (a player, no admin) cannot stop or kick.
    update = server.send_command(group, ben, "/stop")
    await bot.settle(update)
    assert (await server.wait_answer(update, "sendMessage")).params["text"] == error_text("not_allowed_admin", "en")
    update = server.reply_command(group, ben, "/kick", join["message"]["message_id"])
    await bot.settle(update)
    assert (await server.wait_answer(update, "sendMessage")).params["text"] == error_text("not_allowed_admin", "en")

    # The creator kicks Cid by replying to his message; /kick without a reply explains itself.
    update = server.send_command(group, ann, "/kick")
    await bot.settle(update)
    assert "Reply to a message" in (await server.wait_answer(update, "sendMessage")).params["text"]
    await bot.settle(server.reply_command(group, ann, "/kick", join["message"]["message_id"]))
    table = await bot.service.table(chat)
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Ben"]

    # An admin who is not playing stops the game; the status message loses its buttons.
    status_id = table.adapter["status"]
    await bot.settle(server.send_command(group, boss, "/stop"))
    assert await bot.service.table(chat) is None
    stopped = server.messages[group["id"]][status_id]
    assert "stopped by Boss" in stopped["text"] and "reply_markup" not in stopped


async def test_game_against_ai_players(server: BotAPIServer, bot: BotProcess) -> None:
    """AI seats move after a short pause (a JobQueue job), so people can jump in or catch."""
    group = server.group()
    ann = server.user(1, "Ann")
    driver = TableDriver(server, bot, group, [ann], seed=4)
    await short_games(bot, driver.chat, scoring="target=0")
    await driver.command(ann, "/new")
    await driver.press(ann, keyboards.add_ai("normal"))
    await driver.command(ann, "/ai", "1 expert")
    await driver.command(ann, "/ai", "1 genius")  # not a level: said so, nobody added
    assert "AI levels: easy, normal, hard, expert" in driver.bot_messages()[-1]["text"]
    table = await driver.table()
    assert table is not None and len(table.seats) == 3 and table.seats[1].is_ai
    assert [s.level for s in table.seats[1:]] == ["normal", "expert"]
    # The lobby names each AI seat's level, not only the notice of the last one added.
    status = driver.status_message()
    assert status is not None
    assert "Waiting for players: Ann, Ada (AI) · normal, Alan (AI) · expert" in status["text"]
    await driver.press(ann, keyboards.START)
    stats = await driver.play()
    assert "wins the match" in driver.bot_messages()[-1]["text"]
    assert stats.moves >= 1


async def test_the_lobby_offers_what_core_offers_as_discord_does(server: BotAPIServer, bot: BotProcess) -> None:
    """The lobby's buttons are core's public actions (Discord's status
    message shows the same): Join, Start, an AI seat of each level, Leave.
    Before, Telegram drew its own: no Leave, and Add AI only of the default
    level. In Spanish, each level's button adds one of that level, and a
    player leaves with a press."""
    group = server.group()
    ann, ben = server.user(1, "Ann", language_code="es"), server.user(2, "Ben", language_code="es")
    driver = TableDriver(server, bot, group, [ann, ben])
    server.set_status(group, ann, "administrator")
    await driver.command(ann, "/language", "es")
    await driver.command(ann, "/new")
    await driver.press(ben, keyboards.JOIN)
    table = await driver.table()
    assert table is not None
    status = driver.status_message()
    assert status is not None
    shown = [(b["text"], b["callback_data"]) for b in server.buttons(group, status["message_id"])]
    assert shown == expected_buttons(table)
    assert ("🤖 experto", keyboards.add_ai("expert")) in shown and ("🚪 Salir", keyboards.LEAVE) in shown
    await driver.press(ben, keyboards.add_ai("expert"))
    # One AI player's notice agrees with one name ("se unieron" was said of one).
    status = driver.status_message()
    assert status is not None and "Ada (IA) se unió, nivel experto (3 jugadores)." in status["text"], status["text"]
    await driver.press(ann, keyboards.add_ai("easy"))
    table = await driver.table()
    assert table is not None and [s.level for s in table.seats] == [None, None, "expert", "easy"]
    await driver.press(ben, keyboards.LEAVE)
    table = await driver.table()
    assert table is not None and [s.id for s in table.seats if not s.is_ai] == [str(ann["id"])]
    # An older lobby message's plain Add AI still adds one, of the default level.
    press = server.press_button(group, ann, status["message_id"], keyboards.ADD_AI, strict=False)
    await bot.settle(press)
    table = await driver.table()
    assert table is not None and table.seats[-1].level == "normal"
    # A level without a count adds one of it (`/ai experto` was told "say how many").
    await driver.command(ann, "/ai", "experto")
    table = await driver.table()
    assert table is not None and [s.level for s in table.seats[-2:]] == ["normal", "expert"]
    # Each AI seat can be taken out again (a button each, core's Remove an AI player).
    status = driver.status_message()
    assert status is not None
    shown = [(b["text"], b["callback_data"]) for b in server.buttons(group, status["message_id"])]
    assert shown == expected_buttons(table)
    first = table.seats[1]
    assert ("✖ " + first.name, keyboards.remove_ai(first.id)) in shown
    # Only the creator or an admin may: Ben, back in the lobby, is refused and nothing changes.
    await driver.press(ben, keyboards.JOIN)
    before = await driver.table()
    press = server.press_button(group, ben, status["message_id"], keyboards.remove_ai(first.id), strict=False)
    await bot.settle(press)
    after = await driver.table()
    assert after is not None and before is not None and after.version == before.version
    await driver.press(ann, keyboards.remove_ai(first.id))
    table = await driver.table()
    assert table is not None and first.id not in [s.id for s in table.seats]
    assert [s.level for s in table.seats if s.is_ai] == ["easy", "normal", "expert"]


def expected_buttons(table: Table) -> list[tuple[str, str]]:
    """Core's public actions as the lobby's buttons, with their callback data."""
    out = []
    for action in actions.public_actions(table, table.lang):
        for each in action.choices or (action,):
            data = keyboards.add_ai(each.code) if action.kind == actions.ADD_AI else \
                keyboards.remove_ai(each.code) if action.kind == actions.REMOVE_AI else keyboards.PUBLIC_DATA[action.kind]
            out.append((each.label, data))
    return out


async def test_stats_and_notify(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group(title="Friday UNO")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    driver = TableDriver(server, bot, group, [ann, ben], seed=6)
    await short_games(bot, driver.chat, scoring="target=0")

    # Ben wants a private note when a game opens; first he has not started the bot.
    update = server.send_command(group, ben, "/notify")
    await bot.settle(update)
    answer = await server.wait_answer(update, "sendMessage")
    assert "private chat" in answer.params["text"]
    server.private_chat(ben)
    await bot.settle(server.send_command(group, ben, "/notify"))
    mark = server.mark()

    await driver.command(ann, "/new")
    note = await server.wait_for("sendMessage", lambda p: p["chat_id"] == ben["id"] and "opened" in p["text"],
                                 after=mark)
    assert "Friday UNO" in note.params["text"]
    await driver.press(ben, keyboards.JOIN)
    await driver.press(ann, keyboards.START)
    await driver.play()

    update = server.send_command(group, ann, "/stats")
    await bot.settle(update)
    text = (await server.wait_answer(update, "sendMessage")).params["text"]
    assert "1 match finished, 1 round played" in text  # each count in its plural form
    assert "Ann:" in text


async def test_store_outage_says_try_again_and_loses_nothing(server: BotAPIServer, tmp_path: object,
                                                             prefix: str) -> None:
    redis = RedisServer(tmp_path / "outage").start()  # type: ignore[operator]
    bot = await BotProcess(server, redis.url, prefix).start()
    try:
        group = server.group()
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        await bot.settle(server.send_command(group, ann, "/new"))
        lobby = bot_messages(server, group)[-1]
        redis.stop()
        press = server.press_button(group, ben, lobby["message_id"], keyboards.JOIN)
        await bot.settle(press, timeout=20)
        assert (await server.wait_answer(press)).params["text"] == error_text("store_unavailable", "en")
        update = server.send_command(group, ben, "/join")
        await bot.settle(update, timeout=20)
        answer = await server.wait_answer(update, "sendMessage")
        assert answer.params["text"] == error_text("store_unavailable", "en")
        query = server.inline_query(ben, "")
        await bot.settle(query, timeout=20)
        results = server.inline_answers[query["inline_query"]["id"]]["results"]
        assert "Try again shortly" in results[0]["title"]
        redis.start()
        await asyncio.sleep(0.1)
        await bot.settle(server.send_command(group, ben, "/join"))
        assert bot.service is not None
        table = await bot.service.table(str(group["id"]))
        assert table is not None and [s.name for s in table.seats] == ["Ann", "Ben"]
    finally:
        await bot.stop()
        redis.stop()


async def test_a_store_outage_is_said_in_the_chats_language(server: BotAPIServer, tmp_path: object,
                                                            prefix: str) -> None:
    """A German group whose store goes down: the chat's language cannot be read
    from the store, and every answer (a press, a command, /help, an inline
    query) came in English. The service keeps the language it last read; an
    inline query, of no chat, speaks the person's app language."""
    redis = RedisServer(tmp_path / "outage-de").start()  # type: ignore[operator]
    bot = await BotProcess(server, redis.url, prefix).start()
    try:
        group = server.group()
        ann = server.user(1, "Ann", language_code="de")
        ben = server.user(2, "Ben", language_code="de")
        driver = TableDriver(server, bot, group, [ann, ben])
        server.set_status(group, ann, "administrator")
        await driver.command(ann, "/language", "de")
        await driver.command(ann, "/new")
        lobby = bot_messages(server, group)[-1]
        redis.stop()
        outage = error_text("store_unavailable", "de")
        press = server.press_button(group, ben, lobby["message_id"], keyboards.JOIN)
        await bot.settle(press, timeout=20)
        assert (await server.wait_answer(press)).params["text"] == outage
        update = server.send_command(group, ben, "/join")
        await bot.settle(update, timeout=20)
        assert (await server.wait_answer(update, "sendMessage")).params["text"] == outage
        update = server.send_command(group, ben, "/help")
        await bot.settle(update, timeout=20)
        assert "UNO hier" in (await server.wait_answer(update, "sendMessage")).params["text"]
        query = server.inline_query(ben, "")
        await bot.settle(query, timeout=20)
        assert server.inline_answers[query["inline_query"]["id"]]["results"][0]["title"].startswith(
            "Der Spielspeicher ist gerade nicht erreichbar")
    finally:
        await bot.stop()
        redis.stop()


async def test_errors_never_show_a_traceback(server: BotAPIServer, bot: BotProcess,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom: internal detail")

    group = server.group()
    ann = server.user(1, "Ann")
    assert bot.service is not None
    monkeypatch.setattr(bot.service, "language", broken)
    update = server.send_command(group, ann, "/help")
    await bot.settle(update)
    answer = await server.wait_answer(update, "sendMessage")
    assert answer.params["text"] == "Something went wrong. Please try again."
    assert "boom" not in str(server.calls)
    assert bot_messages(server, group)

    # A pick that fails unexpectedly: its message in the group says so.
    monkeypatch.setattr(bot.service, "handle", broken)
    pick = inline_results.encode(str(group["id"]), 1, str(ann["id"]), "d")
    await bot.settle(server.choose_inline_result(ann, pick, inline_message_id="picked-1"))
    edit = await server.wait_for("editMessageText", lambda p: p.get("inline_message_id") == "picked-1", timeout=5)
    assert "Something went wrong" in edit.params["text"] and "boom" not in edit.params["text"]


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_flood_control_is_waited_out(server: BotAPIServer, bot: BotProcess) -> None:
    """Telegram's 429 (retry_after) is honoured: the edit is sent again, nothing is lost."""
    group = server.group()
    ann, ben, cid = server.user(1, "Ann"), server.user(2, "Ben"), server.user(3, "Cid")
    await bot.settle(server.send_command(group, ann, "/new"))
    server.flood_limit(group, 1, retry_after=1)
    first = server.send_command(group, ben, "/join")
    second = server.send_command(group, cid, "/join")
    await bot.settle(first, timeout=15)
    await bot.settle(second, timeout=15)
    server.flood_limit(group, None)
    status = bot_messages(server, group)[-1]
    # The two joins ran at once: either may have been first.
    assert "Ann, Ben, Cid" in status["text"] or "Ann, Cid, Ben" in status["text"]
    edits = [p["text"] for p in server.calls_to("editMessageText") if p.get("chat_id") == group["id"]]
    # One edit met the flood limit and was sent again after retry_after.
    assert len(edits) == 3 and edits[1] == edits[2], edits


async def test_leave_before_and_during_a_game(server: BotAPIServer, bot: BotProcess) -> None:
    from tests.telegram.test_game import lobby_and_start, open_table

    driver = await open_table(server, bot)
    await short_games(bot, driver.chat, scoring="target=0")
    alice, bob, _carol = driver.players
    await driver.command(alice, "/new")
    await driver.command(bob, "/join")
    await driver.command(bob, "/leave")
    table = await driver.table()
    assert table is not None and [s.name for s in table.seats] == ["Alice"]
    await driver.command(alice, "/stop")
    await lobby_and_start(driver)
    mark = server.mark()
    await driver.command(bob, "/leave")  # mid-game: the others play on
    table = await driver.table()
    assert table is not None and table.left == [str(bob["id"])]
    status = await server.wait_for("editMessageText", lambda p: "left the game" in p.get("text", ""),
                                   timeout=5, after=mark)
    assert "Bob left the game." in status.params["text"]
    stats = await driver.play()
    assert stats.moves > 0 and "wins" in driver.bot_messages()[-1]["text"]


async def test_a_setting_changed_beside_a_lobby_says_the_lobby_plays_it(server: BotAPIServer, bot: BotProcess) -> None:
    """An admin changes the variant and the timer while a lobby waits: the lobby's status
    shows them at once, so the answer says the waiting game plays them too (it said "It
    applies from the next game"), and a one-second timer is "1 second", not "1 seconds"."""
    from unobot.chat.settings_menu import rule_ref

    group = server.group(title="Lobby night")
    ana, beto = server.user(801, "Ana", "ana", language_code="es"), server.user(802, "Beto", "beto")
    server.set_status(group, ana, "creator")
    driver = TableDriver(server, bot, group, [ana, beto])
    await driver.command(ana, "/variant", "party")
    said = bot_messages(server, group)[-1]["text"]
    assert said == "✅ Variant: Party. It applies from the next game.", said
    await driver.command(ana, "/new")
    await driver.command(ana, "/variant", "official")
    said = bot_messages(server, group)[-1]["text"]
    assert said == "✅ Variant: Official rules. The game waiting for players here plays it too.", said
    await driver.command(ana, "/timer", "1")
    said = bot_messages(server, group)[-1]["text"]
    assert said == "✅ Turn timer: 1 second. The game waiting for players here plays it too.", said
    await driver.command(ana, "/rules")
    await driver.press(ana, keyboards.RULE_ON + rule_ref("stacking"))
    answer = server.calls_to("answerCallbackQuery")[-1]
    assert answer.get("text") == "Guardado. La partida que espera jugadores aquí también se juega así.", answer


async def test_a_second_new_beside_a_lobby_answers_under_the_lobby(server: BotAPIServer, bot: BotProcess) -> None:
    """/new while a lobby waits: the answer says a game waits for players (not "is already
    running": none was started) and is a reply to the lobby's message, where Join is."""
    group = server.group(title="Second new")
    ann, ben = server.user(851, "Ann"), server.user(852, "Ben", language_code="es")
    driver = TableDriver(server, bot, group, [ann, ben])
    await driver.command(ann, "/new")
    lobby = driver.status_message()
    assert lobby is not None
    await driver.command(ben, "/new")
    sent = server.calls_to("sendMessage")[-1]
    assert sent["text"] == error_text("lobby_open", "en"), sent  # the chat's language
    assert (sent.get("reply_parameters") or {}).get("message_id") == lobby["message_id"], sent
