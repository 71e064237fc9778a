"""The console while its Redis is down, through a pty as a person plays: the
player reads the translated store message, and only that (the operators'
log line goes to the data folder's console.log, not over the game), and
play goes on when Redis is back."""

from __future__ import annotations

from pathlib import Path

import pexpect

from tests.support.redis_server import RedisServer
from unobot.chat.render import error_text

from .helpers import PROMPT, clean, spawn


def test_a_store_outage_shows_the_players_message_not_the_log(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis").start()
    data = tmp_path / "data"
    child = spawn("--store", server.url, "--data-dir", str(data), "--lang", "de", "--seed", "3",
                  "--players", "2", "--delay", "0")
    try:
        child.expect(PROMPT, timeout=90)
        server.stop()
        child.sendline("d")  # draw: refused, the store cannot be reached
        child.expect(PROMPT, timeout=30)
        shown = clean(child.before)
        assert error_text("store_unavailable", "de") in shown, shown
        assert "chat console" not in shown and "redis unavailable" not in shown, shown
        server.start()
        child.sendline("d")
        child.expect(PROMPT, timeout=30)
        assert error_text("store_unavailable", "de") not in clean(child.before)
        child.sendline("q")
        child.expect(pexpect.EOF, timeout=60)
    finally:
        child.close()
        server.stop()
    log = (data / "console.log").read_text(encoding="utf-8")
    assert "the store is not reachable, command refused" in log, log
