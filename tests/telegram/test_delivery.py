"""An update Telegram sent is an update handled (issue 25).

Polling: one update in a batch that python-telegram-bot cannot parse used
to drop the whole batch ("Received data was *not* processed!"), the valid
updates with it. Now each update is parsed on its own: only the poisoned
one is lost, and it is logged once.
"""

from __future__ import annotations

import logging

import pytest

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess

#: Updates no version of python-telegram-bot can parse: a sender that is a
#: string, a button press that is a number, a date that is a word.
POISON = [
    {"message": {"message_id": 1, "date": 0, "chat": {"id": -5, "type": "group"}, "from": "bob", "text": "/new"}},
    {"callback_query": 7},
    {"message": {"message_id": 1, "date": "x", "chat": 5}},
]


async def test_a_poisoned_polling_batch_loses_only_the_poisoned_update(
        server: BotAPIServer, bot: BotProcess, caplog: pytest.LogCaptureFixture) -> None:
    group = server.group(title="Batch")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    caplog.set_level(logging.WARNING, logger="unobot.adapters.telegram.bot")
    # One batch: the bot is waiting in getUpdates, and all of these are queued before it wakes.
    first = server.send_command(group, ann, "/new")
    bad = [server.queue_update(dict(p)) for p in POISON]
    last = server.send_command(group, ben, "/join")
    await bot.settle(last)
    assert bot.service is not None
    table = await bot.service.table(str(group["id"]))
    assert table is not None, "the /new before the poisoned updates was lost"
    assert [s.name for s in table.seats] == ["Ann", "Ben"], "the /join after them was lost"
    assert first["update_id"] < bad[0]["update_id"] < last["update_id"]
    logged = [r for r in caplog.records if "could not be parsed" in r.getMessage()]
    assert sorted(str(b["update_id"]) in r.getMessage() for b in bad for r in logged).count(True) == len(bad)
    assert len(logged) == len(bad)
    # Polling went on: a later update is handled too.
    later = server.send_command(group, ann, "/leave")
    await bot.settle(later)
    table = await bot.service.table(str(group["id"]))
    assert table is not None and [s.name for s in table.seats] == ["Ben"]
