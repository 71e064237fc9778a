"""What a terminal that cannot show a character gets instead of it.

Why: unobot's texts use characters beyond ASCII everywhere: the `●`/`○`
that mark playable cards, the cards' symbols (`⊘`, `⇄`), the direction
(`→ ↻`), `·` between words, accents in every language but English, emoji in
the events. On a terminal whose encoding cannot hold them (`LANG` naming
ISO-8859-1, `PYTHONIOENCODING=ascii`, an old serial console) Python's
default is to raise `UnicodeEncodeError`, so `unobot play` died with a
traceback before its first screen, and `unobot replay` at its first card.
The commands write through an error handler instead that puts a plain
spelling in each such character's place: `*` for `●`, `->` for `→`,
`Comodin` for `Comodín`, nothing for an emoji (its words say the same),
`?` where nothing plain says it.
"""

from __future__ import annotations

import codecs
import sys
import unicodedata
from typing import TextIO

#: The error handler's name (`codecs.register_error`).
HANDLER = "unobot-plain"

#: Plain spellings of the characters the texts use that have no ASCII
#: decomposition.
PLAIN: dict[str, str] = {
    "●": "*", "○": "o", "·": "-", "•": "*", "─": "-", "━": "=", "│": "|", "═": "=",
    "→": "->", "←": "<-", "↑": "^", "↓": "v", "↻": "(cw)", "↺": "(ccw)",
    "▶": ">", "◀": "<", "⏭": ">>", "›": ">", "‹": "<", "«": '"', "»": '"',
    "✗": "x", "✓": "v", "✔": "v", "✎": "", "×": "x", "…": "...", "—": "-", "–": "-",
    "“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "¡": "!", "¿": "?",
    "⊘": "(/)", "⇄": "<>", "⇶": ">>>", "⇊": "vv", "◎": "(o)", "⬛": "#", "§": "S", "²": "2",
    "\u00a0": " ", "\u202f": " ", "\u2009": " ",
}


def plain(text: str) -> str:
    """`text` in ASCII: each character that is none spelled plain (see `PLAIN`)."""
    return "".join(ch if ch < "\x80" else _plain_char(ch) for ch in text)


def _plain_char(ch: str) -> str:
    if ch in PLAIN:
        return PLAIN[ch]
    if _is_picture(ch):
        return ""
    decomposed = unicodedata.normalize("NFKD", ch)
    base = "".join(c for c in decomposed if not unicodedata.combining(c))
    return base if base and base.isascii() else "?"


def _is_picture(ch: str) -> bool:
    """An emoji, a part of one or a symbol drawn as a picture: said by the words next to it."""
    code = ord(ch)
    return (code >= 0x1F000 or 0x2600 <= code <= 0x27BF or 0x2B00 <= code <= 0x2BFF
            or 0xFE00 <= code <= 0xFE0F or code in (0x200D, 0x20E3) or 0x23E9 <= code <= 0x23FA)


def _replace(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return plain(error.object[error.start:error.end]), error.end


codecs.register_error(HANDLER, _replace)


def can_show_everything(stream: TextIO) -> bool:
    """Does the stream's encoding hold every character (a UTF encoding)?"""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


def install(*streams: TextIO) -> None:
    """Let `streams` (stdout and stderr when none are named) write any text:
    what their encoding cannot hold is spelled plain. A UTF-8 stream is left
    as it is."""
    for stream in streams or (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None or can_show_everything(stream):
            continue
        reconfigure(errors=HANDLER)
