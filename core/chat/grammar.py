"""Typed play: a line a person types -> the command they mean.

One grammar for every front-end that reads typed text (the console today; a
chat's text messages, a web page's box): what a person may type (`3`,
`Yellow 7`, `7 amarillo`, `y7`, `w yel`, `+4 azul`, `play W+4 green`,
`R7 ben`, `3 uno`, `d`, `robar`, `catch ada`, `Blue Skip Everyone`,
`⇄+4 red`) is easy to get subtly wrong, so it is parsed here, pure and
without I/O, and tested on its own. Nothing here decides whether a move is
legal: a card that does not fit is still sent, and the engine's refusal is
shown. A line that names a card held is never refused for how it was typed.

Cards are read by what their kinds declare (`unobot.cards.CardKind`: names,
per-colour names, symbol, code, more words), in every language the bot
speaks, whatever the reader's language, so a plugin's cards are typed like
the built-in ones:

- as the screen shows it: `Yellow 7`, `Red Draw Two`, `Wild Draw Four`,
  `7 amarillo`, `Roba dos rojo`, `Comodín roba cuatro`, `Blue Skip
  Everyone`; the colour first or last; a colour shortened to three letters
  (`yel`, `ama`);
- by its code (`Y7`, `R+2`, `GS`, `WR+4`, `RSA`, `W`, `W+4` or `+4`) or its
  symbol with a colour (`R⊘`, `⊘ red`, `⇄+4`), or by its kind alone (`⊘`,
  `skip`, `+2`: the one held, or asked which); in Spanish the colour letters
  are R (rojo), A (amarillo), V (verde), Az (azul) and the reverse is C
  (cambio de sentido): `A7`, `AzC`, `VS`;
- a wild's colour after it (`W+4 green`, `+4 azul`), a target player's name
  after the card (`R7 ben`), `uno` before or after it (`3 uno`).

A number alone is the card's place in the hand. A line that reads as two
cards (`5 amarillo`: card 5, a wild, in yellow, or the Yellow 5; `+4 azul`
in a deck with both a Blue +4 and a Wild Draw Four) is `Ambiguous` when the
person holds both: they are asked, never guessed for. Readings of cards the
table's deck does not have are dropped, then readings of cards not held.

Words only a front-end has (the console's `help`, `quit`, `log`) are that
front-end's business: it reads them before calling `parse`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import islice, product
from typing import TYPE_CHECKING

from ..cards import (
    COLOR_NAMES,
    COLORS,
    REVERSE,
    SKIP,
    Card,
    CardError,
    CardKind,
    all_kinds,
    is_color_word,
    kind_of,
    official_deck,
    parse_card,
)
from ..cards import sort_key as _sort_key
from . import commands as c
from . import typed, typos
from .commands import parse_int
from .i18n import LANGUAGES, N_, gettext_for, normalize
from .render import card_name, error_text, kind_name, kind_text, plugin_move_title
from .typed import fold

if TYPE_CHECKING:
    from ..rule import Rule
    from ..state import GameState
    from .table import Table

DRAW, DRAW_PLAY, PASS, UNO, CATCH, CHALLENGE, PLAY, COLOR = (
    "draw", "drawplay", "pass", "uno", "catch", "challenge", "play", "color")

#: English spellings read beyond the words and short forms below (English is
#: read in every language: a word typed in English is never refused).
ALIASES: dict[str, tuple[str, ...]] = {
    DRAW_PLAY: ("dp",),
    DRAW: ("draw", "d"),
    PASS: ("pass", "p"),
    UNO: ("uno", "u"),
    CATCH: ("catch", "c"),
    CHALLENGE: ("challenge", "ch"),
    PLAY: ("play",),
    COLOR: ("color", "colour"),
}

#: The command words as help texts show them, translatable: what a player
#: types in their language (`robar`, `ziehen`, `взять`).
WORDS: dict[str, str] = {
    DRAW: N_("draw"),
    PASS: N_("pass"),
    UNO: "uno",
    CATCH: N_("catch"),
    CHALLENGE: N_("challenge"),
    PLAY: N_("play"),
    COLOR: N_("colour"),
}

#: Short forms as help texts show them, translatable (`d` is `r` in Spanish), and read as typed.
SHORT: dict[str, str] = {DRAW: N_("d"), PASS: N_("p"), UNO: "u", CATCH: N_("c"), CHALLENGE: N_("ch"),
                         DRAW_PLAY: N_("dp")}


@dataclass(frozen=True)
class Ambiguous:
    """The line reads as more than one move (`+4 azul`: the Blue +4, or the
    Wild Draw Four in blue): ask which. `index` is the hand number the first
    reading took the card from, when the line began with one."""

    readings: tuple[c.Play, ...]
    index: int | None = None


@dataclass(frozen=True)
class Refusal:
    """Not understood; `message` says why, in the person's language."""

    message: str
    code: str = "bad_input"


