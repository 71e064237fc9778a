"""Style gates: ruff on the whole project, mypy --strict on core, mypy on adapters and plugins."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean() -> None:
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "core", "adapters", "plugins", "tests", "bench", "run.py", "docs"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def package_tree(where: Path, *, with_adapters: bool) -> Path:
    """The `unobot` package as it installs (core/ is `unobot`, adapters/ is
    `unobot.adapters`, ...), laid out with symlinks so mypy, which runs no
    import hooks, sees the names the code imports."""
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


def mypy(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", *args],
                          cwd=tree, capture_output=True, text=True)


def test_mypy_on_adapters_and_plugins(tmp_path: Path) -> None:
    """Not --strict (PTB and redis-py types are loose at the edges), but clean."""
    tree = package_tree(tmp_path, with_adapters=True)
    proc = mypy(tree, "-p", "unobot.adapters", "-p", "unobot.plugins")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


def test_mypy_strict_on_core(tmp_path: Path) -> None:
    tree = package_tree(tmp_path, with_adapters=False)
    proc = mypy(tree, "--strict", "-p", "unobot")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
