"""/notify from a member who has not started the bot privately: one clear
answer in the group, and the private chat opened from its button says the
notice will come there.

Why: the group was told only "I cannot write to you yet: open a private
chat with me and press Start.", which reads as a refusal although the wish
was kept, and the bot's API log showed a second message (the private
confirmation Telegram refused). Pressing the button then opened the generic
welcome, which said nothing of the /notify.
"""

from __future__ import annotations

import asyncio

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, bot_messages
from unobot.chat.i18n import gettext_for

NOTED = ("Noted. Once you open a private chat with me and press Start, I will tell you there when the "
         "next game opens here.")
STARTED = ("You will get my notices here now: I will tell you when the next game opens in a group where "
           "you used /notify.")


async def test_notify_without_a_private_chat_says_one_thing(server: BotAPIServer, bot: BotProcess) -> None:
    de = gettext_for("de")
    assert de(NOTED) != NOTED and de(STARTED) != STARTED  # both translated
    group = server.group(title="Friday UNO")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben", language_code="de")
    update = server.send_command(group, ben, "/notify")
    await bot.settle(update)
    await server.wait_answer(update, "sendMessage")
    await asyncio.sleep(0.3)  # anything else the bot meant to say
    said = [m.get("text") for m in bot_messages(server, group)]
    assert said == [NOTED], said  # the group's language: the answer is read in the group
    button = server.calls_to("sendMessage")[-1]["reply_markup"]["inline_keyboard"][0][0]
    assert button["url"].endswith("?start=notify")

    # Ben presses the button: Telegram opens the private chat and sends `/start notify`
    private = server.private_chat(ben)
    start = server.send_command(private, ben, "/start", "notify")
    await bot.settle(start)
    assert (await server.wait_answer(start, "sendMessage")).params["text"] == de(STARTED)

    # and the notice comes there when a game opens, in his language
    mark = server.mark()
    await bot.settle(server.send_command(group, ann, "/new"))
    note = await server.wait_for("sendMessage", lambda p: p["chat_id"] == ben["id"], after=mark)
    assert "Friday UNO" in note.params["text"] and note.params["text"] != STARTED
