"""What ``redis.wait_replicas`` promises, on a real primary and replica: a save
is acknowledged only once the replica has it; when the replica does not
confirm (here it is frozen with SIGSTOP, as a partition or a stall would
leave it) the store raises :class:`StoreUnconfirmed`, the chat is told "not
confirmed yet", and later whether the move counts or was lost (a failover
to the replica that lacked it, made by hand the way Sentinel would).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from tests.support.chat_worker import command_for
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.audit import audit_table
from unobot.chat.i18n import gettext_for
from unobot.chat.outcome import Outcome
from unobot.chat.service import ChatService
from unobot.chat.unconfirmed import NOT_CONFIRMED
from unobot.store import Receipt, StoreError, StoreUnavailable, StoreUnconfirmed, log_digest


def _client(server: RedisServer) -> redis.Redis:
    return redis.Redis(host="127.0.0.1", port=server.port, socket_timeout=5)


def _replicate(replica: RedisServer, primary: RedisServer | None) -> None:
    """Make ``replica`` a replica of ``primary`` (None: a primary) and wait for its link."""
    with _client(replica) as client:
        if primary is None:
            client.execute_command("REPLICAOF", "NO", "ONE")
            return
        client.execute_command("REPLICAOF", "127.0.0.1", str(primary.port))
        deadline = time.monotonic() + 15
        while client.info("replication").get("master_link_status") != "up":
            assert time.monotonic() < deadline, "the replica never synced"
            time.sleep(0.02)


@contextlib.contextmanager
def frozen(server: RedisServer, *, cut_from: RedisServer | None = None) -> Iterator[None]:
    """The server stops dead (SIGSTOP): it reads nothing, acknowledges nothing.

    ``cut_from``: that primary also drops its link to it (CLIENT KILL TYPE
    replica), so nothing written from then on reaches it, even once it
    runs again while the primary is gone (without the cut, what the kernel
    had buffered for it arrives when it resumes): a partition."""
    assert server.process is not None
    os.kill(server.process.pid, signal.SIGSTOP)
    if cut_from is not None:
        with _client(cut_from) as client:
            client.execute_command("CLIENT", "KILL", "TYPE", "replica")
    try:
        yield
    finally:
        if server.process is not None:
            os.kill(server.process.pid, signal.SIGCONT)


@pytest.fixture
def pair(make_redis_server: Callable[[], RedisServer]) -> tuple[RedisServer, RedisServer]:
    primary, replica = make_redis_server(), make_redis_server()
    with _client(primary) as client:  # (a full sync otherwise waits 5 s for more replicas)
        client.config_set("repl-diskless-sync-delay", 0)
    _replicate(replica, primary)
    return primary, replica


async def test_a_save_the_replica_does_not_confirm_is_not_acknowledged(
    pair: tuple[RedisServer, RedisServer],
) -> None:
    primary, replica = pair
    store = RedisStore.from_url(primary.url, prefix=f"dur{uuid.uuid4().hex[:6]}",
                                wait_replicas=1, wait_timeout=1.0)
    try:
        game_id, _ = await store.create_game("-700", b"s1", log=["0 deal"])
        assert await store.save_game(game_id, b"s2", expected_version=1, log=["0 play"]) == 2
        with frozen(replica):
            with pytest.raises(StoreUnconfirmed, match="0 of 1 replicas") as raised:
                await store.save_game(game_id, b"s3", expected_version=2, log=["1 draw"])
            assert isinstance(raised.value, StoreUnavailable)  # every adapter refuses the move
            receipt = raised.value.receipt
            assert receipt == Receipt(game_id, 3, 3, log_digest(["0 deal", "0 play", "1 draw"]))
            stored = await store.load_game(game_id)  # it is on the primary, just not confirmed
            assert stored is not None and stored.version == 3
            # No "stop waiting for a while": the next save is not acknowledged either.
            started = time.monotonic()
            with pytest.raises(StoreUnconfirmed):
                await store.save_game(game_id, b"s4", expected_version=3, log=["1 pass"])
            assert time.monotonic() - started < 3.0  # one WAIT timeout (1 s), not a pause
            with pytest.raises(StoreUnconfirmed, match="still not confirmed"):
                await store.confirm_save(receipt)
        # The replica caught up: the save is confirmed now, and recorded as acknowledged.
        assert await store.confirm_save(receipt) is True
        await store.flush_acknowledgements()
        record = await store.acknowledgement(game_id)
        assert record is not None and record.version == 3 and record.digest == receipt.digest
        # A receipt of another history (what a failover to a replica without it leaves).
        assert await store.confirm_save(Receipt(game_id, 3, 3, "0" * 40)) is False
        assert await store.confirm_save(Receipt(game_id, 9, 9, receipt.digest)) is False
    finally:
        await store.close()


async def test_the_chat_hears_not_confirmed_then_kept_or_lost(
    pair: tuple[RedisServer, RedisServer],
) -> None:
    """A move the replica did not confirm: "not confirmed yet"; the replica
    catches up: "counts". Another, and its primary dies before the replica has
    it; the replica is promoted (by hand, as Sentinel would) and the old primary
    comes back as its copy: that move "was lost", the game goes on without it,
    and the audit passes (it never was acknowledged)."""
    primary, replica = pair
    store = RedisStore.from_url(primary.url, prefix=f"durchat{uuid.uuid4().hex[:6]}",
                                wait_replicas=1, wait_timeout=1.0, socket_timeout=2.0)
    svc = ChatService(store)
    chat = "-701"
    ann, ben = c.Person("1", "Ann"), c.Person("2", "Ben", lang="es")
    try:
        assert (await svc.handle(chat, ann, c.NewGame())).ok
        assert (await svc.handle(chat, ben, c.Join())).ok
        started = await svc.handle(chat, ann, c.Start())
        assert started.ok and started.table is not None

        people = {ann.id: ann, ben.id: ben}

        rnd = random.Random(3)

        async def draw() -> Outcome:
            """The seat to move makes a legal move (so every call is a change)."""
            table = await svc.table(chat)
            assert table is not None and table.game is not None
            who = people[table.seats[table.game.turn].id]
            return await svc.handle(chat, who, command_for(table, who.id, rnd))

        async def version() -> int:
            table = await svc.table(chat)
            assert table is not None
            return table.version

        with frozen(replica):
            out = await draw()
        assert not out.ok and out.code == "store_unconfirmed"
        assert out.error in (gettext_for("en")(NOT_CONFIRMED), gettext_for("es")(NOT_CONFIRMED))
        assert gettext_for("es")(NOT_CONFIRMED).startswith("Aún sin confirmar")
        version_kept = await version()
        out = await draw()  # the replica is back
        assert any("counts" in n or "cuenta" in n for n in out.notices), out.notices

        before = await version()
        assert before > version_kept
        with frozen(replica, cut_from=primary):
            out = await draw()
            assert out.code == "store_unconfirmed"
            primary.kill()  # dies with that move only on itself
        _replicate(replica, None)  # promoted
        primary.start()  # back, empty (no persistence), and made the new primary's copy
        _replicate(primary, replica)
        # The roles swap back (the store names the first address): the copy that
        # lacks the move is what the primary's address serves now.
        _replicate(primary, None)
        _replicate(replica, primary)
        assert await version() == before
        lost = await svc.settle_unconfirmed(chat, "es")
        assert len(lost) == 1 and "se perdió" in lost[0], lost
        assert not svc.unconfirmed.waiting(chat)
        game_id = await store.chat_game(chat)
        assert game_id is not None
        await store.flush_acknowledgements()
        result = await audit_table(store, game_id)
        assert result.ok, result.problem
    finally:
        await store.close()


async def test_wait_aof_is_refused_at_start_by_a_server_that_cannot_do_it(
    make_redis_server: Callable[[], RedisServer],
) -> None:
    """``redis.wait_aof``: a server without WAITAOF (before 7.2), or without an
    append-only file, is named at start-up with what to change, never at
    every save."""
    server = make_redis_server()
    store = RedisStore.from_url(server.url, prefix="aof", wait_aof=True)
    try:
        with pytest.raises(StoreError, match="redis.wait_aof") as raised:
            await store.ping()
        assert not isinstance(raised.value, StoreUnavailable)
        assert ("WAITAOF" in str(raised.value) or "appendonly" in str(raised.value))
    finally:
        await store.close()


async def test_wait_replicas_on_the_embedded_server_is_refused_at_start(tmp_path: Path) -> None:
    """The embedded server has no replicas and never can (a socket file, no TCP
    port): with ``redis.wait_replicas: 1`` every move was answered "not
    confirmed yet", forever. Refused at start-up with what to change, and the
    server this start launched is stopped again."""
    from unobot.adapters.store_factory import open_store

    with pytest.raises(StoreError, match=r"redis.wait_replicas: 1, but the embedded Redis has no replicas") \
            as raised:
        opened = await open_store(None, data_dir=tmp_path, prefix="emb", wait_replicas=1)
        await opened.close()  # (not refused: stop the server it started, then fail)
    assert not isinstance(raised.value, StoreUnavailable)
    assert not (tmp_path / "redis" / "redis.pid").exists() or not _alive(tmp_path / "redis" / "redis.pid")


def _alive(pid_file: Path) -> bool:
    try:
        os.kill(int(pid_file.read_text().strip()), 0)
    except (OSError, ValueError):
        return False
    return True


async def test_wait_replicas_says_at_start_which_primary_lacks_replicas(
    pair: tuple[RedisServer, RedisServer], make_redis_server: Callable[[], RedisServer],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A server of the operator's may be between replicas: served, and said once
    in the log (which server, how many), not discovered move by move."""
    primary, _replica = pair
    lone = make_redis_server()
    for server, warned in ((primary, False), (lone, True)):
        caplog.clear()
        store = RedisStore.from_url(server.url, prefix="rep", wait_replicas=1)
        try:
            await store.ping()
        finally:
            await store.close()
        said = [r.getMessage() for r in caplog.records if "connected replica" in r.getMessage()]
        assert bool(said) is warned, said
        if warned:
            assert said == [f"redis.wait_replicas is 1, but 127.0.0.1:{lone.port} has 0 connected replica(s): "
                            "every move there is answered 'not confirmed yet' until enough replicas are back"]


