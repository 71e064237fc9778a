"""Forum topics: a game per topic (issue 25).

In a forum (a supergroup with topics) unobot used to name no
`message_thread_id`: a game opened in a topic was posted and edited in
General, and /new in a second topic was refused ("A game is already
running here"). Now the chat id the chat service sees is the topic's place
(chat + topic), every message of a game goes to its topic, /rules settings
stay the chat's (and say so), and a player in two topics' games gets each
hand from its own "My cards". The local Bot API server speaks topics and
refuses a send into a topic that does not exist.
"""

from __future__ import annotations

from typing import Any

import pytest
from telegram.error import BadRequest

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, TableDriver
from tests.telegram.test_game import short_games
from unobot.adapters.telegram import keyboards
from unobot.adapters.telegram.guard import chat_of, place, split_place, telegram_id
from unobot.chat.table import PLAYING

JSON = dict[str, Any]


def test_a_place_is_its_chat_and_topic_and_never_a_telegram_id() -> None:
    chat = -1001234567890
    assert place(chat, None) == chat and place(42, 7) == 42  # no topic, or a private chat: the chat itself
    topic = place(chat, 45)
    assert topic < -(2 ** 53) and split_place(topic) == (chat, 45) and chat_of(str(topic)) == chat
    assert telegram_id(str(topic)) == topic and telegram_id(str(-(-chat * 10 ** 10))) is None  # no topic 0
    assert telegram_id(str(-(10 ** 30))) is None  # beyond any id, and no topic in it


def test_a_groups_settings_are_followed_by_its_topics_alone() -> None:
    """What a settings change walks (core's `settings_followers`): a topic's
    place starts with its group's id; a topic or a private chat has none."""
    from unobot.adapters.telegram.app import settings_followers, settings_places

    chat = -1001234567890
    prefix = settings_followers(str(chat))
    assert prefix == str(chat) and str(place(chat, 45)).startswith(prefix)
    assert settings_places(str(place(chat, 45))) == (str(chat),)
    assert settings_followers(str(place(chat, 45))) is None and settings_followers("42") is None


async def test_two_games_in_two_topics_of_one_forum_each_stay_in_their_topic(
        server: BotAPIServer, bot: BotProcess) -> None:
    forum = server.forum(title="UNO club")
    ann, ben, cid, dee = (server.user(i, name) for i, name in enumerate(("Ann", "Ben", "Cid", "Dee"), 1))
    red = server.create_topic(forum, ann, "Red table")
    blue = server.create_topic(forum, cid, "Blue table")
    await short_games(bot, str(forum["id"]), scoring="target=0")  # the chat's rules: both topics play them
    tables = [TableDriver(server, bot, forum, [ann, ben], thread=red, seed=3, check_privacy=False),
              TableDriver(server, bot, forum, [cid, dee], thread=blue, seed=4, check_privacy=False)]
    for driver in tables:
        first, second = driver.players
        update = await driver.command(first, "/new")
        lobby = driver.status_message()
        assert lobby is not None, f"no lobby in topic {driver.thread}: {server.calls[-3:]}"
        assert server.in_topic(lobby) == driver.thread
        said = str(server.calls_to("sendMessage")[-1])
        assert "already running" not in said and "already waiting" not in said, update
        await driver.press(second, keyboards.JOIN)
        await driver.press(first, keyboards.START)
        table = await driver.table()
        assert table is not None and table.phase == PLAYING
        assert table.variant and (await bot.service.settings(driver.chat))["rules"]["deck"]["hand_size"] == 3
    assert tables[0].chat != tables[1].chat
    # Both games at once, a step of each in turn, to their ends.
    going = [True, True]
    for _ in range(600):
        if not any(going):
            break
        for i, driver in enumerate(tables):
            if going[i]:
                going[i] = await driver.step()
    assert not any(going), "a game did not end"
    # Every message the bot posted into the forum is in one of the two topics, and
    # each topic's messages name only its own players.
    names = {red: {"Ann", "Ben"}, blue: {"Cid", "Dee"}}
    sent = [m for m in server.shown(forum) if m.get("from", {}).get("id") == server.bot_user["id"]]
    assert sent and all(server.in_topic(m) in names for m in sent), [
        (m["message_id"], server.in_topic(m)) for m in sent if server.in_topic(m) not in names]
    for message in sent:
        others = {"Ann", "Ben", "Cid", "Dee"} - names[server.in_topic(message)]
        assert not [n for n in others if n in message.get("text", "")], message
    posts = [c for c in server.calls if c.method == "sendMessage" and c.params.get("chat_id") == forum["id"]]
    assert posts and all(c.params.get("message_thread_id") in names for c in posts)
    # Edits are of messages in the game's own topic.
    for call in server.calls:
        if call.method == "editMessageText" and call.params.get("chat_id") == forum["id"]:
            assert server.in_topic(server.messages[forum["id"]][call.params["message_id"]]) in names
    for driver in tables:
        assert "wins the match" in driver.bot_messages()[-1]["text"]


