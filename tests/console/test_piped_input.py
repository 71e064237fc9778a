"""Moves read from a file or a pipe (`unobot play < moves.txt`): nothing
echoes them, so the console says each line after its prompt, and the
transcript reads as the game went."""

from __future__ import annotations

import subprocess
import sys

from .helpers import ROOT, env


def test_each_line_read_from_a_pipe_is_shown_after_its_prompt() -> None:
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "play", "--store", "memory", "--seed", "3"],
                          cwd=ROOT, env=env(), input="help\nd\nzzz\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stdout.splitlines() if line.startswith("Your move ›")]
    assert said[:3] == ["Your move › help", "Your move › d", "Your move › zzz"], said
    assert "Your move › ✗ Unknown" not in done.stdout
