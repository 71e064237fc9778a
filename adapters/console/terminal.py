"""Reading what the person types, with a deadline when a turn timer runs.

Why not just `input()`: a variant with a turn timer (`fast`) must let the
turn run out while the person is still thinking. With a deadline the line
is read after `select` says one is ready (the terminal's own line editing
still works); without one, `input()` is used, with readline history when
it is available.
"""

from __future__ import annotations

import contextlib
import re
import select
import sys
from collections.abc import Iterator
from typing import TextIO

from rich.console import Console
from rich.text import Text

#: An ANSI escape sequence, to be wrapped in readline's "takes no width" markers.
_ESCAPE = re.compile(r"(\x1b\[[0-9;]*[A-Za-z])")


class LineReader:
    """Prints a prompt and reads one line; EOF (Ctrl-D) raises EOFError."""

    def __init__(self, console: Console, stream: TextIO | None = None) -> None:
        self.console = console
        self.stream = stream or sys.stdin
        self.readline = False
        if self.stream is sys.stdin and self.stream.isatty():
            try:  # line editing and history for input(); optional
                import readline  # noqa: F401

                self.readline = True
            except ImportError:  # pragma: no cover - not on every platform
                pass

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        """While the other players move: typed text is not echoed into the log,
        and is dropped when the pause ends (the person types at the next prompt)."""
        try:
            import termios

            fd = self.stream.fileno()
            if not self.stream.isatty():
                raise OSError
            saved = termios.tcgetattr(fd)
        except (ImportError, OSError, ValueError):  # not a terminal: nothing is echoed anyway
            yield
            return
        quiet = termios.tcgetattr(fd)
        quiet[3] &= ~termios.ECHO
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
        try:
            yield
        finally:
            termios.tcflush(fd, termios.TCIFLUSH)
            termios.tcsetattr(fd, termios.TCSANOW, saved)

    def read(self, prompt: Text, timeout: float | None = None) -> str | None:
        """The typed line without its newline; None if `timeout` seconds passed first."""
        if timeout is None and self.readline:
            # readline must print the prompt itself: it redraws it while editing,
            # and only then ends an empty line with a newline.
            with self.console.capture() as captured:
                self.console.print(prompt, end="")
            return input(_ESCAPE.sub("\001\\1\002", captured.get()))
        self.console.print(prompt, end="")
        self.console.file.flush()
        if timeout is None:
            line = self.stream.readline()
        else:
            ready, _w, _x = select.select([self.stream], [], [], max(0.0, timeout))
            if not ready:
                self.console.print()
                return None
            line = self.stream.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")
