"""A bot process is SIGKILLed mid-play; a fresh process resumes every game where it stood.

The bot stand-in (``tests/support/store_worker.py play``) deals games in six
chats and plays them round-robin through GameService, printing a line after
every save the store acknowledged. It is killed without warning; a new
process (``resume``) finds each chat's game through its chat binding, loads
it and plays it to the end. Then every game must be exactly what its log
replays to, and no acknowledged move may be missing.

Run against a redis-server started by the fixture, and against the embedded
default (no URL, a data dir): there the killed bot leaves its server
running and the new process reuses it; in the harsher variant the server is
SIGKILLed too (a machine crash) and the new process starts a fresh one from
the append-only file (``appendfsync always``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.support.redis_server import RedisServer
from unobot.adapters.embedded_redis import ADDRESS_NAME, pid_alive
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.store_factory import EMBEDDED_SUBDIR, open_store
from unobot.service import audit
from unobot.state import PLAYING
from unobot.store import Store

ROOT = Path(__file__).resolve().parents[2]
CHATS = 6
KILL_AFTER = 40  # acknowledged moves before the SIGKILL
TIMEOUT = 90


def _worker(mode: str, *options: str) -> list[str]:
    return [sys.executable, "-m", "tests.support.store_worker", mode, "--chats", str(CHATS),
            *options]


def play_and_kill(options: list[str]) -> tuple[dict[str, str], dict[str, int]]:
    """Start the bot, SIGKILL it after KILL_AFTER acknowledged moves.

    Returns chat -> game id, and game id -> the last version it printed as saved.
    """
    proc = subprocess.Popen(_worker("play", *options), cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    chats: dict[str, str] = {}
    acked: dict[str, int] = {}
    moves = 0
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            words = line.split()
            if words[:1] == ["created"]:
                chats[words[1]] = words[2]
            elif words[:1] == ["moved"]:
                acked[words[1]] = int(words[2])
                moves += 1
                if moves >= KILL_AFTER:
                    proc.send_signal(signal.SIGKILL)
                    break
            elif words[:2] == ["all", "ended"]:
                raise AssertionError("the games ended before the kill: make them longer")
        else:
            raise AssertionError(f"the bot stopped early:\n{proc.stderr.read() if proc.stderr else ''}")
        rest, _ = proc.communicate(timeout=TIMEOUT)  # lines printed before it died still count
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    for line in rest.splitlines():
        words = line.split()
        if words[:1] == ["moved"]:
            acked[words[1]] = int(words[2])
    assert len(chats) == CHATS
    return chats, acked


def resume(options: list[str]) -> dict[str, object]:
    done = subprocess.run(_worker("resume", *options), cwd=ROOT, capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


async def check_resumed(store: Store, chats: dict[str, str], acked: dict[str, int],
                        resumed: dict[str, object]) -> None:
    games = resumed["games"]
    assert isinstance(games, dict)
    in_the_middle = 0
    for chat, game_id in chats.items():
        found = games[chat]
        assert found is not None, f"{chat}: the binding was lost"
        assert found["game_id"] == game_id
        # It resumed where it stood: at or after every acknowledged save (one more save may
        # have landed whose acknowledgement the kill swallowed), never before.
        last = acked.get(game_id, 1)
        assert last <= found["resumed_at_version"] <= last + 1, (chat, last, found)
        in_the_middle += found["resumed_at_moves"] > 0
        checked = await audit(store, game_id)
        assert checked.state.phase != PLAYING
        assert checked.state.moves == found["final_moves"]
        assert checked.entries - 1 == checked.state.moves
    assert in_the_middle >= CHATS // 2, "the kill did not land in the middle of play"


async def test_resume_after_sigkill_on_a_redis_server(redis_server: RedisServer) -> None:
    prefix = f"restart{uuid.uuid4().hex[:6]}"
    options = ["--url", redis_server.url, "--prefix", prefix]
    chats, acked = play_and_kill(options)
    resumed = resume(options)
    store = RedisStore.from_url(redis_server.url, prefix=prefix)
    try:
        await check_resumed(store, chats, acked, resumed)
    finally:
        for game_id in chats.values():
            await store.delete_game(game_id)
        await store.close()


def _server_pid(data_dir: Path) -> int | None:
    try:
        return int(json.loads((data_dir / EMBEDDED_SUBDIR / ADDRESS_NAME).read_text())["pid"])
    except (OSError, ValueError, KeyError):
        return None


@pytest.mark.parametrize("crash", ["bot", "bot-and-server"])
async def test_resume_after_sigkill_on_the_embedded_default(tmp_path: Path, crash: str) -> None:
    data_dir = tmp_path / "data"
    options = ["--data-dir", str(data_dir)]
    try:
        chats, acked = play_and_kill(options)
        orphan = _server_pid(data_dir)
        assert orphan is not None and pid_alive(orphan), "the bot's embedded server should outlive it"
        if crash == "bot-and-server":
            os.kill(orphan, signal.SIGKILL)
        resumed = resume(options)
        if crash == "bot":
            assert resumed["reused_server"] is True and resumed["server_pid"] == orphan
        else:
            assert resumed["reused_server"] is False and resumed["server_pid"] != orphan
        assert not pid_alive(orphan)  # killed, or stopped by the resumer that reused it
        store = await open_store(None, data_dir=data_dir)  # a third start: data still there
        try:
            await check_resumed(store, chats, acked, resumed)
        finally:
            await store.close()
    finally:
        leftover = _server_pid(data_dir)
        if leftover is not None and pid_alive(leftover):
            os.kill(leftover, signal.SIGKILL)
