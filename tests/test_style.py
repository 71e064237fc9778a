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


def typecheck(part: str) -> subprocess.CompletedProcess[str]:
    """`python3 run.py typecheck PART`, as a person runs it: mypy on the package as
    it installs (the editable install's import hook hides it from mypy itself),
    with pyproject.toml's [tool.mypy] settings."""
    return subprocess.run([sys.executable, str(ROOT / "run.py"), "typecheck", part],
                          cwd=ROOT, capture_output=True, text=True)


def test_mypy_on_adapters_and_plugins() -> None:
    """Not --strict (PTB and redis-py types are loose at the edges), but clean."""
    proc = typecheck("adapters")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "-p unobot.adapters" in proc.stdout


def test_mypy_strict_on_core() -> None:
    proc = typecheck("core")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "--strict -p unobot" in proc.stdout
