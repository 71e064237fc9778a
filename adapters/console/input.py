"""A typed line -> what the person means.

Why a separate, pure module: what a person may type (`3`, `3 red`,
`play W+4 green`, `R7 ben`, `3 uno`, `d`, `catch ada`) is the console's own
language and is easy to get subtly wrong, so it is parsed here without any
I/O and tested on its own. Nothing here decides whether a move is legal:
a card that does not fit is still sent, and the engine's refusal is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from unobot.cards import Card, CardError, parse_card
from unobot.chat import commands as c
from unobot.chat.i18n import N_, gettext_for
from unobot.chat.render import color_from_text, error_text

HELP, QUIT, TABLE, ENTER = "help", "quit", "table", "enter"

#: Command words and their English short forms. The translated word (see
#: WORDS) is accepted too, so a Spanish player may type `robar`.
ALIASES: dict[str, tuple[str, ...]] = {
    HELP: ("help", "h", "?"),
    QUIT: ("quit", "q", "exit"),
    TABLE: ("table", "t", "look"),
    "draw": ("draw", "d"),
    "pass": ("pass", "p"),
    "uno": ("uno", "u"),
    "catch": ("catch", "c"),
    "challenge": ("challenge", "ch"),
    "play": ("play",),
}

#: The command words as the help shows them, translatable.
WORDS: dict[str, str] = {
    HELP: N_("help"),
    QUIT: N_("quit"),
    TABLE: N_("table"),
    "draw": N_("draw"),
    "pass": N_("pass"),
    "uno": "uno",
    "catch": N_("catch"),
    "challenge": N_("challenge"),
    "play": N_("play"),
}


@dataclass(frozen=True)
class Local:
    """Handled by the console itself (help, quit, redraw, a bare Enter)."""

    action: str


@dataclass(frozen=True)
class PlayIntent:
    """Play a card; colour and target may still be missing (the app asks)."""

    card: Card
    color: str | None = None  # a colour letter: R, Y, G, B
    target: str | None = None  # as typed: a name or its start
    uno: bool = False  # say UNO first (`3 uno`)


@dataclass(frozen=True)
class Send:
    """Commands to send to the service as they are."""

    commands: tuple[c.Command, ...]


@dataclass(frozen=True)
class Invalid:
    """Not understood; `message` says why, in the person's language."""

    message: str


Intent = Local | PlayIntent | Send | Invalid


def command_word(word: str, lang: str) -> str | None:
    """The command a typed word names, in English or in `lang`."""
    _ = gettext_for(lang)
    low = word.lower()
    for name, aliases in ALIASES.items():
        if low in aliases or low == _(WORDS[name]).lower():
            return name
    return None


def parse_line(line: str, hand: Sequence[Card], lang: str) -> Intent:
    """Parse one typed line; `hand` is the hand in the order it is numbered."""
    _ = gettext_for(lang)
    words = line.split()
    if not words:
        return Local(ENTER)
    name = command_word(words[0], lang)
    rest = words[1:]
    if name in (HELP, QUIT, TABLE):
        return Local(name)
    if name == "draw":
        return Send((c.Draw(),))
    if name == "pass":
        return Send((c.Pass(),))
    if name == "challenge":
        return Send((c.Challenge(),))
    if name == "catch":
        return Send((c.Catch(target=" ".join(rest) or None),))
    if name == "uno":
        if not rest:
            return Send((c.SayUno(),))
        return _play(rest, hand, lang, uno=True)
    if name == "play":
        if not rest:
            return Invalid(_("Say which card: play 3, play R5, play W+4 green."))
        return _play(rest, hand, lang)
    if words[0].isdigit() or _card_word(words[0], hand) is not None:
        return _play(words, hand, lang)
    return Invalid(_("Unknown command {word!r}. Type help to see the commands.").format(word=words[0]))


def _card_word(word: str, hand: Sequence[Card]) -> Card | None:
    """A card named by its number in the hand or by its text (`R5`), else None."""
    if word.isdigit():
        n = int(word)
        return hand[n - 1] if 1 <= n <= len(hand) else None
    try:
        return parse_card(word)
    except CardError:
        return None


def _play(words: list[str], hand: Sequence[Card], lang: str, uno: bool = False) -> Intent:
    _ = gettext_for(lang)
    first, rest = words[0], words[1:]
    card = _card_word(first, hand)
    if card is None:
        if first.isdigit():
            return Invalid(_("There is no card {n} in your hand; its cards are numbered 1 to {last}.").format(
                n=first, last=len(hand)))
        return Invalid(error_text("bad_card", lang))
    color: str | None = None
    target: list[str] = []
    for word in rest:
        if command_word(word, lang) == "uno":
            uno = True
        elif color is None and not target and card.is_wild and color_from_text(word):
            color = color_from_text(word)
        elif color is None and not target and len(word) > 1 and color_from_text(word):
            color = color_from_text(word)  # a colour on a coloured card: the engine says why not
        else:
            target.append(word)
    return PlayIntent(card, color, " ".join(target) or None, uno)
