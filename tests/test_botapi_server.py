"""The local Bot API server, driven by the real python-telegram-bot 22 client.

Why these tests matter: every later end-to-end test of the Telegram adapter trusts
this server to answer as Telegram does. Each test here pins one behaviour the
adapter depends on (long polling and offsets, callback and inline answers, "not
modified", 429, privacy mode, webhooks) against the real client, not a mock.
"""

from __future__ import annotations

import asyncio
import html
import socket
import time
from collections.abc import AsyncIterator

import pytest
from aiohttp import ClientSession
from telegram import (
    Bot,
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultCachedSticker,
    InputTextMessageContent,
    Update,
)
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    RetryAfter,
)
from telegram.ext import (
    AIORateLimiter,
    Application,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    ExtBot,
    InlineQueryHandler,
)

from tests.botapi import BotAPIServer

JOIN_KEYBOARD = InlineKeyboardMarkup([[InlineKeyboardButton("Join", callback_data="join")]])


# ------------------------------------------------------------------ a tiny bot under test


async def on_new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/new: post a lobby with a Join button; the creator's name must be escaped."""
    assert update.effective_message and update.effective_user
    context.bot_data["table"] = update.effective_message.chat_id
    name = html.escape(update.effective_user.first_name)
    await update.effective_message.reply_html(
        f"<b>New game</b> by {name}", reply_markup=JOIN_KEYBOARD, do_quote=False
    )


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Join: answer the query first (Telegram shows a spinner until then), then edit."""
    query = update.callback_query
    assert query and query.from_user
    await query.answer("Joined")
    await query.edit_message_text(
        f"Players: {query.from_user.first_name}", reply_markup=JOIN_KEYBOARD
    )


async def on_inline(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Offer the user's hand: one sticker card and one text card, personal and uncached."""
    assert update.inline_query
    await update.inline_query.answer(
        [
            InlineQueryResultCachedSticker(id="card-r5", sticker_file_id="STICKER_R5"),
            InlineQueryResultArticle(
                id="draw",
                title="Draw a card",
                input_message_content=InputTextMessageContent("I draw"),
            ),
        ],
        cache_time=0,
        is_personal=True,
    )


