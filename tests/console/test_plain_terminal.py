"""A terminal whose encoding is not UTF-8 (`PYTHONIOENCODING=ascii`, a Latin-1
locale): the console plays in plain characters instead of dying with a
`UnicodeEncodeError` before its first screen."""

from __future__ import annotations

import re
import subprocess
import sys

import pexpect
import pytest

from unobot.plain_text import plain

from .helpers import ROOT, clean, env


@pytest.mark.parametrize(("encoding", "lang", "prompt", "hand"), [
    ("ascii", "en", "Your move > ", "Your hand"),
    ("latin-1", "es", "Tu jugada > ", "Tu mano"),
])
def test_a_game_is_played_on_a_terminal_that_is_not_utf8(encoding: str, lang: str, prompt: str, hand: str) -> None:
    child = pexpect.spawn(sys.executable, ["-m", "unobot.cli", "play", "--store", "memory", "--seed", "3",
                                           "--lang", lang], cwd=str(ROOT), env=env(PYTHONIOENCODING=encoding),
                          encoding=encoding, dimensions=(60, 160), timeout=60)
    child.expect_exact(prompt)
    first = clean(child.before)
    assert hand in first and "Traceback" not in first
    assert re.search(r"\d+ \* ", first)  # a card you can play now: `●` spelled `*`
    child.sendline("1")
    child.expect_exact(prompt)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, clean(child.before)


def test_help_in_ascii_says_its_words_plainly() -> None:
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "play", "--help", "--lang", "es"], cwd=ROOT,
                          env=env(PYTHONIOENCODING="ascii"), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Juega al UNO" in done.stdout and "Traceback" not in done.stderr


def test_plain_spellings() -> None:
    assert plain("● Comodín roba cuatro · → ↻ ⊘") == "* Comodin roba cuatro - -> (cw) (/)"
    assert plain("🏆 Ada wins") == " Ada wins"
    assert plain("红5") == "?5"