Parsed = c.Command | Ambiguous | Refusal


def color_word(word: str, letters: bool = True, lang: str | None = None) -> str | None:
    """The colour a typed word names: `red`, `Rojo`, `rot`, `yel`, `ama` (three
    letters or more of a name), and with `letters` the short forms `r`, `y`,
    `a`, `az`, `j`: every language's, the reader's first (core/chat/typed.py)."""
    return typed.color_of(word, lang, letters)


def _resolved(maps: Iterable[dict[str, str]]) -> dict[str, str]:
    """Maps merged so that the earlier ones win (the reader's language first)."""
    out: dict[str, str] = {}
    for each in maps:
        for text, color in each.items():
            out.setdefault(text, color)
    return out


def _color_texts(lang: str | None) -> dict[str, str]:
    """Every way a colour may be written in a phrase, for a reader: every
    language's names, the reader's language first, and the starts of three
    letters or more that name one colour in the reader's language or in
    English (`yel`, `gel`; not every language's: the phrases would be many
    times more, for words nobody types in a language they do not read)."""
    maps = []
    reader = typed.in_order(lang)
    for language in reader:
        names = typed.color_names(language)
        colors = dict(names)
        for name, color in names.items() if language in reader[:2] else ():
            for n in range(3, len(name)):
                if {c for other, c in names.items() if other.startswith(name[:n])} == {color}:
                    colors.setdefault(name[:n], color)
        maps.append(colors)
    return _resolved(maps)


def _color_letters(lang: str | None) -> dict[str, str]:
    """Every language's short colour forms (`r`, `az`, `j`), the reader's first: `g` is green in
    English and yellow (giallo) in Italian."""
    return _resolved(typed.color_letters(language) for language in typed.in_order(lang))


#: Words for unobot's own kinds beyond their declared names: the spellings
#: people use (language-independent, folded).
_MORE_WORDS: dict[tuple[bool, str], tuple[str, ...]] = {
    (False, "+2"): ("draw 2", "roba 2"),
    (False, SKIP): ("prohibir turno",),
    (False, REVERSE): ("invierte sentido",),
    (True, ""): ("cambio de color",),
    (True, "+4"): ("wild draw 4", "comodin roba 4"),
}
#: Compact forms are a short colour form and a rank: y7, az+2, gs, br, ac, rsa, r⊘.
_COMPACT_RANK = {"c": REVERSE}  # Spanish: C for cambio de sentido


class _Phrases:
    """Folded phrases -> the cards they name, built from every declared kind
    for a reader's language (their colour words first), rebuilt when a
    plugin declares a new kind."""

    def __init__(self) -> None:
        self.key: tuple[object, ...] = ()
        self.phrases: dict[str, dict[str, set[Card]]] = {}
        self.longest = 1

    def get(self, lang: str | None = None) -> dict[str, set[Card]]:
        kinds = all_kinds()
        key = tuple(id(k) for k in kinds)
        if key != self.key:
            self.phrases = {}
            self.key = key
        reader = normalize(lang)
        if reader not in self.phrases:
            self.phrases[reader] = _build(kinds, reader)
            self.longest = max(self.longest, *(len(p.split()) for p in self.phrases[reader]))
        return self.phrases[reader]


def _rank_words(card: Card) -> set[str]:
    """What a card's kind is called alone, in every language: names, more
    words, symbol, rank code (folded)."""
    kind = kind_of(card)
    words = {fold(kind.face)}
    if kind.rank and not (card.is_wild and kind.rank[0] in COLORS):  # `R+4` alone is the Red +4, not `WR+4`
        words.add(fold(kind.rank))
    for lang in LANGUAGES:
        name = kind_name(kind, lang)
        if name:
            words.add(fold(name))
        words.update(fold(kind_text(kind, w, lang)) for w in kind.words)
    words.update(_MORE_WORDS.get((card.is_wild, card.rank), ()))
    return {w for w in words if w}