async def on_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The move itself arrives as chosen_inline_result; announce it at the table."""
    assert update.chosen_inline_result
    result = update.chosen_inline_result
    await context.bot.send_message(context.bot_data["table"], f"played {result.result_id}")


def build_app(server: BotAPIServer) -> Application:
    """The application wiring a real deployment uses, pointed at the local server."""
    app = (
        Application.builder()
        .token(server.token)
        .base_url(server.base_url)
        .base_file_url(server.base_file_url)
        .build()
    )
    app.add_handler(CommandHandler("new", on_new))
    app.add_handler(CallbackQueryHandler(on_button))
    app.add_handler(InlineQueryHandler(on_inline))
    app.add_handler(ChosenInlineResultHandler(on_chosen))
    return app


@pytest.fixture
async def server() -> AsyncIterator[BotAPIServer]:
    async with BotAPIServer() as srv:
        yield srv
        assert srv.errors == [], "the local Bot API server crashed while handling a request"


@pytest.fixture
async def app(server: BotAPIServer) -> AsyncIterator[Application]:
    application = build_app(server)
    async with application:
        await application.updater.start_polling(timeout=2)
        await application.start()
        yield application
        await application.updater.stop()
        await application.stop()


@pytest.fixture
async def bot(server: BotAPIServer) -> AsyncIterator[Bot]:
    """A bare client for tests that call methods directly instead of polling."""
    async with Bot(server.token, base_url=server.base_url) as client:
        yield client


# ------------------------------------------------------------------ polling end to end


async def test_startup_and_command_answered(server: BotAPIServer, app: Application) -> None:
    assert [c.method for c in server.calls[:2]] == ["getMe", "deleteWebhook"]
    assert app.bot.username == server.bot_username

    table = server.group(title="UNO table")
    alice = server.user(1, "Alice <3", "alice")
    update = server.send_command(table, alice, "/new")

    call = await server.wait_answer(update, "sendMessage")
    assert call.params["chat_id"] == table["id"]
    shown = server.shown(table)[-1]
    assert shown["text"] == "New game by Alice <3"
    assert shown["entities"] == [{"type": "bold", "offset": 0, "length": 8}]
    assert server.buttons(table, shown["message_id"]) == [{"text": "Join", "callback_data": "join"}]


async def test_command_addressed_with_bot_name(server: BotAPIServer, app: Application) -> None:
    table = server.group()
    update = server.send_command(table, server.user(2, "Bob"), f"/new@{server.bot_username}")
    await server.wait_answer(update, "sendMessage")


async def test_button_press_answered_and_message_edited(
    server: BotAPIServer, app: Application
) -> None:
    table = server.group()
    alice, bob = server.user(1, "Alice"), server.user(2, "Bob")
    await server.wait_answer(server.send_command(table, alice, "/new"))
    lobby_id = server.shown(table)[-1]["message_id"]

    press = server.press_button(table, bob, lobby_id, "join")
    answer = await server.wait_answer(press)
    assert answer.params["text"] == "Joined"
    await server.wait_answer(press, "editMessageText")
    assert server.messages[table["id"]][lobby_id]["text"] == "Players: Bob"
    assert "edit_date" in server.messages[table["id"]][lobby_id]

    # A query can be answered once; the second answer is refused like on Telegram.
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await app.bot.answer_callback_query(press["callback_query"]["id"])
    with pytest.raises(ValueError, match="no button"):
        server.press_button(table, bob, lobby_id, "forged")


async def test_inline_query_answer_and_pick(server: BotAPIServer, app: Application) -> None:
    table = server.group()
    alice = server.user(1, "Alice")
    await server.wait_answer(server.send_command(table, alice, "/new"))

    query = server.inline_query(alice, "")
    await server.wait_answer(query)
    answer = server.inline_answers[query["inline_query"]["id"]]
    assert [r["id"] for r in answer["results"]] == ["card-r5", "draw"]
    assert answer["is_personal"] is True
    assert answer["cache_time"] == 0

    message, chosen = server.pick_inline_result(table, alice, "card-r5")
    assert chosen is not None and chosen["chosen_inline_result"]["result_id"] == "card-r5"
    posted = server.shown(table)[-1]  # nothing awaited since the pick: still the last
    assert posted is message["message"]
    assert posted["via_bot"]["id"] == server.bot_user["id"]
    assert posted["sticker"]["file_id"] == "STICKER_R5"
    played = await server.wait_for("sendMessage", lambda p: p["text"] == "played card-r5")
    assert played.params["chat_id"] == table["id"]

    with pytest.raises(ValueError, match="not offered"):
        server.pick_inline_result(table, alice, "card-g9")


# ------------------------------------------------------------------ direct method calls


async def test_edit_rules(server: BotAPIServer, bot: Bot) -> None:
    table = server.group()
    sent = await bot.send_message(table["id"], "Turn 1", reply_markup=JOIN_KEYBOARD)

    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text(
            "Turn 1", table["id"], sent.message_id, reply_markup=JOIN_KEYBOARD
        )
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_reply_markup(
            table["id"], sent.message_id, reply_markup=JOIN_KEYBOARD
        )

    # Same text without the keyboard is a change: the edit removes the keyboard.
    edited = await bot.edit_message_text("Turn 1", table["id"], sent.message_id)
    assert isinstance(edited, type(sent)) and edited.reply_markup is None
    assert "reply_markup" not in server.messages[table["id"]][sent.message_id]

    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("Turn 2", table["id"], 999)
    user_message = server.send_text(table, server.user(1, "Alice"), "hi")["message"]
    with pytest.raises(BadRequest, match=r"(?i)message can't be edited"):
        await bot.edit_message_text("hacked", table["id"], user_message["message_id"])

    assert await bot.delete_message(table["id"], sent.message_id)
    assert sent.message_id not in server.messages[table["id"]]
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(table["id"], sent.message_id)


async def test_group_upgraded_to_supergroup(server: BotAPIServer, bot: Bot) -> None:
    group = server.group(type="group")
    alice = server.user(1, "Alice")
    server.set_status(group, alice, "creator")
    with pytest.raises(ValueError, match="basic group"):
        server.migrate_group(server.group(), alice)
    new, update = server.migrate_group(group, alice)
    assert new["type"] == "supergroup" and new["id"] != group["id"]
    assert update["message"]["migrate_to_chat_id"] == new["id"]
    assert server.statuses[new["id"]][alice["id"]] == "creator"
    delivered = await bot.get_updates()
    assert [u.message.migrate_to_chat_id for u in delivered][:1] == [new["id"]]  # type: ignore[union-attr]
    assert delivered[1].message.migrate_from_chat_id == group["id"]  # type: ignore[union-attr]
    with pytest.raises(ChatMigrated) as migrated:
        await bot.send_message(group["id"], "hello?")
    assert migrated.value.new_chat_id == new["id"]
    assert (await bot.send_message(new["id"], "hello")).chat.id == new["id"]


async def test_message_validation(server: BotAPIServer, bot: Bot) -> None:
    table = server.group()
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.send_message(table["id"], "<b>Bob <3</b>", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.send_message(table["id"], "<b>unclosed", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)message text is empty"):
        await bot.send_message(table["id"], "  ")
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(table["id"], "x" * 4097)
    too_long = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="d" * 65)]])
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(table["id"], "hi", reply_markup=too_long)

    # Offsets count UTF-16 units: the card emoji takes two.
    sent = await bot.send_message(table["id"], "🃏 <i>R5</i> &amp; more", parse_mode="HTML")
    assert sent.text == "🃏 R5 & more"
    assert [(e.type, e.offset, e.length) for e in sent.entities] == [("italic", 3, 2)]

    with pytest.raises(Forbidden, match=r"(?i)can't initiate conversation"):
        await bot.send_message(424242, "hello stranger")
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(-100999, "hello")
    server.private_chat(server.user(5, "Eve"))
    assert (await bot.send_message(5, "hello Eve")).chat.type == "private"


async def test_get_updates_offset_and_limit(server: BotAPIServer, bot: Bot) -> None:
    alice = server.user(1, "Alice")
    chat = server.private_chat(alice)
    ids = [server.send_text(chat, alice, f"m{i}")["update_id"] for i in range(3)]

    assert [u.update_id for u in await bot.get_updates()] == ids
    assert [u.update_id for u in await bot.get_updates(limit=1)] == ids[:1]
    # An offset confirms everything before it, for good.
    assert [u.update_id for u in await bot.get_updates(offset=ids[1])] == ids[1:]
    assert [u.update_id for u in await bot.get_updates()] == ids[1:]
    # A negative offset keeps only the last updates.
    assert [u.update_id for u in await bot.get_updates(offset=-1)] == ids[2:]
    assert await bot.get_updates(offset=ids[2] + 1) == ()
    assert server.pending_updates == []
    assert server.last("getUpdates") == {"offset": ids[2] + 1}


async def test_get_updates_long_poll(server: BotAPIServer, bot: Bot) -> None:
    alice = server.user(1, "Alice")
    chat = server.private_chat(alice)

    started = time.monotonic()
    assert await bot.get_updates(timeout=1) == ()
    assert 0.9 <= time.monotonic() - started < 2

    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await server.wait_for("getUpdates", after=server.mark())
    started = time.monotonic()
    update = server.send_text(chat, alice, "wake up")
    got = await poll
    assert [u.update_id for u in got] == [update["update_id"]]
    assert time.monotonic() - started < 2.5  # woken by the update, not at the poll's 5 s


async def test_second_poller_terminates_first(server: BotAPIServer, bot: Bot) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=5))
    await server.wait_for("getUpdates", after=0)
    async with Bot(server.token, base_url=server.base_url) as other:
        assert await other.get_updates(timeout=0) == ()
    with pytest.raises(Conflict, match="terminated by other getUpdates"):
        await first


async def test_injected_updates_parse_in_ptb(server: BotAPIServer, bot: Bot) -> None:
    """Every builder yields an update python-telegram-bot parses into the right fields."""
    table = server.group(type="group")
    alice, bob = server.user(1, "Alice", "alice"), server.user(2, "Bob")
    lobby = await bot.send_message(table["id"], "lobby", reply_markup=JOIN_KEYBOARD)
    server.reply_command(table, alice, "/kick", lobby.message_id)
    server.send_command(table, alice, "/new", anonymous=True)
    server.press_button(table, bob, lobby.message_id, "join")
    server.inline_query(bob, "r5", chat_type="group")
    server.choose_inline_result(bob, "card-r5", "r5")
    server.via_bot_message(table, bob, sticker="STICKER_R5")

    updates = await bot.get_updates()
    kick, anon, press, inline, chosen, via = updates
    assert (
        kick.message.text == "/kick"
        and kick.message.reply_to_message.message_id == lobby.message_id
    )
    assert kick.message.reply_to_message.from_user.id == server.bot_user["id"]
    assert anon.message.sender_chat.id == table["id"]
    assert press.callback_query.data == "join"
    assert press.callback_query.message.reply_markup == JOIN_KEYBOARD
    assert inline.inline_query.query == "r5" and inline.inline_query.chat_type == "group"
    assert chosen.chosen_inline_result.result_id == "card-r5"
    assert (
        via.message.via_bot.id == server.bot_user["id"]
        and via.message.sticker.file_id == "STICKER_R5"
    )


async def test_privacy_mode_hides_plain_group_text(server: BotAPIServer) -> None:
    table = server.group()
    alice = server.user(1, "Alice")
    server.send_text(table, alice, "just chatting")
    server.send_command(table, alice, "/new@some_other_bot")
    assert server.pending_updates == []
    assert len(server.shown(table)) == 2  # still visible in the group

    seen = [
        server.send_command(table, alice, "/new"),
        server.send_text(table, alice, f"hey @{server.bot_username}"),
        server.send_text(server.private_chat(alice), alice, "hi in private"),
    ]
    assert server.pending_updates == seen
    server.set_status(table, server.bot_user, "administrator")
    assert server.send_text(table, alice, "admins see all") in server.pending_updates


# PTB 22 warns on every read of RetryAfter.retry_after that it will become a timedelta.
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_flood_limit_surfaces_retry_after(server: BotAPIServer, bot: Bot) -> None:
    table = server.group()
    server.flood_limit(table, 1)
    await bot.send_message(table["id"], "one")
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(table["id"], "two")
    assert caught.value.retry_after == 1

    # AIORateLimiter honours retry_after and retries on its own.
    limited = ExtBot(
        server.token, base_url=server.base_url, rate_limiter=AIORateLimiter(max_retries=1)
    )
    async with limited:
        sent = await limited.send_message(table["id"], "three")
    assert sent.text == "three"
    texts = [p["text"] for p in server.calls_to("sendMessage")]
    assert texts == ["one", "two", "three", "three"]
    server.flood_limit(table, None)


async def test_unknown_method_is_recorded(server: BotAPIServer, bot: Bot) -> None:
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("sendUnoCard", api_kwargs={"chat_id": 1})
    assert server.calls[-1] == ("sendUnoCard", {"chat_id": 1})


async def test_raw_http_encodings(server: BotAPIServer) -> None:
    """GET queries, JSON bodies, form bodies and any letter case, as Telegram accepts."""
    table = server.group()
    url = f"{server.base_url}123:abc"
    async with ClientSession() as session:
        async with session.get(f"{url}/GETME") as response:
            assert (await response.json())["result"]["username"] == server.bot_username
        body = {"chat_id": table["id"], "text": "from json"}
        async with session.post(f"{url}/sendmessage", json=body) as response:
            assert (await response.json())["result"]["text"] == "from json"
        form = {"chat_id": str(table["id"]), "text": "123", "reply_markup": JOIN_KEYBOARD.to_json()}
        async with session.post(f"{url}/sendMessage", data=form) as response:
            assert response.status == 200
        async with session.post(f"{url}/nosuchmethod") as response:
            assert response.status == 404
            assert await response.json() == {
                "ok": False,
                "error_code": 404,
                "description": "Not Found: method not found",
            }
    assert server.last("sendMessage") == {
        "chat_id": table["id"],
        "text": "123",
        "reply_markup": JOIN_KEYBOARD.to_dict(),
    }
    assert [c.method for c in server.calls] == [
        "getMe",
        "sendMessage",
        "sendMessage",
        "nosuchmethod",
    ]


async def test_members_chat_and_commands(server: BotAPIServer, bot: Bot) -> None:
    table = server.group()
    alice, bob, carol = server.user(1, "Alice"), server.user(2, "Bob"), server.user(3, "Carol")
    server.set_status(table, alice, "creator")
    server.set_status(table, bob, "administrator")

    assert (await bot.get_chat_member(table["id"], alice["id"])).status == "creator"
    assert (await bot.get_chat_member(table["id"], bob["id"])).status == "administrator"
    assert (await bot.get_chat_member(table["id"], carol["id"])).status == "member"
    admins = await bot.get_chat_administrators(table["id"])
    assert [m.user.id for m in admins] == [alice["id"], bob["id"]]
    assert (await bot.get_chat(table["id"])).title == table["title"]
    assert await bot.send_chat_action(table["id"], "typing")

    await bot.set_my_commands([BotCommand("new", "Start a game")])
    await bot.set_my_commands([BotCommand("new", "Nueva partida")], language_code="es")
    assert [c.description for c in await bot.get_my_commands(language_code="es")] == [
        "Nueva partida"
    ]
    assert server.my_commands() == [{"command": "new", "description": "Start a game"}]
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand("New-Game", "bad name")])
    assert await bot.delete_my_commands(language_code="es")
    assert await bot.get_my_commands(language_code="es") == ()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_webhook_mode(server: BotAPIServer) -> None:
    application = build_app(server)
    port = _free_port()
    hook = f"http://127.0.0.1:{port}/hook"
    async with application:
        await application.updater.start_webhook(
            listen="127.0.0.1", port=port, url_path="hook", webhook_url=hook, secret_token="s3cret"
        )
        await application.start()
        try:
            assert server.last("setWebhook")["secret_token"] == "s3cret"
            info = await application.bot.get_webhook_info()
            assert info.url == hook
            with pytest.raises(Conflict, match="webhook is active"):
                await application.bot.get_updates()

            # Updates reach the webhook on their own, with the secret header.
            table = server.group()
            update = server.send_command(table, server.user(1, "Alice"), "/new")
            await server.wait_answer(update, "sendMessage")
            await server.wait_consumed(update)
            assert server.webhook_deliveries == [(update["update_id"], 200)]

            forged = server.send_command(table, server.user(2, "Mallory"), "/new", queue=False)
            assert await server.post_update_to(hook, forged, secret_token="wrong") == 403
            assert await server.post_update_to(hook, forged, secret_token="s3cret") == 200
            await server.wait_answer(forged, "sendMessage")
        finally:
            await application.updater.stop()
            await application.stop()
