"""A channel's discussion group: members who post as the channel, and the
channel's posts Telegram forwards into the group.

Why: such a message comes from Telegram's shared `Channel_Bot` account (or,
forwarded, from Telegram's own 777000), with the channel as `sender_chat`.
The bot took that account for the person: `/join` written as a channel
seated "Channel", a seat every channel-poster of every group shared and
nobody could play (the hand is asked for by the person, never the
channel), so the game waited on it; a channel post starting with `/new`
opened a game in the discussion group with "Telegram" seated.
"""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.botapi.server import CHANNEL_BOT
from tests.telegram.driver import BotProcess
from unobot.chat.i18n import gettext_for

AS_CHANNEL = "You are writing as a channel: write as yourself to take a seat."


async def test_a_member_posting_as_a_channel_takes_no_seat(server: BotAPIServer, bot: BotProcess) -> None:
    group, news = server.group(title="UNO talk"), server.channel("UNO news")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben", language_code="de")
    chat = str(group["id"])
    assert bot.service is not None
    await bot.settle(server.send_command(group, ann, "/new"))
    update = server.send_command(group, ben, "/join", as_chat=news)
    await bot.settle(update)
    answer = (await server.wait_answer(update, "sendMessage")).params["text"]
    assert answer == gettext_for("en")(AS_CHANNEL), answer  # the group's language: the channel has none
    table = await bot.service.table(chat)
    assert table is not None and [s.name for s in table.seats] == ["Ann"]
    assert str(CHANNEL_BOT["id"]) not in [s.id for s in table.seats]
    await bot.settle(server.send_command(group, ben, "/join"))  # written as himself: seated
    table = await bot.service.table(chat)
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Ben"]


async def test_a_lobby_opened_as_a_channel_has_no_seat_and_no_admin(server: BotAPIServer, bot: BotProcess) -> None:
    group, news = server.group(title="UNO talk"), server.channel("UNO news")
    ann = server.user(1, "Ann")
    chat = str(group["id"])
    assert bot.service is not None
    await bot.settle(server.send_command(group, ann, "/new", as_chat=news))
    table = await bot.service.table(chat)
    assert table is not None and table.seats == [] and table.creator == str(news["id"])
    # A channel is no admin of the group: its /timer is refused and changes nothing.
    before = (await bot.service.settings(chat))["timer"]
    await bot.settle(server.send_command(group, ann, "/timer", "45", as_chat=news))
    assert (await bot.service.settings(chat))["timer"] == before


async def test_a_channel_post_forwarded_into_its_group_is_no_command(server: BotAPIServer, bot: BotProcess) -> None:
    group, news = server.group(title="UNO talk"), server.channel("UNO news")
    assert bot.service is not None
    mark = len(server.calls)
    update = server.automatic_forward(group, news, "/new tonight at eight!")
    await bot.settle(update)
    assert await bot.service.table(str(group["id"])) is None
    assert not [c for c in server.calls[mark:] if c.method == "sendMessage"]
