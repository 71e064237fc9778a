"""After a match in a group, its final status message offers "Play again" (core's public
actions after the match, as the web page and the console offer it): pressed, a new lobby
opens in the group, seated as the match was (the people, the AI seats at their levels),
its variant, and its status message is posted at the bottom of the group; a second press
is that lobby, not another. Against the local Bot API server and a real Redis.

Why: the match's end offered nothing but typing /new and everyone joining again, while
core already knew how to play again at the same table.
"""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.conformance.situations import cards
from tests.support.waiting import until
from tests.telegram.driver import JSON, BotProcess, TableDriver
from unobot.adapters.telegram import inline_results, keyboards
from unobot.chat import actions, records
from unobot.chat import commands as c
from unobot.chat.render import error_text, failure_text
from unobot.chat.table import FINISHED, LOBBY, PLAYING, Table
from unobot.engine import setup_round

ADMIN = c.Person("setup", "Setup", None, True)


async def finished_match(server: BotAPIServer, bot: BotProcess, *, lang: str = "en",
                         forum: bool = False) -> tuple[TableDriver, Table]:
    """A group's one-round match (Ann, Ben and a hard AI seat) ended by Ann's last card
    (`forum`: in a topic of a forum)."""
    ann, ben = server.user(501, "Ann"), server.user(502, "Ben")
    group = server.forum(title="UNO club") if forum else server.group(title="Friday UNO", type="supergroup")
    thread = server.create_topic(group, ann, "Red table") if forum else None
    driver = TableDriver(server, bot, group, [ann, ben], check_privacy=False, thread=thread)
    assert bot.service is not None
    for command in (c.SetRule(rule="scoring", option="target", value=0), c.SetLanguage(lang)):
        out = await bot.service.handle(driver.chat, ADMIN, command)
        assert out.ok, out.error
    await driver.command(ann, "/new")
    await driver.press(ben, keyboards.JOIN)
    await driver.press(ann, keyboards.add_ai("hard"))
    await driver.press(ann, keyboards.START)

    def rig(table: Table) -> list[str]:
        table.game = setup_round("official", [s.id for s in table.seats], [cards("R5"), cards("G1 G2"),
                                 cards("B3 B4")], cards("R1"), cards("G3 G4 G5 G6"), turn=0,
                                 seed=table.seed, overrides=table.overrides or None)
        table.drawn_last = {}
        return []

    table = await bot.service.mutate(driver.chat, rig)
    assert table is not None and table.phase == PLAYING
    results = await driver.hand(ann)
    plays = {r["id"]: inline_results.command_of(ch, table) for r in results
             if (ch := inline_results.decode(r["id"])) is not None and inline_results.is_move(ch.code)}
    pick = next(rid for rid, cmd in plays.items() if isinstance(cmd, c.Play) and cmd.card == "R5")
    await driver.choose(ann, pick)
    await bot.idle()
    return driver, table


async def test_play_again_under_a_finished_match_opens_the_lobby_in_the_group(server: BotAPIServer,
                                                                             bot: BotProcess) -> None:
    driver, before = await finished_match(server, bot, lang="es")
    assert await driver.table() is None  # the match is over and kept
    final = driver.message_with(str(driver.again_data()))
    assert final is not None, [m.get("text") for m in driver.bot_messages()[-2:]]
    labels = [b["text"] for b in server.buttons(driver.group, final["message_id"])
              if b.get("callback_data", "").startswith("g:")]
    assert labels == ["🔁 Jugar otra vez"], labels  # core's public action, in the chat's language
    ann, ben = driver.players
    await driver.press(ben, str(driver.again_data()))
    await bot.idle()
    lobby = await driver.table()
    assert lobby is not None and lobby.phase == LOBBY and lobby.variant == before.variant
    assert [(s.name, s.level) for s in lobby.seats] == [(s.name, s.level) for s in before.seats]
    assert lobby.overrides == {"scoring": {"target": 0}}
    # Its status is posted at the bottom of the group, with the lobby's buttons, in Spanish.
    posted = driver.message_with(keyboards.START)
    assert posted is not None and posted["message_id"] > final["message_id"]
    assert lobby.adapter.get("status") == posted["message_id"]
    assert "Ann" in posted["text"] and "Ben" in posted["text"], posted["text"]
    assert "Ben ha pedido otra partida" in posted["text"], posted["text"]
    # A second press (Ann, on the same old message) is that lobby: nothing new posted.
    count = len(driver.bot_messages())
    await driver.press(ann, str(driver.again_data()))
    await bot.idle()
    again = await driver.table()
    assert again is not None and again.seed == lobby.seed and again.version == lobby.version
    assert len(driver.bot_messages()) == count
    # no refusal: Ann is told she sits there already (core's `again_note`), in her app's language
    told = server.calls_to("answerCallbackQuery")[-1]
    assert told.get("text") == error_text("already_joined", ann.get("language_code") or "es"), told
    await driver.press(ben, keyboards.START)  # who asked opened it: they start it, as after /new
    started = await driver.table()
    assert started is not None and started.phase == PLAYING
    # Pressed again once that game runs: refused as /new is, to the presser, in their app's language.
    await driver.press(ann, str(driver.again_data()))
    answer = server.calls_to("answerCallbackQuery")[-1]
    assert answer.get("text") == error_text("game_running", ann.get("language_code") or "es"), answer
    assert (await driver.table()).seed == started.seed  # type: ignore[union-attr]


