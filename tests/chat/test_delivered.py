"""A platform's delivery sent again after it changed a table is known by that
table (`unobot.chat.delivered`): the service answers it `repeated`, changing
nothing and saying nothing, whichever process handles it. Without a delivery
key (polling, a gateway, a web page) nothing changes."""

from __future__ import annotations

import random

from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.delivery import redelivered
from unobot.store import MemoryStore

ANN = c.Person("1", "Ann")
BEN = c.Person("2", "Ben")


async def test_a_delivery_made_again_is_answered_repeated_and_changes_nothing() -> None:
    store = MemoryStore()
    first, second = (ChatService(store, rng=random.Random(i)) for i in (1, 2))  # two processes
    with redelivered(key="telegram:1:10"):
        opened = await first.handle("-5", ANN, c.NewGame())
    with redelivered(key="telegram:1:11"):
        joined = await first.handle("-5", BEN, c.Join())
    assert opened.ok and joined.ok and joined.table is not None
    for key, person, command in (("telegram:1:10", ANN, c.NewGame()), ("telegram:1:11", BEN, c.Join())):
        with redelivered(key=key):
            again = await second.handle("-5", person, command)
        assert again.ok and again.repeated and not again.changed, again
    table = await second.table("-5")
    assert table is not None and table.version == joined.table.version and [s.name for s in table.seats] == ["Ann", "Ben"]
    # Another delivery of the same command is a command of its own: refused as ever.
    with redelivered(key="telegram:1:12"):
        other = await second.handle("-5", BEN, c.Join())
    assert not other.ok and not other.repeated
    # No key (polling): refused as ever too.
    plain = await second.handle("-5", ANN, c.NewGame())
    assert not plain.ok and plain.code in ("lobby_open", "game_running")