async def test_rules_are_the_chats_and_a_player_in_two_topics_gets_both_hands(
        server: BotAPIServer, bot: BotProcess) -> None:
    forum = server.forum(title="UNO club")
    ann, ben, cid = server.user(1, "Ann"), server.user(2, "Ben"), server.user(3, "Cid")
    server.set_status(forum, ann, "administrator")
    red = server.create_topic(forum, ann, "Red table")
    blue = server.create_topic(forum, ann, "Blue table")
    # /rules in a topic: the chat's settings, and it says so.
    update = server.send_command(forum, ann, "/rules", thread=red)
    answer = await server.wait_answer(update, "sendMessage", timeout=10)
    assert answer.params.get("message_thread_id") == red
    assert "every topic" in answer.params["text"]
    # Ann sits in both topics' games.
    games = []
    for thread, other in ((red, ben), (blue, cid)):
        driver = TableDriver(server, bot, forum, [ann, other], thread=thread, check_privacy=False)
        await driver.command(ann, "/new")
        await driver.press(other, keyboards.JOIN)
        await driver.press(ann, keyboards.START)
        games.append(driver)
    assert bot.service is not None
    for driver in games:
        table = await driver.table()
        assert table is not None and table.phase == PLAYING and table.game is not None
        status = driver.status_message()
        assert status is not None and server.in_topic(status) == driver.thread
        # The topic's "My cards" types the topic's own game.
        cards = [b for b in server.buttons(forum, status["message_id"]) if "switch_inline_query_current_chat" in b]
        assert cards and cards[0]["switch_inline_query_current_chat"] == f"#{driver.chat} "
        query = server.inline_query(ann, cards[0]["switch_inline_query_current_chat"])
        results = (await server.wait_answer(query, "answerInlineQuery", timeout=10)).params["results"]
        assert results and all(r["id"].startswith(f"{driver.chat}:") for r in results)
        hand = {c.text for c in table.game.hands[table.seat_of(str(ann["id"]))]}  # type: ignore[index]
        offered = {r["id"].split(":p")[-1].split(".")[0].rstrip("!") for r in results if ":p" in r["id"]}
        assert offered <= hand, (offered, hand)
    # `@bot` alone with two games: a pick of the two, labelled by topic.
    query = server.inline_query(ann, "")
    results = (await server.wait_answer(query, "answerInlineQuery", timeout=10)).params["results"]
    titles = " ".join(str(r.get("title", "")) + " " + str(r.get("description", "")) for r in results)
    assert "Red table" in titles and "Blue table" in titles, titles


async def test_the_local_server_refuses_a_topic_that_does_not_exist(server: BotAPIServer, bot: BotProcess) -> None:
    forum = server.forum()
    real = server.create_topic(forum, server.user(1, "Ann"), "Real")
    message = await bot.app.bot.send_message(place(forum["id"], real), "hello")
    assert message.message_thread_id == real and message.is_topic_message
    with pytest.raises(BadRequest, match="thread not found"):
        await bot.app.bot.send_message(place(forum["id"], real + 1000), "nobody reads this")


async def test_a_topics_waiting_lobby_takes_the_chats_new_settings(server: BotAPIServer, bot: BotProcess) -> None:
    """A lobby not started yet takes the chat's new settings, in a forum topic
    as in a plain group: /variant and /language typed in the topic, and a
    /rules switch pressed there. Before, the topic's lobby kept the variant and
    language of its /new (the settings were the group's, and only the group's
    General lobby took them), and its game started on the old ones."""
    forum = server.forum(title="UNO club")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    server.set_status(forum, ann, "administrator")
    topic = server.create_topic(forum, ann, "Table")
    driver = TableDriver(server, bot, forum, [ann, ben], thread=topic, check_privacy=False)
    await driver.command(ann, "/new")
    await driver.press(ben, keyboards.JOIN)
    await driver.command(ann, "/variant", "no-mercy")
    await driver.command(ann, "/language", "es")
    await driver.command(ann, "/rules")
    rules = next(m for m in reversed(driver.bot_messages()) if any(
        str(b.get("callback_data", "")).startswith(keyboards.RULE_ON) for b in server.buttons(forum, m["message_id"])))
    switch = next(str(b["callback_data"]) for b in server.buttons(forum, rules["message_id"])
                  if str(b.get("callback_data", "")).startswith(keyboards.RULE_ON))
    await bot.settle(server.press_button(forum, ann, rules["message_id"], switch))
    rule = switch[len(keyboards.RULE_ON):]
    lobby = driver.status_message()
    assert lobby is not None and "Esperando jugadores" in lobby["text"], lobby["text"]
    await driver.press(ann, keyboards.START)
    table = await driver.table()
    assert table is not None and table.phase == PLAYING
    assert (table.variant, table.lang) == ("no-mercy", "es")
    assert rule in (table.overrides or {}), (rule, table.overrides)
    # Kept as the chat's: General and every topic read them.
    settings = await bot.service.settings(str(forum["id"]))
    assert (settings["variant"], settings["lang"]) == ("no-mercy", "es") and rule in settings["rules"]