async def test_play_again_in_a_forum_topic_stays_in_the_topic(server: BotAPIServer, bot: BotProcess) -> None:
    driver, before = await finished_match(server, bot, forum=True)
    await driver.press(driver.players[1], str(driver.again_data()))
    await bot.idle()
    lobby = await driver.table()
    assert lobby is not None and lobby.phase == LOBBY and lobby.chat_id == driver.chat
    posted = driver.message_with(keyboards.START)  # the driver sees its own topic's messages only
    assert posted is not None and lobby.adapter.get("status") == posted["message_id"]
    assert server.in_topic(posted) == driver.thread
    assert lobby.adapter.get("title") == before.adapter.get("title")  # how a player in two games tells it


async def test_a_stopped_game_offers_no_play_again(server: BotAPIServer, bot: BotProcess) -> None:
    """/stop ends a game without a match to repeat: its message keeps no button (the group types /new)."""
    group = server.group(title="Stopped", type="supergroup")
    ann, ben = server.user(601, "Ann"), server.user(602, "Ben")
    driver = TableDriver(server, bot, group, [ann, ben], check_privacy=False)
    await driver.command(ann, "/new")
    await driver.press(ben, keyboards.JOIN)
    await driver.press(ann, keyboards.START)
    await driver.command(ann, "/stop")
    await bot.idle()
    assert driver.again_data() is None
    assert not actions.public_actions(Table(chat_id="x", creator="a", phase=FINISHED), "en")


async def test_a_kept_seat_whose_id_is_no_telegram_id_is_seated_without_a_fault(server: BotAPIServer,
                                                                                bot: BotProcess) -> None:
    """A kept match's seat whose id only looks numeric ("²": `str.isdigit` says yes, `int`
    refuses it) once made the press end in "Something went wrong" after the lobby was
    opened: the Telegram ids of the people seated are read as the guard reads every id."""
    driver, _before = await finished_match(server, bot)
    assert bot.service is not None
    record = await records.last(bot.service.store, driver.chat)
    assert record is not None
    record["players"] = [{"id": "²", "name": "Zed", "ai": False, "level": None}, *record["players"]]
    assert await bot.service.store.replace_archived(driver.chat, str(record["game_id"]), record)
    _ann, ben = driver.players
    press = await driver.press(ben, str(driver.again_data()))
    await bot.idle()
    lobby = await driver.table()
    assert lobby is not None and lobby.phase == LOBBY and lobby.seats[0].name == "Zed"
    query = press["callback_query"]["id"]
    answers = [p for p in server.calls_to("answerCallbackQuery") if p.get("callback_query_id") == query]
    assert answers, "the press was not answered"
    assert all(failure_text(ValueError(), "en") not in str(p.get("text") or "") for p in answers), answers


async def finish_running_match(bot: BotProcess, driver: TableDriver, winner: JSON) -> None:
    """End the chat's running game: its first seat (`winner`) holds one card and plays it."""
    assert bot.service is not None

    def rig(table: Table) -> list[str]:
        hands = [cards("R5"), *[cards(f"G{i} B{i}") for i in range(1, len(table.seats))]]
        table.game = setup_round("official", [s.id for s in table.seats], hands, cards("R1"),
                                 cards("G7 G8 G9 Y1"), turn=0, seed=table.seed, overrides=table.overrides or None)
        table.drawn_last = {}
        return []

    table = await bot.service.mutate(driver.chat, rig)
    assert table is not None and table.phase == PLAYING
    results = await driver.hand(winner)
    pick = next(r["id"] for r in results if (ch := inline_results.decode(r["id"])) is not None
                and inline_results.is_move(ch.code) and isinstance(cmd := inline_results.command_of(ch, table), c.Play)
                and cmd.card == "R5")
    await driver.choose(winner, pick)
    await bot.idle()
    assert await driver.table() is None