def _build(kinds: Iterable[CardKind], lang: str) -> dict[str, set[Card]]:
    phrases: dict[str, set[Card]] = {}

    def add(text: str, card: Card) -> None:
        phrases.setdefault(" ".join(fold(text).split()), set()).add(card)

    colors = _color_texts(lang)
    letters = _color_letters(lang)
    # a wild named with its head: `w +4`, `wild +4`, `comodin +4`, `joker +4` (every language's Wild)
    heads = {"w", *(fold(card_name(Card.get(None, ""), language)) for language in LANGUAGES)}
    for kind in kinds:
        kind_cards = [Card.get(None, kind.rank)] if kind.wild else [Card.get(col, kind.rank) for col in COLORS]
        for card in kind_cards:
            for lang in LANGUAGES:
                add(card_name(card, lang), card)
            add(card.text, card)
            words = _rank_words(card)
            if card.is_wild:
                for word in words:
                    add(word, card)
                    if " " not in word:
                        add(f"w{word}", card)
                    for head in heads:
                        if head != word:
                            add(f"{head} {word}", card)
                continue
            assert card.color is not None
            for word in words:
                add(word, card)  # `⊘`, `skip` alone: the held one, or asked which
                for text, color in colors.items():
                    if color == card.color:
                        add(f"{text} {word}", card)
                        add(f"{word} {text}", card)
                if " " not in word:
                    for letter, color in letters.items():
                        if color == card.color:
                            add(f"{letter}{word}", card)
    for letter, color in letters.items():  # `AzC`: the Spanish reverse
        for rank_letter, rank in _COMPACT_RANK.items():
            add(f"{letter}{rank_letter}", Card.get(color, rank))
    for number in [p for p in phrases if hand_number(p) is not None]:  # a hand number, never a card
        del phrases[number]
    return phrases


_PHRASES = _Phrases()


_OFFICIAL = frozenset(official_deck())


def _reading_order(card: Card) -> tuple[bool, tuple[int, int, str]]:
    """Cards of the official deck first (`+4` held by nobody is the Wild Draw Four), then as hands sort."""
    return (card not in _OFFICIAL, _sort_key(card))


def card_readings(words: Sequence[str], lang: str | None = None) -> list[tuple[Card, int]]:
    """Every card the first words may name and how many words each took,
    longest first (`+4 azul`: the Blue +4 with two words, the Wild Draw Four
    with one), colour words read as `lang`'s reader reads them."""
    phrases = _PHRASES.get(lang)
    folded = [fold(w) for w in words]
    found: list[tuple[Card, int]] = []
    for k in range(min(_PHRASES.longest, len(words)), 0, -1):
        cards = phrases.get(" ".join(folded[:k]))
        if cards:
            found += [(card, k) for card in sorted(cards, key=_reading_order)]
    if not found and words:
        card = card_word(words[0], lang)
        if card is not None:
            found.append((card, 1))
    return found


def card_word(word: str, lang: str | None = None) -> Card | None:
    """A card named by one word that no declared kind's phrase covers: the
    Spanish reverse (`AzC`), or a code `parse_card` reads (`W+8`, a draw rank
    declared nowhere)."""
    w = fold(word)
    for letter, color in _color_letters(lang).items():
        if w.startswith(letter) and w[len(letter):] in _COMPACT_RANK:
            return Card.get(color, _COMPACT_RANK[w[len(letter):]])
    try:
        return parse_card(word)
    except CardError:
        return None


def read_card(words: Sequence[str], lang: str | None = None) -> tuple[Card, int] | None:
    """The card the first words name and how many words it took (longest reading)."""
    found = card_readings(words, lang)
    return found[0] if found else None


def hand_number(word: str) -> int | None:
    """A card's place in the hand: a whole number as `int()` reads it, unsigned
    (`+2` and `+4` are cards)."""
    return None if word.startswith(("+", "-")) else parse_int(word)


#: Punctuation a sentence puts around a command word (`¡UNO!`, `uno!`, `¿robar?`): read without it.
_MARKS = "¡!¿?.,;:"


def command_word(word: str, lang: str | None = None) -> str | None:
    """The game command a typed word names: a word or short form of the
    reader's language, else of English, else of any language the bot speaks
    (`p` is pass in English, whatever another language makes of it); the
    marks a sentence puts around it are not part of it (`¡UNO!`, as the
    Spanish texts show the call, `uno!`)."""
    low = fold(word).strip(_MARKS)
    for language in typed.in_order(lang):
        name = _command_words(language).get(low)
        if name is not None:
            return name
    return None


