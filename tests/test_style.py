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


def test_mypy_on_adapters_and_plugins() -> None:
    """Not --strict (PTB and redis-py types are loose at the edges), but clean."""
    proc = subprocess.run([sys.executable, "-m", "mypy", "adapters", "plugins"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_on_core() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "core"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