def _two_topics(server: BotAPIServer, bot: BotProcess) -> tuple[TableDriver, TableDriver, tuple[JSON, JSON]]:
    """A forum with an admin, Ann, and Ben: a driver for its topic "Table"
    (where a lobby waits) and one for its topic "Chat" (where settings are typed)."""
    forum = server.forum(title="UNO club")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    server.set_status(forum, ann, "administrator")
    waiting, elsewhere = server.create_topic(forum, ann, "Table"), server.create_topic(forum, ann, "Chat")
    return (TableDriver(server, bot, forum, [ann, ben], thread=waiting, check_privacy=False),
            TableDriver(server, bot, forum, [ann, ben], thread=elsewhere, check_privacy=False), (ann, ben))


async def test_a_lobby_in_another_topic_deals_on_the_settings_changed_meanwhile(
        server: BotAPIServer, bot: BotProcess) -> None:
    """The settings are the group's: /variant and /language typed in one topic
    while a lobby waits in another must reach that lobby's game. Only the
    lobby where the command was typed took them, so the other topic's game
    was dealt on the old variant, in the old language."""
    driver, other, (ann, ben) = _two_topics(server, bot)
    await driver.command(ann, "/new")
    await driver.press(ben, keyboards.JOIN)
    await other.command(ann, "/variant", "no-mercy")
    await other.command(ann, "/language", "de")
    await driver.press(ann, keyboards.START)
    table = await driver.table()
    assert table is not None and table.phase == PLAYING
    assert (table.variant, table.lang) == ("no-mercy", "de"), (table.variant, table.lang)
    assert table.game is not None and table.game.variant == "no-mercy"


async def test_a_variant_chosen_with_new_stays_when_other_settings_change(
        server: BotAPIServer, bot: BotProcess) -> None:
    """`/new crazy` opens a lobby of another variant than the chat's: a change
    of the chat's language meanwhile reaches it, and its variant stays."""
    driver, other, (ann, ben) = _two_topics(server, bot)
    await driver.command(ann, "/new", "crazy")
    await driver.press(ben, keyboards.JOIN)
    await other.command(ann, "/language", "es")
    await driver.press(ann, keyboards.START)
    table = await driver.table()
    assert table is not None and (table.variant, table.lang) == ("crazy", "es"), (table.variant, table.lang)


async def test_a_lobby_in_another_topic_shows_the_settings_changed_meanwhile(
        server: BotAPIServer, bot: BotProcess) -> None:
    """The people waiting in a topic's lobby read its variant and language on
    its status message: a change typed or pressed in another topic must show
    there at once, not only once the game starts (it showed the old ones
    until Start, which then dealt the new)."""
    driver, other, (ann, ben) = _two_topics(server, bot)
    await driver.command(ann, "/new")
    await driver.press(ben, keyboards.JOIN)
    await other.command(ann, "/variant", "no-mercy")
    await other.command(ann, "/language", "es")
    await bot.idle()
    lobby = driver.status_message()
    assert lobby is not None and "Esperando jugadores" in lobby["text"], lobby["text"]
    assert "No Mercy" in lobby["text"], lobby["text"]
    table = await driver.table()
    assert table is not None and (table.variant, table.lang) == ("no-mercy", "es")
    # A switch pressed on /rules in the other topic too.
    await other.command(ann, "/rules")
    rules = next(m for m in reversed(other.bot_messages()) if any(
        str(b.get("callback_data", "")).startswith(keyboards.TIMER) for b in server.buttons(other.group, m["message_id"])))
    await bot.settle(server.press_button(other.group, ann, rules["message_id"], keyboards.TIMER + "60"))
    await bot.idle()
    lobby = driver.status_message()
    assert lobby is not None and "60" in lobby["text"], lobby["text"]
