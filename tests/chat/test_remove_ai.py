"""An AI seat taken out of the lobby: core's menu offers it to the creator and
the admins (one choice an AI seat), every front-end renders that action, and
a seat added afterwards never takes the id of one still seated.

Before, an AI seat added by mistake could only go with the whole lobby
(/stop, then /new): no front-end offered a way to remove it."""

from __future__ import annotations

import random

from unobot.chat import actions
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.store import MemoryStore

ANN, BEN = c.Person("1", "Ann"), c.Person("2", "Ben")


async def lobby_with_two_ais() -> ChatService:
    svc = ChatService(MemoryStore(), rng=random.Random(1))
    assert (await svc.handle("g", ANN, c.NewGame())).ok
    assert (await svc.handle("g", BEN, c.Join())).ok
    assert (await svc.handle("g", ANN, c.AddAI(1, level="expert"))).ok
    assert (await svc.handle("g", ANN, c.AddAI(1, level="easy"))).ok
    return svc


async def test_the_creator_and_an_admin_are_offered_each_ai_seat_to_remove() -> None:
    svc = await lobby_with_two_ais()
    table = await svc.table("g")
    assert table is not None
    ais = [s for s in table.seats if s.is_ai]
    for person, admin in ((ANN.id, False), ("boss", True)):
        [remove] = [a for a in actions.menu(table, person, "en", is_admin=admin).grouped()
                    if a.kind == actions.REMOVE_AI]
        assert remove.needs == ("target",) and remove.label == "✖ Remove an AI player"
        assert [ch.code for ch in remove.choices] == [s.id for s in ais]
        assert [ch.label for ch in remove.choices] == ["✖ " + s.name for s in ais]
        assert [actions.decode(ch.id) for ch in remove.choices] == [c.Kick(target=s.id) for s in ais]
    # A seated player who did not open the lobby may add AI seats, not take them out.
    assert not [a for a in actions.menu(table, BEN.id, "en").actions if a.kind == actions.REMOVE_AI]
    # The public message offers it (the service judges who presses).
    assert [a.kind for a in actions.public_actions(table, "es")].count(actions.REMOVE_AI) == 1
    public = next(a for a in actions.public_actions(table, "es") if a.kind == actions.REMOVE_AI)
    assert public.label == "✖ Quitar un jugador IA"


async def test_a_pick_removes_that_seat_and_only_the_creator_or_an_admin_may() -> None:
    svc = await lobby_with_two_ais()
    table = await svc.table("g")
    assert table is not None
    expert = next(s for s in table.seats if s.level == "expert")
    cmd = actions.decode(actions.encode(c.Kick(target=expert.id)))
    assert cmd == c.Kick(target=expert.id)
    refused = await svc.handle("g", BEN, cmd)
    assert not refused.ok and refused.code == "not_allowed_admin"
    done = await svc.handle("g", ANN, cmd)
    assert done.ok
    table = await svc.table("g")
    assert table is not None and [s.level for s in table.seats if s.is_ai] == ["easy"]
    assert f"{expert.name} was removed from the game." in " ".join(done.notices)
    # The last AI seat gone, nothing is left to offer.
    easy = next(s for s in table.seats if s.is_ai)
    assert (await svc.handle("g", c.Person("boss", "Boss", None, True), c.Kick(target=easy.id))).ok
    table = await svc.table("g")
    assert table is not None
    assert not [a for a in actions.menu(table, ANN.id, "en").actions if a.kind == actions.REMOVE_AI]


async def test_a_seat_added_after_a_removal_gets_an_id_of_its_own() -> None:
    """The id counted the AI seats left: with ai:1 gone, the next was ai:2 again."""
    svc = await lobby_with_two_ais()
    assert (await svc.handle("g", ANN, c.Kick(target="ai:1"))).ok
    assert (await svc.handle("g", ANN, c.AddAI(2))).ok
    table = await svc.table("g")
    assert table is not None
    ids = [s.id for s in table.seats]
    assert len(ids) == len(set(ids)) == 5, ids
    names = [s.name for s in table.seats]
    assert len(names) == len(set(names)), names


def test_an_empty_remove_id_names_no_seat() -> None:
    assert actions.decode("x") is None
    assert actions.decode("xai:3", version=7) == c.Kick(target="ai:3")  # lobby ids carry no version
