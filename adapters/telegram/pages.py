"""A text longer than one Telegram message, as several: paged, never cut.

Why: a message holds 4,096 characters as Telegram counts them (UTF-16 code
units, after the HTML is parsed into entities). Replies used to be clipped
there with "…": a `/top` of a busy group, `/variant` with many plugin
variants, a `/help` with a plugin's commands, or a long refusal lost their
end, and the player was never told. Here such a text becomes several
messages, split where a line ends (a line longer than a whole message where
a word ends), and in HTML never inside a tag or an entity: a bold or code
run that spans a split is closed at the end of one page and opened again at
the start of the next, so each page parses on its own and nothing is lost.
"""

from __future__ import annotations

import html
import re

from .guard import utf16_len

#: Telegram's limit for a message's text, in UTF-16 code units after parsing.
MAX_TEXT = 4096

#: One token of Telegram HTML: a tag, a character reference, a run of text.
_TOKEN = re.compile(r"<[^<>]*>|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);|[^<&]+|&")
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)")


def pages(text: str, limit: int = MAX_TEXT, *, html_text: bool = False) -> list[str]:
    """`text` as pages of at most `limit` units each (as Telegram counts them),
    in order; their texts together are `text`, less the line breaks (or the
    space) where a page ends. `html_text`: `text` is Telegram HTML; each page
    is then balanced HTML. A text that fits is one page, unchanged."""
    if _shown_len(text, html_text) <= limit:
        return [text]
    out: list[str] = []
    page: list[str] = []  # the current page's tokens
    size = 0  # its shown length
    stack: list[tuple[str, str]] = []  # (name, opening tag) of the runs open here

    def close() -> None:
        nonlocal page, size
        while page and page[-1] == "\n":
            page.pop()
        body = "".join(page) + "".join(f"</{name}>" for name, _ in reversed(stack))
        if _visible(body, html_text).strip():  # Telegram refuses a message of blanks
            out.append(body)
        page = [opening for _, opening in stack]
        size = 0

    lines = text.split("\n")
    for n, line in enumerate(lines):
        tokens = _tokens(line, html_text)
        width = sum(_width(t, html_text) for t in tokens)
        newline = 1 if n else 0
        if page and size + newline + width > limit:
            close()
            newline = 0
        elif not page or all(_is_tag(t, html_text) for t in page):
            newline = 0
        if newline:
            page.append("\n")
            size += 1
        for token in tokens:
            for piece in _pieces(token, html_text, limit):
                w = _width(piece, html_text)
                if size + w > limit:  # a page ends after a whole word
                    close()
                    if not _is_tag(piece, html_text):
                        piece = piece.lstrip(" ")
                        w = _width(piece, html_text)
                page.append(piece)
                size += w
                if html_text and _is_tag(piece, html_text):
                    _track(stack, piece)
    close()
    return out or [text]


def _tokens(line: str, html_text: bool) -> list[str]:
    """A line's tokens; a text run as words with the spaces before them, so a
    page may end between two words."""
    raw = _TOKEN.findall(line) if html_text else [line]
    out: list[str] = []
    for token in raw:
        if html_text and (token.startswith("<") or (token.startswith("&") and len(token) > 1)):
            out.append(token)
        else:
            out.extend(re.findall(r" *[^ ]+| +", token))
    return out


def _pieces(token: str, html_text: bool, limit: int) -> list[str]:
    """A token, in parts no longer than a page (a word of 5,000 letters)."""
    if _is_tag(token, html_text) or _width(token, html_text) <= limit:
        return [token]
    out, part = [], ""
    for char in token:
        if utf16_len(part + char) > limit:
            out.append(part)
            part = ""
        part += char
    return [*out, part] if part else out


def _track(stack: list[tuple[str, str]], tag: str) -> None:
    match = _TAG.match(tag)
    if match is None:
        return
    closing, name = match.group(1), match.group(2).lower()
    if closing:
        for i in range(len(stack) - 1, -1, -1):
            if stack[i][0] == name:
                del stack[i:]
                return
    elif not tag.endswith("/>"):
        stack.append((name, tag))


def _is_tag(token: str, html_text: bool) -> bool:
    return html_text and token.startswith("<")


def _width(token: str, html_text: bool) -> int:
    if not html_text:
        return utf16_len(token)
    if token.startswith("<"):
        return 0
    return utf16_len(html.unescape(token)) if token.startswith("&") else utf16_len(token)


def _visible(text: str, html_text: bool) -> str:
    if not html_text:
        return text
    return html.unescape(re.sub(r"<[^<>]*>", "", text))


def _shown_len(text: str, html_text: bool) -> int:
    return utf16_len(_visible(text, html_text))
