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
from typing import Any, TextIO

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
        self._saved: list[Any] | None = None  # the terminal as it was, during a `session`
        if self.stream is sys.stdin and self.stream.isatty():
            try:  # line editing and history for input(); optional
                import readline  # noqa: F401

                self.readline = True
            except ImportError:  # pragma: no cover - not on every platform
                pass

    def _attrs(self) -> list[Any] | None:
        """The terminal's settings, or None when the stream is no terminal."""
        try:
            import termios

            if not self.stream.isatty():
                return None
            return termios.tcgetattr(self.stream.fileno())
        except (ImportError, OSError, ValueError):
            return None

    def _set(self, attrs: list[Any], drop_typed: bool = False) -> None:
        import termios

        fd = self.stream.fileno()
        if drop_typed:
            termios.tcflush(fd, termios.TCIFLUSH)
        termios.tcsetattr(fd, termios.TCSANOW, attrs)

    def _quiet(self, attrs: list[Any]) -> list[Any]:
        import termios

        quiet = [list(a) if isinstance(a, list) else a for a in attrs]  # cc (the control characters) copied
        quiet[3] = int(attrs[3]) & ~termios.ECHO  # lflag
        return quiet

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        """The whole game: what is typed shows only at a prompt. Between prompts
        (while the other players move) typing is neither echoed into the log
        nor kept: the next prompt starts empty. The terminal is set back as it
        was at the end, however the game ends."""
        saved = self._attrs()
        if saved is None:  # not a terminal: nothing is echoed anyway
            yield
            return
        self._saved = saved
        self._set(self._quiet(saved))
        try:
            yield
        finally:
            self._saved = None
            self._set(saved)

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        """While the other players move, outside a `session`: typed text is not
        echoed into the log, and is dropped when the pause ends."""
        if self._saved is not None:  # the session holds it already
            yield
            return
        saved = self._attrs()
        if saved is None:
            yield
            return
        self._set(self._quiet(saved))
        try:
            yield
        finally:
            self._set(saved, drop_typed=True)

    def read(self, prompt: Text, timeout: float | None = None) -> str | None:
        """The typed line without its newline; None if `timeout` seconds passed first."""
        saved = self._saved
        if saved is None:
            return self._read(prompt, timeout)
        self._set(saved, drop_typed=True)  # echo on for the prompt; what was typed before it, gone
        try:
            return self._read(prompt, timeout)
        finally:
            self._set(self._quiet(saved))

    def _read(self, prompt: Text, timeout: float | None) -> str | None:
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
        line = line.rstrip("\r\n")
        if not self._is_terminal():
            # Read from a file or a pipe: nothing echoed it, so the transcript
            # showed a prompt followed by the next move ("Your move ›   · Root
            # drew a card."), never what was answered. Said after the prompt,
            # as a terminal would have shown it.
            self.console.print(Text(line), highlight=False)
        return line

    def _is_terminal(self) -> bool:
        try:
            return self.stream.isatty()
        except (OSError, ValueError):
            return False
