"""Cards: small immutable values with the compact text form of the scenario format.

A card is interned (one object per colour and rank), so comparing cards is an
identity check and a hand is a plain list of shared objects. That keeps the
engine's hot path cheap and the state small when serialized (`R5`, `G+2`,
`BS`, `YR`, `W`, `W+4`).

Ranks are open: a plugin may build a deck with ranks the core does not know
(say `+6`); such a card has no built-in effect until a rule gives it one.
"""

from __future__ import annotations

from typing import ClassVar, Final

COLORS: Final = ("R", "Y", "G", "B")
COLOR_NAMES: Final = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
_COLOR_BY_WORD: Final = {
    **{c: c for c in COLORS},
    **{name: c for c, name in COLOR_NAMES.items()},
    **{c.lower(): c for c in COLORS},
}

NUMBERS: Final = tuple(str(n) for n in range(10))
SKIP: Final = "S"
REVERSE: Final = "R"
DRAW_TWO: Final = "+2"
WILD: Final = ""
WILD_DRAW_FOUR: Final = "+4"
ACTIONS: Final = (SKIP, REVERSE, DRAW_TWO)

#: How many cards a draw card makes the victim take, by rank.
DRAW_AMOUNT: Final = {DRAW_TWO: 2, WILD_DRAW_FOUR: 4}


def _is_count(text: str) -> bool:
    """ASCII digits only (`str.isdigit` accepts '²', which `int` refuses)."""
    return bool(text) and text.isascii() and text.isdecimal()


class CardError(ValueError):
    """A card's text does not name a card."""


class Card:
    """One card kind: a colour (None for wilds) and a rank.

    Never construct directly; use `Card.get` or `parse_card`, which intern.
    """

    __slots__ = ("color", "rank", "text", "is_wild", "is_number", "draw", "value", "__weakref__")
    _interned: ClassVar[dict[tuple[str | None, str], Card]] = {}

    color: str | None
    rank: str
    text: str
    is_wild: bool
    is_number: bool
    draw: int
    value: int

    def __init__(self, color: str | None, rank: str) -> None:
        self.color = color
        self.rank = rank
        self.text = (color or "W") + rank
        self.is_wild = color is None
        self.is_number = rank in NUMBERS
        self.draw = int(rank[1:]) if rank.startswith("+") and _is_count(rank[1:]) else 0
        # Official scoring value; rules may score differently (see the score hook).
        if self.is_number:
            self.value = int(rank)
        elif self.is_wild:
            self.value = 50
        else:
            self.value = 20

    @classmethod
    def get(cls, color: str | None, rank: str) -> Card:
        key = (color, rank)
        card = cls._interned.get(key)
        if card is None:
            card = cls._interned[key] = cls(color, rank)
        return card

    def __repr__(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, ...]:
        return (Card.get, (self.color, self.rank))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __lt__(self, other: Card) -> bool:
        return sort_key(self) < sort_key(other)


_PARSED: dict[str, Card] = {}


def parse_card(text: str) -> Card:
    """Turn `R5`, `g+2`, `BS`, `W+4` into a card; raise CardError otherwise."""
    card = _PARSED.get(text)
    if card is not None:
        return card
    raw = text.strip().upper()
    if not raw or len(raw) > 4:
        raise CardError(text)
    head, rank = raw[0], raw[1:]
    if head == "W":
        if rank not in (WILD, WILD_DRAW_FOUR) and not rank.startswith("+"):
            raise CardError(text)
        card = Card.get(None, rank)
    elif head in COLORS:
        if not (rank in NUMBERS or rank in ACTIONS or (rank.startswith("+") and _is_count(rank[1:]))):
            raise CardError(text)
        card = Card.get(head, rank)
    else:
        raise CardError(text)
    _PARSED[text] = card
    return card


def parse_color(word: str) -> str:
    """`red`, `R`, `r` -> `R`; raise CardError for anything else."""
    color = _COLOR_BY_WORD.get(word.strip()) or _COLOR_BY_WORD.get(word.strip().lower())
    if color is None:
        raise CardError(word)
    return color


def is_color_word(word: str) -> bool:
    return word.strip().lower() in _COLOR_BY_WORD or word.strip() in _COLOR_BY_WORD


_RANK_ORDER = {r: i for i, r in enumerate((*NUMBERS, SKIP, REVERSE, DRAW_TWO, WILD, WILD_DRAW_FOUR))}
_COLOR_ORDER = {c: i for i, c in enumerate(COLORS)}


def sort_key(card: Card) -> tuple[int, int, str]:
    """Hands show colours together, then by rank, wilds last."""
    return (
        _COLOR_ORDER.get(card.color, 9) if card.color else 9,
        _RANK_ORDER.get(card.rank, 50),
        card.rank,
    )


def official_deck() -> list[Card]:
    """The 108 cards of Mattel's deck, in a fixed order (shuffle with the game's RNG)."""
    return list(_OFFICIAL)


def _build_official() -> tuple[Card, ...]:
    deck: list[Card] = []
    for color in COLORS:
        deck.append(Card.get(color, "0"))
        for rank in (*NUMBERS[1:], *ACTIONS):
            deck.append(Card.get(color, rank))
            deck.append(Card.get(color, rank))
    deck.extend([Card.get(None, WILD)] * 4)
    deck.extend([Card.get(None, WILD_DRAW_FOUR)] * 4)
    return tuple(deck)


_OFFICIAL = _build_official()


def parse_cards(text: str | list[str]) -> list[Card]:
    words = text.split() if isinstance(text, str) else text
    return [parse_card(str(w)) for w in words]