@cache
def _command_words(lang: str) -> dict[str, str]:
    """Folded command words and short forms of one language -> the command."""
    _ = gettext_for(lang)
    words: dict[str, str] = {}
    if lang == "en":
        words.update({alias: name for name, aliases in ALIASES.items() for alias in aliases})
    for table in (WORDS, SHORT):
        for name, text in table.items():
            words.setdefault(fold(_(text)), name)
    return words


def _plugin_kind(word: str) -> bool:
    """Is `word` a move kind a plugin added (typed as its text: `time_up`)?"""
    from ..registry import MOVE_KINDS, declared

    return declared(MOVE_KINDS, word.lower()) is not None


def numbered_hand(cards: Iterable[Card]) -> list[Card]:
    """A hand as it is numbered for typing: each card once, by colour, then
    rank, wilds last (as the console shows it)."""
    return sorted(dict.fromkeys(cards), key=_sort_key)


def parse(line: str, table: Table, person_id: str, lang: str | None) -> Parsed:
    """Parse one typed line for a person at a table: their hand numbered as
    `numbered_hand` does, readings limited to the cards of the table's deck."""
    game = table.game
    if game is None:
        return parse_hand(line, [], lang)
    seat = table.seat_of(person_id)
    hand = numbered_hand(game.hands[seat]) if seat is not None and 0 <= seat < len(game.hands) else []
    return parse_hand(line, hand, lang, deck_of(game))


def deck_of(game: GameState) -> set[Card]:
    """The cards a game plays with: every card in a hand, the draw pile or the discard pile."""
    return set(game.all_cards())


#: How the hands show a count of identical cards ("×2").
_COUNT = re.compile(r"×\d+")


#: The refusal of a line whose first word is no command and begins no card.
UNKNOWN = "unknown_command"


def parse_hand(line: str, hand: Sequence[Card], lang: str | None,
               deck: Collection[Card] | None = None, known: Collection[str] = (),
               players: Collection[str] | None = None) -> Parsed:
    """Parse one typed line; `hand` is the hand in the order it is numbered,
    `deck` the cards the table plays with (None: any card). `known`: the
    words the front-end reads itself before this (the console's `help`,
    `quit`, `top`), which a "did you mean" may name too.

    A line refused for a word nobody knows (`drwa`, `yelow 7`, `play
    wlid`) says which known word was most likely meant, when one clearly
    is and the line then reads (`typos`); it is never played as corrected.
    With `players` (the names at the table), a card whose last words name
    nobody there and read as a slip (`Descarta todo amarilo`, `Blue Skip
    Everone`) gets the same, where the engine could only say "No such
    player"."""
    _ = gettext_for(lang)
    parsed = _parse_hand(line, hand, lang, deck)
    if isinstance(parsed, c.Play) and parsed.target and players is not None \
            and not _names_one(parsed.target, players):
        meant = _meant(line, hand, lang, deck, known, untargeted=True)
        if meant is not None:
            return Refusal(" ".join((error_text("bad_player", lang),
                                     _("Did you mean {meant!r}?").format(meant=meant))), "bad_player")
    if isinstance(parsed, Refusal) and parsed.code in (UNKNOWN, "bad_card"):
        meant = _meant(line, hand, lang, deck, known)
        if meant is not None:
            if parsed.code == UNKNOWN:
                message = _("Unknown command {word!r}. Did you mean {meant!r}?").format(
                    word=line.split()[0], meant=meant)
            else:
                message = " ".join((parsed.message, _("Did you mean {meant!r}?").format(meant=meant)))
            return Refusal(message, parsed.code)
    return parsed


