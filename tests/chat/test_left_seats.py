"""A seat whose player left is shown as gone, not as one who went out by
playing a last card, and a lobby whose creator left says who may start."""

from __future__ import annotations

import random

from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.status_text import status_text
from unobot.chat.views import status_lines, table_view
from unobot.store import MemoryStore

ANA = c.Person("1", "Ana")
BEN = c.Person("2", "Ben")
CID = c.Person("3", "Cid")
CHAT = "group-left"


async def seated(*people: c.Person) -> ChatService:
    svc = ChatService(MemoryStore(), rng=random.Random(3))
    assert (await svc.handle(CHAT, people[0], c.NewGame())).ok
    for p in people[1:]:
        assert (await svc.handle(CHAT, p, c.Join())).ok
    return svc


async def test_a_player_who_left_a_round_is_shown_as_gone_not_out() -> None:
    svc = await seated(ANA, BEN, CID)
    assert (await svc.handle(CHAT, ANA, c.Start())).ok
    out = await svc.handle(CHAT, CID, c.Leave())
    assert out.ok, out.error
    view = table_view(out.table, "en")
    cid = next(p for p in view.players if p.name == "Cid")
    assert cid.has_left and not cid.is_out
    assert not any(p.has_left for p in view.players if p.name != "Cid")
    line = next(t for t in status_lines(view, "en") if "Ana" in t and "Cid" in t)
    assert "Cid (left the game)" in line and "Cid (0)" not in line and "✓" not in line
    es = " ".join(status_lines(table_view(out.table, "es"), "es"))
    assert "Cid (dejó la partida)" in es


async def test_the_lobby_names_who_presses_start_and_follows_the_creator_leaving() -> None:
    svc = await seated(ANA, BEN, CID)
    before = "\n".join(status_text(await svc.table(CHAT)).lines)  # type: ignore[arg-type]
    assert "Ana presses Start" in before
    out = await svc.handle(CHAT, ANA, c.Leave())
    assert out.ok, out.error
    after = "\n".join(status_text(out.table).lines)
    assert "Ben presses Start" in after and "Ana" not in after
    assert (await svc.handle(CHAT, CID, c.Start())).code == "not_allowed_admin"
    assert (await svc.handle(CHAT, BEN, c.Start())).ok  # and it is Ben who may


async def test_a_lobby_opened_without_its_creator_seated_says_anyone_seated_may_start() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(3))
    assert (await svc.handle(CHAT, ANA, c.NewGame(join=False))).ok
    for p in (BEN, CID):
        assert (await svc.handle(CHAT, p, c.Join())).ok
    table = await svc.table(CHAT)
    assert table is not None
    text = "\n".join(status_text(table).lines)
    assert "anyone seated can press Start" in text
    table.lang = "es"
    assert "cualquiera que esté sentado puede pulsar Empezar" in " ".join(status_text(table).lines)
    assert (await svc.handle(CHAT, CID, c.Start())).ok


async def test_stop_is_offered_to_the_creator_and_admins_only_and_its_id_stops() -> None:
    from unobot.chat.actions import STOP, decode, menu

    svc = await seated(ANA, BEN)
    assert (await svc.handle(CHAT, ANA, c.Start())).ok
    table = await svc.table(CHAT)
    assert table is not None
    stop = menu(table, ANA.id, "es").stop
    assert stop is not None and stop.kind == STOP and stop.confirm == "¿Detener la partida para todos?"
    assert stop not in menu(table, ANA.id).actions  # apart from the moves
    assert menu(table, BEN.id).stop is None
    assert menu(table, "someone", is_admin=True).stop is not None
    cmd = decode(stop.id, table.version - 5)  # no version: a stop ends the game at any move
    assert isinstance(cmd, c.Stop) and cmd.version is None
    assert (await svc.handle(CHAT, BEN, cmd)).code == "not_allowed_admin"
    assert (await svc.handle(CHAT, ANA, cmd)).ok
    assert await svc.table(CHAT) is None


async def test_the_order_of_play_reads_right_to_left_in_arabic() -> None:
    """The seats line points from each player to the next: in Arabic the line is
    written right to left (a right-to-left mark first) and its arrows turn."""
    svc = await seated(ANA, BEN, CID)
    table = (await svc.handle(CHAT, ANA, c.Start())).table
    assert table is not None and table.game is not None
    en = next(t for t in status_lines(table_view(table, "en"), "en") if "Ben" in t and "Cid" in t)
    ar = next(t for t in status_lines(table_view(table, "ar"), "ar") if "Ben" in t and "Cid" in t)
    forward = table.game.direction == 1
    assert ("→" in en) == forward and ("←" in en) != forward
    assert ar.startswith("\u200f") and ("←" in ar) == forward and ("→" in ar) != forward
    assert ar[1:].replace("←", "→") == en or ar[1:].replace("→", "←") == en


async def test_leave_under_way_is_offered_apart_to_a_seated_player_until_they_left() -> None:
    from unobot.chat.actions import LEAVE, decode, menu

    svc = await seated(ANA, BEN, CID)
    table = await svc.table(CHAT)
    assert table is not None and menu(table, CID.id).leave is None  # the lobby's Leave is a plain action
    table = (await svc.handle(CHAT, ANA, c.Start())).table
    assert table is not None
    leave = menu(table, CID.id, "es").leave
    assert leave is not None and leave.kind == LEAVE and leave not in menu(table, CID.id).actions
    assert leave.confirm.startswith("¿Dejar esta partida")
    assert menu(table, "watcher").leave is None
    out = await svc.handle(CHAT, CID, decode(leave.id, table.version))  # type: ignore[arg-type]
    assert out.ok and out.table is not None
    assert menu(out.table, CID.id).leave is None and menu(out.table, BEN.id).leave is not None


async def test_a_leave_under_way_is_said_once_in_the_status_by_the_seats_name() -> None:
    from unobot.chat.status_text import status_text

    svc = await seated(ANA, BEN, CID)
    assert (await svc.handle(CHAT, ANA, c.Start())).ok
    out = await svc.handle(CHAT, CID, c.Leave())
    assert out.ok and out.table is not None
    lines = status_text(out.table, notes=out.notices).lines
    assert sum("Cid left" in line for line in lines) == 1, lines


async def test_next_round_in_a_lobby_says_the_game_has_not_started() -> None:
    svc = await seated(ANA, BEN)
    out = await svc.handle(CHAT, ANA, c.NextRound())
    assert out.code == "not_started", out
