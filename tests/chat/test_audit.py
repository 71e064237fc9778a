"""Every game a chat plays replays from its log, on the path real games take.

Chats play through the ChatService on a real redis-server (people, AI seats,
draws and "draw, and play it", colours of Wild starters, timeouts, a player
leaving, next rounds, several variants); then `audit_table` and the
`unobot audit` command replay every stored table and must find each game
exactly as stored. A table changed behind the log's back is caught.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.audit import audit_table, replay_lines, stored_tables
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, PLAYING, Table
from unobot.chat.views import hand_view

ROOT = Path(__file__).resolve().parent.parent.parent
PEOPLE = [c.Person(str(i), f"P{i}") for i in range(1, 4)]
ADMIN = c.Person("9", "Boss", is_admin=True)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("audit-redis")).start()
    yield server
    server.stop()


def tmp_config(server: RedisServer) -> str:
    """A config file whose store prefix is this test's (`audit`)."""
    handle, path = tempfile.mkstemp(suffix=".yaml")
    with os.fdopen(handle, "w") as f:
        f.write("store:\n  prefix: audit\n")
    return path


def a_move(table: Table, person: c.Person, rnd: random.Random) -> c.Command:
    hv = hand_view(table, person.id)
    assert hv is not None
    if hv.colors:
        return c.NameColor(color=rnd.choice(["red", "green", "blue", "yellow"]))
    plays = [m for hc in hv.cards if hc.playable for m in hc.moves]
    if plays and (rnd.random() < 0.8 or not (hv.draw or hv.pass_)):
        m = rnd.choice(plays)
        color = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}.get(m.color or "")
        target = table.seats[m.target].id if m.target is not None else None
        return c.Play(m.card.text, color, target, uno=len(table.game.hands[hv.seat]) == 2)
    if hv.draw and not hv.pending and rnd.random() < 0.5:
        return c.Draw(then_play=True)
    if hv.draw:
        return c.Draw()
    assert hv.pass_ is not None
    return c.Pass()


async def play_chat(svc: ChatService, clock: Clock, chat: str, variant: str, seed: int,
                    steps: int) -> int:
    """Play `steps` actions (a finished match leaves the store, so the test
    stops while games are running, after a few rounds)."""
    rnd = random.Random(seed)
    assert (await svc.handle(chat, ADMIN, c.SetVariant(variant))).ok
    assert (await svc.handle(chat, ADMIN, c.SetRule(rule="deck", option="hand_size", value=4))).ok
    assert (await svc.handle(chat, ADMIN, c.SetRule(rule="scoring", option="target", value=1000))).ok
    assert (await svc.handle(chat, ADMIN, c.SetTimer(30))).ok
    assert (await svc.handle(chat, PEOPLE[0], c.NewGame())).ok
    for p in PEOPLE[1:]:
        assert (await svc.handle(chat, p, c.Join())).ok
    assert (await svc.handle(chat, PEOPLE[0], c.AddAI(1, "basic"))).ok
    out = await svc.handle(chat, PEOPLE[0], c.Start())
    assert out.ok
    by_id = {p.id: p for p in PEOPLE}
    left = False
    rounds = 1
    for step in range(steps):
        table = out.table
        if table.phase == BETWEEN_ROUNDS:
            out = await svc.handle(chat, PEOPLE[0], c.NextRound())
            rounds += 1
            continue
        if table.phase != PLAYING:
            break
        mover = table.seats[table.game.turn]
        if mover.is_ai:
            out = await svc.handle(chat, PEOPLE[0], c.Continue(version=table.version))
            continue
        person = by_id[mover.id]
        if step == 40 and not left:
            out = await svc.handle(chat, PEOPLE[2], c.Leave())  # someone leaves mid-game
            left = True
            continue
        if step % 23 == 5:  # the turn timer runs out
            clock.now += 31
            out = await svc.handle(chat, PEOPLE[0], c.Skip(auto=True, version=table.version))
            continue
        out = await svc.handle(chat, person, a_move(table, person, rnd))
        if not out.ok:  # refused (a race with nothing): look again
            out = await svc.handle(chat, person, c.Continue(version=table.version))
    assert out.table is not None and out.table.phase in (PLAYING, BETWEEN_ROUNDS), "the match ended early"
    assert out.table.game is not None and out.table.game.moves > 20
    return rounds


async def test_every_chat_game_replays_from_its_log(redis_server: RedisServer) -> None:
    store = RedisStore.from_url(redis_server.url, prefix="audit")
    clock = Clock()
    svc = ChatService(store, clock=clock, rng=random.Random(5))
    try:
        chats, rounds = [], 0
        for i, variant in enumerate(["official", "reglas-de-uno", "party", "fast", "example-party"]):
            chat = f"-100{i}"
            rounds += await play_chat(svc, clock, chat, variant, seed=i, steps=90 + 20 * i)
            chats.append(chat)
        assert rounds > len(chats)  # next rounds were played too
        audited = [await audit_table(store, g) async for g in stored_tables(store)]
        assert len(audited) == len(chats)
        assert all(a.ok for a in audited), [a.problem for a in audited if not a.ok]
        lines = await replay_lines(store, chats[0], "en")
        assert lines[0].startswith("     (new ") and any(line.startswith("Dealt: P1, ") for line in lines)
        # in the reader's language, with the variant's title and the cards' names as players see them
        german = await replay_lines(store, chats[0], "de")
        dealt = next(line for line in german if line.startswith("Ausgeteilt: "))
        assert "(Offizielle Regeln); erste Karte " in dealt and " official" not in dealt
        moves = [line for line in german if "ist dran" in line]
        assert moves and all("oberste Karte " in line for line in moves)
        assert any(colour in moves[0] for colour in ("Rot", "Gelb", "Grün", "Blau", "Wild", "Joker"))

        # the command says the same, as its last line
        config = tmp_config(redis_server)
        proc = subprocess.run([sys.executable, "-m", "unobot.cli", "audit", "--store", redis_server.url],
                              cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "UNOBOT_CONFIG": str(config)})
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert proc.stdout.strip().splitlines()[-1] == f"{len(chats)} games replayed, 0 mismatches"

        # a table changed behind its log's back is caught
        game_id = await store.chat_game(chats[0])
        stored = await store.load_game(game_id)
        table = Table.decode(stored.state, stored.version)
        assert table.game is not None
        table.game.hands[0].append(table.game.draw_pile.pop())
        await store.save_game(game_id, table.encode(), expected_version=stored.version, log=["adapter x"])
        result = await audit_table(store, game_id)
        assert not result.ok and "different game" in result.problem
    finally:
        await store.close()
