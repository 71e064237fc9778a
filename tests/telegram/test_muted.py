"""The bot muted in a group mid-game: its games there end cleanly, once, and
whoever started each is told privately, in their language.

Why: an admin restricted the bot ("Send messages" off), or turned sending
off for every member, and Telegram refused every post there with 400 "not
enough rights to send text messages to the chat". Nothing else stopped: the
turn timer removed players who could no longer see the game, AI seats
played on, every round message, lobby and reply was tried and refused
again, and nobody learnt why the bot had gone quiet.
"""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, TableDriver
from unobot.adapters.telegram import keyboards
from unobot.chat.table import LOBBY, PLAYING


def private_texts(server: BotAPIServer, user: dict[str, object]) -> list[str]:
    return [m.get("text", "") for m in server.shown(int(user["id"]))  # type: ignore[call-overload]
            if m.get("from", {}).get("id") == server.bot_user["id"]]


async def test_an_admin_restricting_the_bot_ends_the_game_and_tells_its_creator(
        server: BotAPIServer, bot: BotProcess) -> None:
    group, other = server.group(title="Friday UNO"), server.group(title="Other table")
    ann, ben, ada = server.user(1, "Ann", language_code="es"), server.user(2, "Ben"), server.user(3, "Ada")
    server.set_status(group, ada, "administrator")
    await bot.settle(server.send_command(server.private_chat(ann), ann, "/start"))  # Ann may be written to
    await bot.settle(server.send_command(group, ada, "/timer", "60"))  # turn timers: jobs planned
    here = TableDriver(server, bot, group, [ann, ben], seed=3, check_privacy=False)
    elsewhere = TableDriver(server, bot, other, [ben, ann], seed=4, check_privacy=False)
    for driver in (here, elsewhere):
        first, second = driver.players
        await driver.command(first, "/new")
        await driver.press(second, keyboards.JOIN)
    await here.press(ann, keyboards.START)
    table = await here.table()
    assert table is not None and table.phase == PLAYING
    status = int(table.adapter["status"])
    told_before = len(private_texts(server, ann))

    await bot.settle(server.mute_bot(group, ada))  # type: ignore[arg-type]
    await bot.idle()
    assert await here.table() is None, "the muted group's game ends"
    assert not [job.name for _, _, job in bot.scheduler.pending if job.chat_id == group["id"]]
    # Its status message says why (a restricted bot may still edit its messages).
    assert "Stopped: I may no longer send messages here." in server.messages[group["id"]][status]["text"]
    # Ann, who opened it, is told privately, in her language, once.
    told = private_texts(server, ann)[told_before:]
    assert len(told) == 1 and "Friday UNO" in told[0] and "/new" in told[0], told
    assert "administrador" in told[0], told  # Spanish: her app's language
    # Nothing more is tried there: the timers are gone, nothing posts.
    mark = len(server.calls)
    await bot.run_due()
    assert not [c for c in server.calls[mark:] if c.params.get("chat_id") == group["id"]]
    # Another group plays on.
    kept = await elsewhere.table()
    assert kept is not None and kept.phase == LOBBY and [s.name for s in kept.seats] == ["Ben", "Ann"]

    # The admin lets the bot speak again: a new game opens there at once.
    await bot.settle(server.mute_bot(group, ada, muted=False))  # type: ignore[arg-type]
    await here.command(ben, "/new")
    await bot.idle()
    reopened = await here.table()
    assert reopened is not None and reopened.phase == LOBBY and reopened.adapter.get("status")


async def test_sending_turned_off_for_everyone_ends_the_game_at_the_first_refusal_only_once(
        server: BotAPIServer, bot: BotProcess) -> None:
    """No update comes when "Send messages" is turned off for every member:
    the first post Telegram refuses there is the news. The game ends once,
    however many posts are refused after it (a reply to each command)."""
    group = server.group(title="Quiet room")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    await bot.settle(server.send_command(server.private_chat(ann), ann, "/start"))
    here = TableDriver(server, bot, group, [ann, ben], seed=3, check_privacy=False)
    await here.command(ann, "/new")
    await here.press(ben, keyboards.JOIN)
    await here.press(ann, keyboards.START)
    told_before = len(private_texts(server, ann))
    server.mute_bot(group)  # no update: only refusals from now on
    for _ in range(3):
        await here.command(ben, "/new")  # "A game is already running here": refused by Telegram
        await bot.idle()
    await bot.idle()
    assert await here.table() is None, "the game ends at the first refused post"
    told = private_texts(server, ann)[told_before:]
    assert len(told) == 1 and "Quiet room" in told[0], told
