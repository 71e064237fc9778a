"""Two terminals of one login open one table: the second is told, and changes nothing.

Before, both played the same chat: each showed a hand the other had since
changed (a number typed in one played another card than the one on its
screen), and a second start answering "no" to resuming deleted the game
the first was playing. Now the first console claims its table in the store
(adapters/console/claim.py); a second one says where it is open, in the
player's language, and exits 1; after a `quit`, or once the first process
is gone without a word (killed), the table is free again. Real processes
on a real Redis, through ptys.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pexpect

from tests.support.redis_server import RedisServer

from .helpers import PROMPT, clean, spawn

MINE = ("--seed", "4", "--delay", "0", "--name", "Tess", "--rounds", "1")


def test_a_second_console_is_told_the_table_is_open_elsewhere(server: RedisServer) -> None:
    first = spawn("--store", server.url, *MINE)
    try:
        first.expect("Your move " + PROMPT)
        second = spawn("--store", server.url, *MINE, LANG="es_ES.UTF-8")
        second.expect(pexpect.EOF)
        second.close()
        said = " ".join(clean(second.before).split())
        assert f"Tu partida está abierta en otro terminal (proceso {first.pid})." in said, said
        assert "Traceback" not in said and "Reanudar" not in said and "¿" not in said, said
        assert second.exitstatus == 1
        # the first one plays on, its game untouched
        first.sendline("d")
        first.expect(PROMPT)
        first.sendline("quit")
        first.expect("Game saved")
        first.expect(pexpect.EOF)
    finally:
        first.close()
    # quit gave the table up: it resumes here, and a killed console does not keep it
    again = spawn("--store", server.url, "--resume", "--delay", "0", "--name", "Tess")
    again.expect("Welcome back")
    again.expect(PROMPT)
    again.kill(signal.SIGKILL)
    again.close()
    after = spawn("--store", server.url, "--resume", "--delay", "0", "--name", "Tess")
    try:
        after.expect("Welcome back")
        after.expect(PROMPT)
        after.sendline("quit")
        after.expect(pexpect.EOF)
    finally:
        after.close()


def test_the_second_console_leaves_the_first_ones_embedded_store_running(tmp_path: Path) -> None:
    """The default set-up: both consoles use the embedded server of one data
    folder. The second one, told and gone, must not take the server with it
    (adapters/embedded_redis.py: the last user stops it)."""
    data = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    first = spawn(*MINE, **data)
    try:
        first.expect("Your move " + PROMPT)
        second = spawn(*MINE, **data)
        second.expect(pexpect.EOF)
        second.close()
        assert second.exitstatus == 1
        first.sendline("d")
        first.expect(PROMPT)
        said = clean(first.before)
        assert "not reachable" not in said and "You drew" in said, said
        first.sendline("quit")
        first.expect("Game saved")
        first.expect(pexpect.EOF)
    finally:
        first.close()
