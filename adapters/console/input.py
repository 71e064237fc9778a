"""A typed line -> what the person means, for the console.

The game's own words (cards by number, name, code or symbol in any
language, `draw`, `uno`, `catch ada`, ...) are core's grammar
(`unobot.chat.grammar`), the same for every front-end that reads typed
text. What is left here are the console's own words: `help`, `quit`,
`table`, `log`, `rules` and a bare Enter, read first (`rules` with more
words changes the house rules: core reads them, `settings_typed`); then the players'
records (`top [week|month|all]`, `me`, `last`, `forgetme`, `resetstats`), which core
reads (`unobot.chat.answers.typed_reading`) and answers.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache

from unobot.cards import Card
from unobot.chat import answers, grammar, settings_typed, typed
from unobot.chat import commands as c
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


@dataclass(frozen=True)
class Setting:
    """`rules stacking off`, `rules reset`: the house rules changed, as an admin
    changes them on Telegram and Discord (the console's player is its admin):
    core's settings commands, sent in order (`unobot.chat.settings_typed`)."""

    commands: tuple[c.Command, ...]


Intent = Local | Reading | Setting | Parsed

__all__ = ["DRAW_PLAY", "ENTER", "HELP", "LOG", "QUIT", "RULES", "SHORT", "TABLE", "WORDS", "Ambiguous",
           "Intent", "Local", "Reading", "Refusal", "Setting", "color_word", "command_word", "parse_line",
           "reading_of"]


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


def parse_line(line: str, hand: Sequence[Card], lang: str, deck: Collection[Card] | None = None,
               players: Collection[str] | None = None) -> Intent:
    """Parse one typed line; `hand` is the hand in the order it is numbered,
    `deck` the cards the table plays with (None: any), `players` the names
    at the table (a card's target that names none and reads as a slip gets
    a "did you mean")."""
    words = line.split()
    if not words:
        return Local(ENTER)
    name = command_word(words[0], lang)
    if name == RULES and len(words) > 1:
        return setting_of(words[1:], lang, words[0])
    if name in (HELP, QUIT, TABLE, LOG, RULES):
        return Local(name)
    return reading_of(line, lang) or grammar.parse_hand(line, hand, lang, deck, known=own_words(lang), players=players)


@cache
def own_words(lang: str) -> tuple[str, ...]:
    """The words the console reads before core's grammar, in the reader's
    language and English: its own (`help`, `quit`, `historial`) and the
    records commands (`top`, `clasificación`): a "did you mean" names them
    too (`hlep`, `toop`)."""
    words: list[str] = [word for aliases in ALIASES.get(lang, {}).values() for word in aliases]
    words += [word for aliases in ALIASES["en"].values() for word in aliases]
    for language in dict.fromkeys((lang, "en")):
        _ = gettext_for(language)
        words += [_(WORDS[name]) for name in (HELP, QUIT, TABLE, LOG, RULES)]
        words += [typed.first_form(language, message) for message in typed.RECORD_WORDS.values()]
    words += list(typed.RECORD_WORDS)
    return tuple(dict.fromkeys(words))


def setting_of(words: Sequence[str], lang: str, rules_word: str = "rules") -> Setting | Refusal:
    """The house-rule change the words after `rules` ask for, or a Refusal
    showing the forms (core reads both: `settings_typed`)."""
    found = settings_typed.setting_commands(words, lang, rules_word)
    return found if isinstance(found, Refusal) else Setting(tuple(found))


def reading_of(line: str, lang: str | None = None) -> Reading | None:
    """The records command a line asks for in the reader's words or the
    English names, or None (read by core)."""
    asked = answers.typed_reading(line, lang)
    return Reading(*asked) if asked is not None else None
