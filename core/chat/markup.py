"""Texts with a little emphasis, for any platform's markup: each line a run
of spans, plain, bold or code.

Why in core: the front-ends write the same texts with the same emphasis:
a reading command's answer under its title in bold, the help (its title,
how to play there, each command), the rules in words (built by
`settings_menu.rules_lines`), a member's panel (`hand_text.hand_lines`).
Discord wrote them in Markdown and Telegram in HTML, each with its own
escaping, each text twice. Here a text is built once as `Line`s; a front-end only says how it
escapes and marks (`Markup`) and writes them with `Markup.text`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .i18n import N_, gettext_for

PLAIN, BOLD, CODE = "plain", "bold", "code"
#: A run of text in one style: (style, text).
Span = tuple[str, str]
Line = list[Span]

HELP_TITLE = N_("UNO here")


def plain(text: str) -> Line:
    return [(PLAIN, text)]


def bold(text: str) -> Line:
    return [(BOLD, text)]


@dataclass(frozen=True)
class Markup:
    """How a platform writes text: `esc` makes a text literal, `marks` opens
    and closes each style that is not plain (Markdown's `**`, HTML's `<b>`),
    and the styles in `verbatim` are not escaped (Markdown's code is
    literal already: a backslash in it would show)."""

    esc: Callable[[str], str]
    marks: dict[str, tuple[str, str]]
    verbatim: frozenset[str] = frozenset()

    def span(self, style: str, text: str) -> str:
        start, end = self.marks.get(style, ("", ""))
        return start + (text if style in self.verbatim else self.esc(text)) + end

    def line(self, line: Line) -> str:
        return "".join(self.span(style, text) for style, text in line)

    def text(self, lines: Iterable[Line]) -> str:
        return "\n".join(map(self.line, lines))

    def fit(self, lines: Iterable[Line], limit: int) -> str:
        """`text` within `limit` characters: whole lines, then "…" on a line of
        its own where lines were left out. Why not cut the text at the limit:
        a cut inside a bold run leaves its mark open (Markdown's `**`, HTML's
        `<b>`), which the platform refuses or shows as stars."""
        out: list[str] = []
        size = 0
        for line in lines:
            written = self.line(line)
            if size + len(written) + 2 > limit:  # room for the newline and "…"
                out.append("…")
                break
            out.append(written)
            size += len(written) + 1
        return "\n".join(out)


def titled(lines: Sequence[str]) -> list[Line]:
    """A reading command's answer (`answers.reading_lines`): its first line a
    title in bold when more follow; a single line is a note, plain."""
    if len(lines) <= 1:
        return [plain(text) for text in lines]
    return [bold(lines[0]), *map(plain, lines[1:])]


def help_lines(how: Sequence[str], commands: Sequence[tuple[str, str]], lang: str, *, name: str = PLAIN,
               **fields: str) -> list[Line]:
    """The help in `lang`: its title, how to play on this platform (`how`,
    catalogued lines; `fields` fill them in, as the bot's name), a blank
    line, then each command as the platform writes it (in style `name`)
    and what it does (a catalogued description)."""
    _ = gettext_for(lang)
    return [bold(_(HELP_TITLE)), *(plain(_(line).format(**fields)) for line in how), [],
            *([(name, command), (PLAIN, " · " + _(description))] for command, description in commands)]