def _meant(line: str, hand: Sequence[Card], lang: str | None, deck: Collection[Card] | None,
           known: Collection[str], untargeted: bool = False) -> str | None:
    """The line with each word nobody knows replaced by the known word closest
    to it, when that line reads as a move or begins with one of `known`
    (with `untargeted`: as a card aimed at nobody, a colour only on a wild)."""
    own = typos.vocabulary(("", word) for word in known)
    words = {**typos.card_words(lang), **_typed_words(lang), **own}
    typed_words = line.split()
    options = [[word] if _readable(word, lang) else typos.nearest(word, words) or [word] for word in typed_words]
    fits: list[str] = []
    for fixed in islice(product(*options), 16):  # a few words near as many others: lines enough
        if list(fixed) == typed_words:
            continue
        reading = _parse_hand(" ".join(fixed), hand, lang, deck)
        if untargeted:
            fit = isinstance(reading, c.Play) and reading.target is None and (
                reading.color is None or parse_card(reading.card).is_wild)
        else:
            fit = fold(fixed[0]) in own or not isinstance(reading, Refusal)
        if fit:
            fits.append(" ".join(fixed))
    fits = list(dict.fromkeys(fits))
    return fits[0] if len(fits) == 1 else None  # two lines that read: nothing is clearly meant


def _names_one(target: str, players: Collection[str]) -> bool:
    """Does a typed target name one of the players, as `Table.find_seat` reads it
    (a whole name or the start of one, in any case)?"""
    low = target.lstrip("@").lower()
    return any(name.lower() == low or name.lower().startswith(low) for name in players)


def _readable(word: str, lang: str | None) -> bool:
    """Does a word read alone (a number, a card code, a colour, a command)? Then it is no typo."""
    return (hand_number(word) is not None or card_word(word, lang) is not None
            or color_word(word, lang=lang) is not None or command_word(word, lang) is not None)


def _typed_words(lang: str | None) -> dict[str, str]:
    """The command words and the plugins' moves (kinds and titles) of the reader's language and English."""
    from ..registry import MOVE_KINDS, declared

    declared(MOVE_KINDS, "")
    key = tuple((kind, rule) for kind, rule in MOVE_KINDS.items() if kind not in rule.system_moves)
    pairs = [("", kind) for kind, _rule in key]
    for language in dict.fromkeys((normalize(lang), "en")):
        _ = gettext_for(language)
        pairs += [("", _(text)) for text in WORDS.values()]
        pairs += [("", title) for title in _move_titles(language, key)]
    return typos.vocabulary(pairs)


def _parse_hand(line: str, hand: Sequence[Card], lang: str | None, deck: Collection[Card] | None) -> Parsed:
    _ = gettext_for(lang)
    # A card typed as the hand shows it ("Green 2 ×2": two of them held) plays one of them:
    # the count is no word of the move (it read as a target, "No such player"); `UNO !`
    # (French spacing): the `!` alone says nothing.
    words = [w for w in line.split() if w.strip(_MARKS) and not _COUNT.fullmatch(w)]
    if not words:
        return Refusal(_("Type a card's number to play it, or draw (help lists every command)."), "empty")
    with_uno = _plugin_move_with_uno(words, hand, lang)
    if with_uno is not None:
        return with_uno
    move = plugin_move_text(words, lang)  # a whole title, before its first word is read as a command
    if move is not None:                    # (`Jugar varias cartas` is no `jugar` of a card)
        return c.PluginMove(text=move_cards(move, hand, lang))
    name = command_word(words[0], lang)
    rest = words[1:]
    if name == DRAW_PLAY or (name == DRAW and rest and command_word(rest[0], lang) == PLAY):
        return c.Draw(then_play=True)
    if name == DRAW:
        return c.Draw()
    if name == PASS:
        return c.Pass()
    if name == CHALLENGE:
        return c.Challenge()
    if name == CATCH:
        return c.Catch(target=" ".join(rest) or None)
    if _plugin_kind(words[0]):
        return c.PluginMove(text=move_cards(line.strip(), hand, lang))
    if name == COLOR:
        # Naming the colour of a Wild starter: `color green`, `color verde`, `color g`.
        named = color_word(" ".join(rest), lang=lang) if rest else None
        if named is None:
            return Refusal(_("Name a colour: red, yellow, green or blue."), "bad_color")
        return c.NameColor(color=COLOR_NAMES[named])
    if name == UNO:
        if not rest:
            return c.SayUno()
        return _play(rest, hand, lang, deck, uno=True)
    if name == PLAY:
        if not rest:
            return Refusal(_("Say which card: play 3, play R5, play Red 5, play W+4 green."))
        return _play(rest, hand, lang, deck)
    if hand_number(words[0]) is not None or card_readings(words, lang):
        return _play(words, hand, lang, deck)
    return Refusal(_("Unknown command {word!r}. Type help to see the commands.").format(word=words[0]), UNKNOWN)


