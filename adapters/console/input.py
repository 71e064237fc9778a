"""A typed line -> what the person means, for the console.

The game's own words (cards by number, name, code or symbol in any
language, `draw`, `uno`, `catch ada`, ...) are core's grammar
(`unobot.chat.grammar`), the same for every front-end that reads typed
text. What is left here are the console's own words: `help`, `quit`,
`table`, `log`, `rules` and a bare Enter, read first; then the players'
records (`top [week|month|all]`, `me`, `last`, `forgetme`), which core
reads (`unobot.chat.answers.typed_reading`) and answers.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from unobot.cards import Card
from unobot.chat import answers, grammar
from unobot.chat.grammar import (
    DRAW_PLAY,
    Ambiguous,
    Parsed,
    Refusal,
    color_word,
    fold,
)
from unobot.chat.i18n import N_, gettext_for

HELP, QUIT, TABLE, ENTER, LOG, RULES = "help", "quit", "table", "enter", "log", "rules"

#: The console's own words and their short forms, per language. Every
#: language's words are read in every language.
ALIASES: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        HELP: ("help", "h", "?"),
        QUIT: ("quit", "q", "exit"),
        TABLE: ("table", "t", "look"),
        LOG: ("log", "l"),
        RULES: ("rules",),
    },
    "es": {
        HELP: ("ayuda",),
        QUIT: ("salir",),
        TABLE: ("mesa", "m"),
        LOG: ("historial",),
        RULES: ("reglas",),
    },
}

#: Every command word as the help shows it, translatable (the game's from the grammar).
WORDS: dict[str, str] = {
    **grammar.WORDS,
    HELP: N_("help"),
    QUIT: N_("quit"),
    TABLE: N_("table"),
    LOG: N_("log"),
    RULES: N_("rules"),
}

#: Short forms as the help shows them.
SHORT: dict[str, str] = {**grammar.SHORT, TABLE: N_("t"), HELP: "?", QUIT: "q", LOG: N_("l")}


@dataclass(frozen=True)
class Local:
    """Handled by the console itself (help, quit, redraw, log, rules, a bare Enter)."""

    action: str


@dataclass(frozen=True)
class Reading:
    """A players' records command (`top week`, `me`, `last`, `forgetme`): core's
    answer is printed (`unobot.chat.answers.reading_lines`); `arg` is what followed it."""

    what: str
    arg: str | None = None


Intent = Local | Reading | Parsed

__all__ = ["DRAW_PLAY", "ENTER", "HELP", "LOG", "QUIT", "RULES", "SHORT", "TABLE", "WORDS", "Ambiguous",
           "Intent", "Local", "Reading", "Refusal", "color_word", "command_word", "parse_line", "reading_of"]


def command_word(word: str, lang: str) -> str | None:
    """The command a typed word names: the console's own, else the game's."""
    _ = gettext_for(lang)
    low = fold(word)
    for language in ALIASES:
        for name, aliases in ALIASES[language].items():
            if low in aliases:
                return name
    for name in (HELP, QUIT, TABLE, LOG, RULES):  # the words and short forms the help shows in `lang`
        if low == fold(_(WORDS[name])) or (name in SHORT and low == fold(_(SHORT[name]))):
            return name
    return grammar.command_word(word, lang)


def parse_line(line: str, hand: Sequence[Card], lang: str, deck: Collection[Card] | None = None) -> Intent:
    """Parse one typed line; `hand` is the hand in the order it is numbered,
    `deck` the cards the table plays with (None: any)."""
    words = line.split()
    if not words:
        return Local(ENTER)
    name = command_word(words[0], lang)
    if name in (HELP, QUIT, TABLE, LOG, RULES):
        return Local(name)
    return reading_of(line, lang) or grammar.parse_hand(line, hand, lang, deck)


def reading_of(line: str, lang: str | None = None) -> Reading | None:
    """The records command a line asks for in the reader's words or the
    English names, or None (read by core)."""
    asked = answers.typed_reading(line, lang)
    return Reading(*asked) if asked is not None else None
