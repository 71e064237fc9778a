"""A mistyped word -> the word the person most likely meant ("did you mean").

Why: a player who typed `drwa`, `yelow 7`, `chalenge` or `toop` was told
only "Unknown command", and had to find their slip in the help. Every
word a typed line may hold is known (the commands, the colours, the cards'
names, the plugins' moves, a front-end's own words), so the closest one can
be named back to them. It is only named, never played: a move is what the
person typed, not what we guessed (`grammar.parse_hand` offers the
corrected line only when it reads as a move or a front-end's word).

Only the reader's language and English are searched (`brun` is close to a
word of some language for nearly anything), only words of three letters or
more are corrected, and only when one candidate is clearly the closest.
Close means one slip of a finger (a letter left out, added, changed, or
two swapped: `drwa`, `yelow`, `hlep`), two in a word of six letters or
more (`clasificacon`, `chalenge`): a likeness ratio also took `next` for
`exit` (three letters in common), which no one mistypes so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from ..cards import COLORS, Card, all_kinds
from .i18n import normalize
from .render import card_name, kind_name
from .typed import color_names, fold

#: Shorter words are left as typed: fewer letters have too many neighbours.
SHORTEST = 3
#: From this length on, a word may hold two slips.
LONG = 6


def vocabulary(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Folded word -> the word as shown (lower case, accents kept), the first
    spelling of each folded word kept; words shorter than `SHORTEST` left out."""
    words: dict[str, str] = {}
    for word in (w for _, text in pairs for w in text.lower().split()):
        folded = fold(word)
        if len(folded) >= SHORTEST:
            words.setdefault(folded, word)
    return words


def card_words(lang: str | None) -> Mapping[str, str]:
    """The words of every card's and colour's name in the reader's language and English
    (`yellow`, `draw`, `two`, `comodín`, `salta`, `todos`), a plugin's cards too
    (built again when a plugin declares a new kind)."""
    return _card_words(normalize(lang), tuple(id(kind) for kind in all_kinds()))


@cache
def _card_words(lang: str, _kinds: tuple[int, ...]) -> Mapping[str, str]:
    languages = tuple(dict.fromkeys((lang, "en")))
    pairs: list[tuple[str, str]] = []
    for language in languages:
        pairs += [("", name) for name in color_names(language)]
        for kind in all_kinds():
            pairs.append(("", kind_name(kind, language) or ""))
            cards = [Card.get(None, kind.rank)] if kind.wild else [Card.get(color, kind.rank) for color in COLORS]
            pairs += [("", card_name(card, language)) for card in cards]
    return vocabulary(pairs)


def nearest(word: str, words: Mapping[str, str]) -> list[str]:
    """The words of `words` (folded -> shown) that `word` was most likely meant
    to be, as shown: every one as near as the nearest (`robr`: `robar`, and
    `roba` of a card's name), for the caller to keep those its line reads
    with; none when it is known already, too short, or nothing is near."""
    folded = fold(word)
    if len(folded) < SHORTEST or folded in words:
        return []
    most = 1 if len(folded) < LONG else 2
    best: dict[str, int] = {}
    for known in words:
        if abs(len(known) - len(folded)) <= most:
            apart = slips(folded, known)
            if apart <= most:
                best[known] = apart
    if not best:
        return []
    least = min(best.values())
    return list(dict.fromkeys(words[known] for known, apart in best.items() if apart == least))


def closest(word: str, words: Mapping[str, str]) -> str | None:
    """The one word `word` was most likely meant to be (`nearest`), or None
    when none or more than one is as near."""
    found = nearest(word, words)
    return found[0] if len(found) == 1 else None


def slips(typed: str, meant: str) -> int:
    """How many slips of a finger turn `meant` into `typed`: letters left out,
    added or changed, and two neighbours swapped (the optimal string
    alignment distance)."""
    before: list[int] = []
    row = list(range(len(meant) + 1))
    for i in range(1, len(typed) + 1):
        current = [i] + [0] * len(meant)
        for j in range(1, len(meant) + 1):
            cost = typed[i - 1] != meant[j - 1]
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if i > 1 and j > 1 and typed[i - 1] == meant[j - 2] and typed[i - 2] == meant[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        before, row = row, current
    return row[-1]