async def test_an_acknowledgement_record_shows_moves_lost_behind_a_clean_replay(
    make_redis_server: Callable[[], RedisServer],
) -> None:
    """A log that lost its last acknowledged entries still replays; the audit
    tells it from a clean game by the acknowledgement record."""
    server = make_redis_server()
    store = RedisStore.from_url(server.url, prefix=f"ack{uuid.uuid4().hex[:6]}", ack_records=True)
    svc = ChatService(store)
    chat = "-702"
    ann, ben = c.Person("1", "Ann"), c.Person("2", "Ben")
    try:
        assert (await svc.handle(chat, ann, c.NewGame())).ok
        assert (await svc.handle(chat, ben, c.Join())).ok
        assert (await svc.handle(chat, ann, c.Start())).ok
        game_id = await store.chat_game(chat)
        assert game_id is not None
        await store.flush_acknowledgements()
        assert (await audit_table(store, game_id)).ok
        names = store.keys.game(game_id)
        # What a failover that lost the last save would leave: the state and log of before.
        stored = await store.load_game(game_id)
        assert stored is not None
        old_log = await store.read_log(game_id)
        await store.client.rpop(names.log)
        record = await store.acknowledgement(game_id)
        assert record is not None and record.log_length == len(old_log)
        result = await audit_table(store, game_id)
        assert not result.ok and "acknowledged moves lost" in result.problem
        await store.client.rpush(names.log, "0 something else")
        result = await audit_table(store, game_id)
        assert not result.ok and "acknowledged moves replaced" in result.problem
    finally:
        await store.close()