async def test_play_again_on_an_old_match_plays_that_match_not_the_latest(server: BotAPIServer,
                                                                         bot: BotProcess) -> None:
    """Two matches in a row, the second with Cleo too: "Play again" pressed on the FIRST
    match's message seats the first match's players (it once seated the latest's,
    whatever message was pressed), and a match the records no longer keep is said so,
    in the presser's language, with nothing changed."""
    driver, first = await finished_match(server, bot)
    ann, ben = driver.players
    first_message = driver.message_with(str(driver.again_data()))
    assert first_message is not None
    first_data = str(driver.again_data(first_message))
    assert len(first_data.encode()) <= 64 and first_data != keyboards.AGAIN
    await driver.press(ben, first_data)
    await bot.idle()
    cleo = server.user(503, "Cleo")
    await driver.press(cleo, keyboards.JOIN)
    await driver.press(ben, keyboards.START)
    await finish_running_match(bot, driver, ann)
    second_message = driver.message_with(str(driver.again_data()))
    assert second_message is not None and second_message["message_id"] != first_message["message_id"]
    assert driver.again_data(second_message) != first_data  # each match's button names its own
    await driver.press(ann, first_data)  # the old message's button
    await bot.idle()
    lobby = await driver.table()
    assert lobby is not None and lobby.phase == LOBBY
    assert [(s.name, s.level) for s in lobby.seats] == [(s.name, s.level) for s in first.seats], lobby.seats
    # A match whose record is gone (kept records are capped and age out): said, nothing changes.
    assert bot.service is not None
    await driver.command(ann, "/stop")
    await bot.idle()
    record = await records.last(bot.service.store, driver.chat)
    assert record is not None and record.get("match")
    await bot.service.store.replace_archived(driver.chat, str(record["game_id"]), {**record, "match": "0"})
    spanish = server.user(504, "Eva", language_code="es")
    await driver.press(spanish, str(driver.again_data(second_message)))
    told = server.calls_to("answerCallbackQuery")[-1]
    assert told.get("text") == error_text("again_gone", "es"), told
    assert "/new" in told["text"] and "partida" in told["text"]
    assert await driver.table() is None


async def test_a_member_who_did_not_play_pressing_play_again_after_the_first_is_seated(
        server: BotAPIServer, bot: BotProcess) -> None:
    """Ben opened the new lobby from the match's message; Dan, who did not play that
    match, presses the same button: he gets a seat as /join gives one, is told so (in
    his language), and the lobby's status says it. Before, he got no seat and no word."""
    driver, _before = await finished_match(server, bot)
    _ann, ben = driver.players
    data = str(driver.again_data())
    await driver.press(ben, data)
    await bot.idle()
    dan = server.user(505, "Dan", language_code="es")
    await driver.press(dan, data)
    await bot.idle()
    told = server.calls_to("answerCallbackQuery")[-1]
    assert told.get("text") == "Te has unido.", told
    lobby = await driver.table()
    assert lobby is not None and lobby.phase == LOBBY and [s.name for s in lobby.seats][-1] == "Dan"
    status = driver.message_with(keyboards.START)
    assert status is not None and "Dan" in status["text"], status


async def test_a_lobby_a_mini_app_page_opened_says_who_asked(server: BotAPIServer, bot: BotProcess) -> None:
    """"Play again" pressed on the group's Mini App page, served by another process on the
    same Redis (`unobot web`): the bot posts the lobby it sees (`UNPOSTED`) with the same
    "Ben asked for another game" line the group's own button gives. It once posted the
    bare lobby: the process that posts it never saw the outcome that said it."""
    from unobot.adapters.redis_store import RedisStore
    from unobot.chat.service import ChatService

    driver, before = await finished_match(server, bot, lang="es")
    _ann, ben = driver.players
    other = RedisStore.from_url(bot.redis_url, prefix=bot.prefix)  # the web process's own store
    try:
        web = ChatService(other)
        final = await web.table(driver.chat)
        assert final is None  # the match is over; the page offers Play again of it
        asked = c.Again(unposted=True, match=before.match)
        out = await web.handle(driver.chat, c.Person(str(ben["id"]), "Ben"), asked)
        assert out.ok and out.changed, out.error
        posted = await server.wait_for("sendMessage", lambda p: "Ben" in str(p.get("text", ""))
                                       and "otra partida" in str(p.get("text", "")), timeout=5)
        assert "Ben ha pedido otra partida" in posted.params["text"], posted.params["text"]
    finally:
        await other.close()
    await bot.idle()

    async def recorded() -> Table | None:  # the follower posts, then claims the message as the lobby's
        lobby = await driver.table()
        return lobby if lobby is not None and lobby.adapter.get("status") else None

    lobby = await until(recorded, 5, "the posted lobby was never recorded as the table's status message")
    assert lobby.phase == LOBBY


async def test_play_again_while_a_new_lobby_waits_says_so_and_changes_nothing(server: BotAPIServer,
                                                                                 bot: BotProcess) -> None:
    """Ann typed /new after the match; Ben then presses the match's "Play again": the answer
    says another game waits for players (in his language), not "A game is already running
    here" (none runs yet), and the lobby is left as it is."""
    driver, _before = await finished_match(server, bot)
    ann, _ben = driver.players
    data = str(driver.again_data())
    await driver.command(ann, "/new")
    lobby = await driver.table()
    assert lobby is not None and lobby.phase == LOBBY
    eva = server.user(506, "Eva", language_code="es")
    await driver.press(eva, data)
    told = server.calls_to("answerCallbackQuery")[-1]
    assert told.get("text") == error_text("lobby_open", "es"), told
    assert told["text"] == "Aquí ya hay otra partida esperando jugadores: únete a esa."
    after = await driver.table()
    assert after is not None and after.version == lobby.version and [s.name for s in after.seats] == ["Ann"]