def _plugin_move_with_uno(words: Sequence[str], hand: Collection[Card], lang: str | None) -> c.PluginMove | None:
    """A plugin's move with UNO said with it, as a play takes it (`uno multi
    R5 G5`, `multi R5 G5 uno`, by its kind or its title): a multi-play from
    three cards to one owes UNO as a play from two does. None when the line
    has no UNO word first or last, or the rest is no plugin move."""
    if len(words) < 2:
        return None
    if command_word(words[0], lang) == UNO:
        rest = list(words[1:])
    elif command_word(words[-1], lang) == UNO:
        rest = list(words[:-1])
    else:
        return None
    text = plugin_move_text(rest, lang)
    if text is None and _plugin_kind(rest[0]):
        text = " ".join(rest)
    return c.PluginMove(text=move_cards(text, hand, lang), uno=True) if text is not None else None


def move_cards(text: str, hand: Collection[Card], lang: str | None) -> str:
    """A plugin move's text with each card of `hand` its player typed in
    their own short form (`V5`: vert 5, `A5`: amarillo 5) as the engine's
    code (`G5`, `Y5`); words that are codes already, colours and names are
    kept (a card not held is no card of theirs: `ada` reads as a Yellow
    Discard All to a Spanish reader, and is a player).

    Why: the engine reads a move's cards by their codes only, so a French
    player who typed `Jouer plusieurs cartes R5 V5`, as they type a card
    anywhere else, was told "No such player in this game" (`V5` read as a
    target). Only a word that reads as one card and nothing else is changed."""
    words = text.split()
    out = words[:1]
    for word in words[1:]:
        try:
            parse_card(word)
        except CardError:
            readings = {card for card, used in card_readings([word], lang) if used == 1 and card in hand}
            if len(readings) == 1:
                word = next(iter(readings)).text
            elif not is_color_word(word) and (named := color_word(word, letters=False, lang=lang)):
                word = COLOR_NAMES[named]  # `verde`, `vert`: a colour as the reader writes it
        out.append(word)
    return " ".join(out)


def plugin_move_text(words: Sequence[str], lang: str | None = None) -> str | None:
    """A plugin's move typed by its title as shown in any language, the
    reader's first (`Постучать по столу`, `golpear la mesa`): the move's text
    as the engine reads it, its kind then the words after the title
    (`knock`; `multi R5 G5`). None when the line starts with no title.

    Why: offers and help show a plugin's move by its title in the reader's
    language, and a Russian player who typed what they read was told
    "unknown command": only the kind (`knock`, English) was read. Only a
    whole title is read, so a card or a command is never taken for a move."""
    from ..registry import MOVE_KINDS, declared

    declared(MOVE_KINDS, "")  # the installed rules' kinds, loaded
    key = tuple((kind, rule) for kind, rule in MOVE_KINDS.items() if kind not in rule.system_moves)
    folded = [fold(w) for w in words]
    for language in typed.in_order(lang):
        titles = _move_titles(language, key)
        for k in range(len(folded), 0, -1):
            kind = titles.get(" ".join(folded[:k]))
            if kind is not None:
                return " ".join([kind, *words[k:]])
    return None


@cache
def _move_titles(lang: str, kinds: tuple[tuple[str, type[Rule]], ...]) -> dict[str, str]:
    """Folded titles of the move kinds a person may send, in one language -> the kind."""
    from .i18n import rule_text

    titles: dict[str, str] = {}
    for kind, rule in kinds:
        titles.setdefault(" ".join(fold(rule_text(rule, rule.move_kinds[kind], lang)).split()), kind)
    return titles


def plugin_move_word(move_text: str, kind: str, lang: str | None) -> str:
    """What a person types for a plugin's move, as offers and help show it:
    its title in the reader's language and the words after its kind in the
    move's text (`Постучать по столу`); the move's own text (`knock`) where
    the title is the English one (English, or a language the plugin does
    not translate). Both are read (`plugin_move_text`)."""
    title = plugin_move_title(kind, lang)
    if title == plugin_move_title(kind, "en"):
        return move_text
    return " ".join([title, *move_text.split()[1:]])


@dataclass(frozen=True)
class _Reading:
    card: Card
    color: str | None
    target: str | None
    uno: bool

    def command(self) -> c.Play:
        return c.Play(card=self.card.text, color=COLOR_NAMES[self.color] if self.color else None,
                      target=self.target, uno=self.uno)


