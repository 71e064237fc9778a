"""Run a few lines in a fresh Python interpreter: for what only a clean start
shows (which modules a command imports, the collector's state at start-up)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def fresh_python(code: str, *, cwd: Path | None = None) -> str:
    """What `code` prints, run by this Python in a new process; a failure shows its stderr."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
