"""A press or a pick that meets the store down in the Telegram adapter's own
code (before or after it calls the chat service) comes again, as a command does.

Before, the chat service's refusal alone asked for a redelivery: a "Join"
pressed while Redis was down met the outage where the adapter reads the
table the button belongs to, was answered 200, and Telegram never sent it
again; Ben was told to try again, and had to. Now core's rule
(`delivery.ask_again`) is the adapter's too: an update that would change a
game or a setting and met the store down before anything was carried out is
answered 503 (Telegram sends it again until the store is back), its sender
told once, in their language; a reading update (an inline query: a look at
one's hand) is answered 200 with the plain outage text, translated. Real
parts: the local Bot API server delivering to the webhook, a Redis stopped
and started.
"""

from __future__ import annotations

from pathlib import Path

from tests.botapi import BotAPIServer
from tests.support.ports import free_port
from tests.support.redis_server import RedisServer
from tests.support.waiting import until
from tests.telegram.driver import BotProcess
from unobot.chat.i18n import Msg
from unobot.chat.render import REDELIVERED_OUTAGE, error_text


async def test_a_join_pressed_while_the_store_is_down_is_made_once_it_is_back(
        server: BotAPIServer, prefix: str, tmp_path: Path) -> None:
    redis = RedisServer(tmp_path / "redis").start()  # this test's own: it is stopped and started
    bot = BotProcess(server, redis.url, prefix, webhook_port=free_port())
    await bot.start()
    try:
        assert bot.service is not None
        group = server.group(title="Outage")
        chat = str(group["id"])
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben", language_code="es")
        await bot.settle(server.send_command(group, ann, "/new"))
        lobby = await bot.service.table(chat)
        assert lobby is not None
        status = int(lobby.adapter["status"])
        redis.stop()
        mark = server.mark()
        press = server.press_button(group, ben, status, "g:join")

        async def repeated() -> bool:
            return [s for u, s in server.webhook_deliveries if u == press["update_id"]].count(503) >= 3

        await until(repeated, 20, "the Join press was not answered 503 three times")
        answers = [c.params.get("text") for c in server.calls[mark:] if c.method == "answerCallbackQuery"]
        told = Msg(REDELIVERED_OUTAGE).text("es")
        assert told != REDELIVERED_OUTAGE
        assert answers[0] == told, answers  # in Ben's language, and no "try again"
        assert answers.count(told) == 1, answers  # once, whatever the number of repeats
        assert not [c for c in server.calls[mark:] if c.method == "sendMessage"]
        redis.start()

        async def seated() -> bool:
            table = await bot.service.table(chat)  # type: ignore[union-attr]
            return table is not None and [s.name for s in table.seats] == ["Ann", "Ben"]

        await until(seated, 20, "the Join pressed during the outage was never made")

        async def answered() -> bool:
            return (press["update_id"], 200) in server.webhook_deliveries

        await until(answered, 10, "the Join press was never answered 200")
        statuses = [s for u, s in server.webhook_deliveries if u == press["update_id"]]
        assert statuses[-1] == 200 and statuses.count(200) == 1, statuses
        await bot.idle()

        # A look at one's hand is a reading: answered now, with the outage said in the asker's language.
        redis.stop()
        mark = server.mark()
        query = server.inline_query(ben, f"#{group['id']} ")

        async def looked() -> bool:
            return (query["update_id"], 200) in server.webhook_deliveries

        await until(looked, 10, "an inline query in an outage was not answered 200")
        assert [s for u, s in server.webhook_deliveries if u == query["update_id"]] == [200]
        shown = server.inline_answers[query["inline_query"]["id"]]["results"]
        said = error_text("store_unavailable", "es")
        assert "Inténtalo de nuevo" in said
        assert said in str(shown), shown  # the plain "try again", in Ben's language
    finally:
        await bot.stop()
        redis.stop()
