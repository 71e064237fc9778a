"""A typed line -> what the person means.

Why a separate, pure module: what a person may type (`3`, `Yellow 7`,
`7 amarillo`, `y7`, `w yel`, `+4 azul`, `play W+4 green`, `R7 ben`,
`3 uno`, `d`, `robar`, `catch ada`) is the console's own language and is
easy to get subtly wrong, so it is parsed here without any I/O and tested
on its own. Nothing here decides whether a move is legal: a card that does
not fit is still sent, and the engine's refusal is shown.

Card notation (both languages are accepted in either):

- as the screen shows it: `Yellow 7`, `Red Draw Two`, `Wild Draw Four`,
  `7 amarillo`, `Roba dos rojo`, `Comodín roba cuatro`; colour first or last;
- short forms: a colour letter and the rank, `Y7`, `R+2`, `GS` (skip),
  `BR` (reverse), `W`, `W+4` (or `+4`); in Spanish the colours are R (rojo),
  A (amarillo), V (verde), Az (azul) and the reverse is C (cambio de
  sentido): `A7`, `AzC`, `VS`;
- a colour may be shortened to three letters (`yel`, `blu`, `ama`).

A number alone is the card's place in the hand. `5 amarillo` could be
card 5 (a wild) in yellow or the Yellow 5: when both are possible the
person is asked (`Choice`), never guessed for.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from unobot.cards import (
    COLORS,
    DRAW_TWO,
    NUMBERS,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    Card,
    CardError,
    parse_card,
)
from unobot.chat import commands as c
from unobot.chat.commands import parse_int
from unobot.chat.i18n import N_, gettext_for
from unobot.chat.render import card_name, error_text

HELP, QUIT, TABLE, ENTER, LOG, RULES = "help", "quit", "table", "enter", "log", "rules"
DRAW_PLAY = "drawplay"

#: Command words and their short forms, per language. Spanish accepts the
#: English ones too (a word typed in English is never refused).
ALIASES: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        HELP: ("help", "h", "?"),
        QUIT: ("quit", "q", "exit"),
        TABLE: ("table", "t", "look"),
        LOG: ("log", "l"),
        RULES: ("rules",),
        DRAW_PLAY: ("dp",),
        "draw": ("draw", "d"),
        "pass": ("pass", "p"),
        "uno": ("uno", "u"),
        "catch": ("catch", "c"),
        "challenge": ("challenge", "ch"),
        "play": ("play",),
        "color": ("color", "colour"),
    },
    "es": {
        HELP: ("ayuda",),
        QUIT: ("salir",),
        TABLE: ("mesa", "m"),
        LOG: ("historial",),
        RULES: ("reglas",),
        DRAW_PLAY: ("rj",),
        "draw": ("robar", "r"),
        "pass": ("pasar",),
        "catch": ("atrapar", "at"),
        "challenge": ("desafiar", "de"),
        "play": ("jugar",),
        "color": ("color",),
    },
}

#: The command words as the help shows them, translatable.
WORDS: dict[str, str] = {
    HELP: N_("help"),
    QUIT: N_("quit"),
    TABLE: N_("table"),
    LOG: N_("log"),
    RULES: N_("rules"),
    "draw": N_("draw"),
    "pass": N_("pass"),
    "uno": "uno",
    "catch": N_("catch"),
    "challenge": N_("challenge"),
    "play": N_("play"),
}

#: Short forms as the help shows them: {command: (en, es)}.
SHORT: dict[str, str] = {"draw": N_("d"), "pass": "p", "uno": "u", "catch": N_("c"), "challenge": N_("ch"),
                         TABLE: N_("t"), HELP: "?", QUIT: "q", LOG: N_("l"), DRAW_PLAY: N_("dp")}


@dataclass(frozen=True)
class Local:
    """Handled by the console itself (help, quit, redraw, log, rules, a bare Enter)."""

    action: str


@dataclass(frozen=True)
class PlayIntent:
    """Play a card; colour and target may still be missing (the app asks)."""

    card: Card
    color: str | None = None  # a colour letter: R, Y, G, B
    target: str | None = None  # as typed: a name or its start
    uno: bool = False  # say UNO first (`3 uno`)


@dataclass(frozen=True)
class Choice:
    """The line reads two ways (`5 amarillo`: card 5 in yellow, or the Yellow 5): ask."""

    options: tuple[PlayIntent, ...]
    index: int  # the hand number the first option reads


@dataclass(frozen=True)
class Send:
    """Commands to send to the service as they are."""

    commands: tuple[c.Command, ...]


@dataclass(frozen=True)
class Invalid:
    """Not understood; `message` says why, in the person's language."""

    message: str


Intent = Local | PlayIntent | Choice | Send | Invalid