def _play(words: list[str], hand: Sequence[Card], lang: str | None, deck: Collection[Card] | None,
          uno: bool = False) -> Parsed:
    _ = gettext_for(lang)
    n = hand_number(words[0])
    if n is not None:
        return _by_number(n, words, hand, lang, deck, uno)
    readings = [_finish(card, words[used:], lang, uno) for card, used in card_readings(words, lang)]
    if not readings:
        return Refusal(error_text("bad_card", lang), "bad_card")
    return _choose(readings, hand, deck)


def _choose(readings: list[_Reading], hand: Sequence[Card], deck: Collection[Card] | None,
            index: int | None = None) -> Parsed:
    """One reading, or `Ambiguous` when the person holds more than one card the line may mean."""
    readings = list(dict.fromkeys(readings))
    if any(r.target is None for r in readings):  # `Blue Skip Everyone` is no Blue Skip aimed at Everyone
        readings = [r for r in readings if r.target is None]
    if any(r.card.is_wild or r.color is None for r in readings):  # `+4 red`: no Yellow +4 in red
        readings = [r for r in readings if r.card.is_wild or r.color is None]
    if deck is not None:
        in_deck = [r for r in readings if r.card in deck]
        readings = in_deck or readings
    held = [r for r in readings if r.card in hand]
    if len(held) > 1:
        return Ambiguous(tuple(r.command() for r in held), index)
    if held:
        return held[0].command()
    # held by nobody: the engine will say so; read it as a card of the official deck if it may be one
    return sorted(readings, key=lambda r: r.card not in _OFFICIAL)[0].command()


def _by_number(n: int, words: list[str], hand: Sequence[Card], lang: str | None, deck: Collection[Card] | None,
               uno: bool) -> Parsed:
    _ = gettext_for(lang)
    index_card = hand[n - 1] if 1 <= n <= len(hand) else None
    if len(words) > 1 and hand_number(words[1]) is not None:
        return Refusal(_("One card at a time: its number (3) or its name (Red 5, R5)."))
    named = [(card, used) for card, used in card_readings(words, lang) if used > 1]
    if named:  # `5 amarillo`: card 5 in yellow, or the Yellow 5?
        as_cards = [_finish(card, words[used:], lang, uno) for card, used in named]
        held = [r for r in as_cards if r.card in hand]
        index_fits = index_card is not None and index_card.is_wild
        if index_fits and index_card is not None:
            as_index = _finish(index_card, words[1:], lang, uno)
            if held:
                return Ambiguous((as_index.command(), *(r.command() for r in held)), n)
            return as_index.command()
        if held or index_card is None:
            return _choose(as_cards, hand, deck)
        return Refusal(_("Card {n} of your hand is {card}, which takes no colour, and you hold no {named}. "
                         "Type the card's number alone, or its name.").format(
            n=n, card=card_name(index_card, lang), named=card_name(as_cards[0].card, lang)))
    if index_card is None:
        if not hand:
            return Refusal(_("You hold no cards to play."), "no_cards")
        return Refusal(_("There is no card {n} in your hand; its cards are numbered 1 to {last}.").format(
            n=n, last=len(hand)), "bad_number")
    return _finish(index_card, words[1:], lang, uno).command()


def _full_color(words: Sequence[str], lang: str | None) -> bool:
    """Do these words make a colour's whole name in some language (`xanh lá`)?"""
    text = fold(" ".join(words))
    return any(text in typed.color_names(language) for language in typed.in_order(lang))


def _finish(card: Card, rest: Sequence[str], lang: str | None, uno: bool) -> _Reading:
    """What follows the card: a colour (one word, or more: `xanh lá cây`), `uno`, a player's name."""
    color: str | None = None
    target: list[str] = []
    words = list(rest)
    i = 0
    while i < len(words):
        word = words[i]
        named = None
        if color is None and not target:
            longer = next((n for n in (3, 2) if i + n <= len(words) and _full_color(words[i:i + n], lang)), 0)
            if longer:
                named, i = color_word(" ".join(words[i:i + longer]), lang=lang), i + longer - 1
            elif card.is_wild:
                named = color_word(word, lang=lang)
            elif len(word) > 1:
                named = color_word(word, letters=False, lang=lang)  # a colour on a coloured card: the engine says why not
        if command_word(word, lang) == UNO:
            uno = True
        elif named is not None:
            color = named
        else:
            target.append(word)
        i += 1
    return _Reading(card, color, " ".join(target) or None, uno)