def fold(word: str) -> str:
    """Lower case, accents off: `Comodín` -> `comodin`."""
    decomposed = unicodedata.normalize("NFD", word.strip().lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


#: Colour words: full names in both languages, and their letters.
_COLOR_FULL = {"red": "R", "yellow": "Y", "green": "G", "blue": "B",
               "rojo": "R", "amarillo": "Y", "verde": "G", "azul": "B",
               "roja": "R", "amarilla": "Y"}
_COLOR_LETTERS = {"r": "R", "y": "Y", "g": "G", "b": "B", "a": "Y", "v": "G", "az": "B"}


def color_word(word: str, letters: bool = True) -> str | None:
    """The colour a typed word names: `red`, `Rojo`, `yel`, `ama` (three letters
    or more of a name), and with `letters` the initials `r`, `y`, `a`, `az`."""
    w = fold(word)
    if w in _COLOR_FULL:
        return _COLOR_FULL[w]
    if letters and w in _COLOR_LETTERS:
        return _COLOR_LETTERS[w]
    if len(w) >= 3:
        found = {color for name, color in _COLOR_FULL.items() if name.startswith(w)}
        if len(found) == 1:
            return found.pop()
    return None


#: Rank words (folded) -> rank, both languages.
_RANK_WORDS: dict[str, str] = {
    **{n: n for n in NUMBERS},
    "+2": DRAW_TWO, "draw two": DRAW_TWO, "draw 2": DRAW_TWO, "roba dos": DRAW_TWO, "roba 2": DRAW_TWO,
    "skip": SKIP, "salta": SKIP, "prohibir turno": SKIP,
    "reverse": REVERSE, "cambio de sentido": REVERSE, "invierte sentido": REVERSE,
}
_WILD_WORDS: dict[str, str] = {
    "w": WILD, "wild": WILD, "comodin": WILD, "cambio de color": WILD,
    "w+4": WILD_DRAW_FOUR, "+4": WILD_DRAW_FOUR, "wild draw four": WILD_DRAW_FOUR, "wild draw 4": WILD_DRAW_FOUR,
    "wild +4": WILD_DRAW_FOUR, "w +4": WILD_DRAW_FOUR, "comodin roba cuatro": WILD_DRAW_FOUR,
    "comodin roba 4": WILD_DRAW_FOUR, "comodin +4": WILD_DRAW_FOUR,
}
#: Compact forms: a colour letter (English or Spanish) and a rank letter: y7, az+2, gs, br, ac.
_COMPACT = re.compile(r"^(az|[rygbav])(\d|\+2|s|r|c)$")
_COMPACT_RANK = {"s": SKIP, "r": REVERSE, "c": REVERSE, "+2": DRAW_TWO}


def _build_phrases() -> dict[str, Card]:
    phrases: dict[str, Card] = {w: Card.get(None, rank) for w, rank in _WILD_WORDS.items()}
    colors = {name: color for name, color in _COLOR_FULL.items()}
    for name, color in list(_COLOR_FULL.items()):
        for n in range(3, len(name)):
            if color_word(name[:n], letters=False) == color:
                colors[name[:n]] = color
    for rank_word, rank in _RANK_WORDS.items():
        for color_text, color in colors.items():
            card = Card.get(color, rank)
            phrases[f"{color_text} {rank_word}"] = card
            phrases[f"{rank_word} {color_text}"] = card
    for lang in ("en", "es"):  # exactly as the screen shows them
        for color in COLORS:
            for rank in (*NUMBERS, SKIP, REVERSE, DRAW_TWO):
                card = Card.get(color, rank)
                phrases[fold(card_name(card, lang))] = card
        for rank in (WILD, WILD_DRAW_FOUR):
            phrases[fold(card_name(Card.get(None, rank), lang))] = Card.get(None, rank)
    return phrases


_PHRASES: dict[str, Card] | None = None


def _phrases() -> dict[str, Card]:
    global _PHRASES
    if _PHRASES is None:
        _PHRASES = _build_phrases()
    return _PHRASES


def card_word(word: str) -> Card | None:
    """A card named by one word: `R5`, `w+4`, `+4`, `y7`, `az+2`, `AzC`."""
    w = fold(word)
    if w in _WILD_WORDS and " " not in w:
        return Card.get(None, _WILD_WORDS[w])
    m = _COMPACT.match(w)
    if m:
        return Card.get(_COLOR_LETTERS[m.group(1)], _COMPACT_RANK.get(m.group(2), m.group(2)))
    try:
        return parse_card(word)
    except CardError:
        return None


def read_card(words: Sequence[str]) -> tuple[Card, int] | None:
    """The card the first words name and how many words it took (longest reading)."""
    folded = [fold(w) for w in words]
    phrases = _phrases()
    for k in range(min(4, len(words)), 1, -1):
        card = phrases.get(" ".join(folded[:k]))
        if card is not None:
            return card, k
    if words:
        card = card_word(words[0]) or phrases.get(folded[0])
        if card is not None:
            return card, 1
    return None


def hand_number(word: str) -> int | None:
    """A card's place in the hand: a whole number as `int()` reads it, unsigned
    (`+2` and `+4` are cards)."""
    return None if word.startswith(("+", "-")) else parse_int(word)


def command_word(word: str, lang: str) -> str | None:
    """The command a typed word names, in English or in `lang`."""
    _ = gettext_for(lang)
    low = fold(word)
    for language in ("en", lang) if lang != "en" else ("en",):
        for name, aliases in ALIASES.get(language, {}).items():
            if low in aliases:
                return name
    for name, word_ in WORDS.items():
        if low == fold(_(word_)):
            return name
    return None


def _plugin_kind(word: str) -> bool:
    """Is `word` a move kind a plugin added (typed as its text: `time_up`)?"""
    from unobot.registry import MOVE_KINDS, declared

    return declared(MOVE_KINDS, word.lower()) is not None


def parse_line(line: str, hand: Sequence[Card], lang: str) -> Intent:
    """Parse one typed line; `hand` is the hand in the order it is numbered."""
    _ = gettext_for(lang)
    words = line.split()
    if not words:
        return Local(ENTER)
    name = command_word(words[0], lang)
    rest = words[1:]
    if name in (HELP, QUIT, TABLE, LOG, RULES):
        return Local(name)
    if name == DRAW_PLAY or (name == "draw" and rest and command_word(rest[0], lang) == "play"):
        return Send((c.Draw(then_play=True),))
    if name == "draw":
        return Send((c.Draw(),))
    if name == "pass":
        return Send((c.Pass(),))
    if name == "challenge":
        return Send((c.Challenge(),))
    if name == "catch":
        return Send((c.Catch(target=" ".join(rest) or None),))
    if _plugin_kind(words[0]):
        return Send((c.PluginMove(text=line.strip()),))
    if name == "color":
        # Naming the colour of a Wild starter: `color green`, `color verde`, `color g`.
        named = color_word(rest[0]) if len(rest) == 1 else None
        if named is None:
            return Invalid(_("Name a colour: red, yellow, green or blue."))
        return Send((c.NameColor(color=named),))
    if name == "uno":
        if not rest:
            return Send((c.SayUno(),))
        return _play(rest, hand, lang, uno=True)
    if name == "play":
        if not rest:
            return Invalid(_("Say which card: play 3, play R5, play Red 5, play W+4 green."))
        return _play(rest, hand, lang)
    if hand_number(words[0]) is not None or read_card(words) is not None:
        return _play(words, hand, lang)
    return Invalid(_("Unknown command {word!r}. Type help to see the commands.").format(word=words[0]))


def _play(words: list[str], hand: Sequence[Card], lang: str, uno: bool = False) -> Intent:
    _ = gettext_for(lang)
    n = hand_number(words[0])
    by_name = read_card(words)
    if n is not None:
        index_card = hand[n - 1] if 1 <= n <= len(hand) else None
        if len(words) > 1 and hand_number(words[1]) is not None:
            return Invalid(_("One card at a time: its number (3) or its name (Red 5, R5)."))
        if by_name is not None and by_name[1] > 1:  # `5 amarillo`: card 5 in yellow, or the Yellow 5?
            named, used = by_name
            as_index = _finish(index_card, words[1:], lang, uno) if index_card is not None else None
            as_card = _finish(named, words[used:], lang, uno)
            index_fits = as_index is not None and index_card is not None and index_card.is_wild
            card_held = named in hand
            if index_fits and card_held and isinstance(as_index, PlayIntent) and isinstance(as_card, PlayIntent):
                return Choice((as_index, as_card), n)
            if index_fits and as_index is not None:
                return as_index
            if card_held or index_card is None:
                return as_card
            return Invalid(_("Card {n} of your hand is {card}, which takes no colour, and you hold no {named}. "
                             "Type the card's number alone, or its name.").format(
                n=n, card=card_name(index_card, lang), named=card_name(named, lang)))
        if index_card is None:
            return Invalid(_("There is no card {n} in your hand; its cards are numbered 1 to {last}.").format(
                n=n, last=len(hand)))
        return _finish(index_card, words[1:], lang, uno)
    if by_name is None:
        return Invalid(error_text("bad_card", lang))
    card, used = by_name
    return _finish(card, words[used:], lang, uno)


def _finish(card: Card, rest: Sequence[str], lang: str, uno: bool) -> PlayIntent:
    """What follows the card: a colour, `uno`, a player's name."""
    color: str | None = None
    target: list[str] = []
    for word in rest:
        if command_word(word, lang) == "uno":
            uno = True
        elif color is None and not target and card.is_wild and color_word(word):
            color = color_word(word)
        elif color is None and not target and len(word) > 1 and color_word(word, letters=False):
            color = color_word(word)  # a colour on a coloured card: the engine says why not
        else:
            target.append(word)
    return PlayIntent(card, color, " ".join(target) or None, uno)
