"""Cards: small immutable values with the compact text form of the scenario format.

A card is interned (one object per colour and rank), so comparing cards is an
identity check and a hand is a plain list of shared objects. That keeps the
engine's hot path cheap and the state small when serialized (`R5`, `G+2`,
`BS`, `YR`, `W`, `W+4`).

Ranks are open: a plugin may build a deck with ranks the core does not know
(say `+6`); such a card has no built-in effect until a rule gives it one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Final

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
_BUILT_IN_RANKS: Final = frozenset((*NUMBERS, *ACTIONS, WILD, WILD_DRAW_FOUR))

#: How many cards a draw card makes the victim take, by rank.
DRAW_AMOUNT: Final = {DRAW_TWO: 2, WILD_DRAW_FOUR: 4}


def _is_count(text: str) -> bool:
    """ASCII digits only (`str.isdigit` accepts '²', which `int` refuses)."""
    return bool(text) and text.isascii() and text.isdecimal()


class CardError(ValueError):
    """A card's text does not name a card."""


@dataclass(frozen=True)
class CardKind:
    """A card rank: what it is called, what its face shows, what it is worth.

    A plugin declares its own on a rule (`Rule.cards = (CardKind(...),)`);
    they are registered when the rule is loaded, so their cards parse, save,
    load, render and can be typed like the built-in ones, whose kinds are
    declared the same way below (`BUILT_IN_KINDS`). The card's text (its
    code, in logs, saved games and scenarios) is its colour letter (`W` for
    a wild) and `rank`: `CardKind("SE", name="Skip Everyone")` gives `RSE`,
    `GSE`, ...; `CardKind("SH", wild=True, name="Wild Shuffle Hands")`
    gives `WSH`. The rank stays ASCII (1-4 letters, digits or +) because it
    is stored; what a player sees on the card is `symbol`.

    - `name`: the kind's name as an English msgid, translated through the
      rule's own catalogue (`Rule.locale`): a coloured card is then shown
      as "{color} {name}" in the reader's words ("Red Skip Everyone",
      "Salta a todos rojo"); a wild's name is its whole name.
    - `names`: a name per language instead (`{"es": "Bomba"}`).
    - `color_names`: the whole name in each colour, one English msgid per
      colour letter (`{"R": N_("Red Bomb"), ...}`), for languages whose
      word order or gender a template cannot give ("Bomba roja").
    - `symbol`: what the card's face shows (any text, not only ASCII:
      `⊘`, `⇄`, `+2`); empty for the rank itself.
    - `words`: more English msgids a player may type for the kind ("skip
      all"), translated like `name`.

    What the card does is the rule's hooks' business (`on_play`, `card_fits`, ...).
    """

    rank: str
    wild: bool = False
    value: int = 20
    draw: int = 0
    name: str = ""
    names: Mapping[str, str] = field(default_factory=dict)
    symbol: str = ""
    color_names: Mapping[str, str] = field(default_factory=dict)
    words: tuple[str, ...] = ()
    #: For a draw card (`draw` > 0): whether the house rules that stack draw
    #: cards stack it, as an answer to a pending total and as a total to
    #: answer. `stacking` takes a card drawing 4 or more as a Wild Draw Four
    #: and one drawing fewer as a Draw Two (its four options say which goes
    #: on which), `value-stacking` goes by `draw`. False: never stacked.
    #: Why declared here: a plugin's draw card is stacked like the built-in
    #: ones without the stacking rules naming it (`stacks_as`).
    stacks: bool = True
    #: The rule that declared it (set on registration); "" for unobot's own.
    rule: str = ""

    def __post_init__(self) -> None:
        if not _RANK_TEXT.fullmatch(self.rank) or self.rank in _BUILT_IN_RANKS:
            raise ValueError(
                f"a card kind's rank is 1-4 letters, digits or + and not a built-in rank, "
                f"not {self.rank!r}")
        if set(self.color_names) - set(COLORS):
            raise ValueError(f"a card kind's colour names are keyed by {', '.join(COLORS)}, "
                             f"not {sorted(set(self.color_names) - set(COLORS))}")

    @property
    def face(self) -> str:
        """What the card's face shows: the symbol, else the rank (`W` for the plain wild)."""
        return self.symbol or self.rank or "W"


_RANK_TEXT = re.compile(r"[A-Z0-9+]{1,4}")
#: Card kinds added by plugins, by rank.
KINDS: dict[str, CardKind] = {}


def _core_kind(rank: str, **declared: Any) -> CardKind:
    """One of unobot's own kinds: declared like a plugin's, without the check
    that keeps plugins off the built-in ranks."""
    kind = object.__new__(CardKind)
    for f in fields(CardKind):
        if f.name == "rank":
            value: Any = rank
        elif f.name in declared:
            value = declared[f.name]
        else:  # the mappings' default_factory is dict
            value = f.default if f.default is not MISSING else {}
        object.__setattr__(kind, f.name, value)
    return kind


def N_(text: str) -> str:
    """Marks a msgid for extraction, as core/chat/i18n.N_ does (imported by nothing here)."""
    return text


#: unobot's own kinds, by (is wild, rank): the numbers, Skip, Reverse, Draw
#: Two, Wild, Wild Draw Four, and the draw cards other decks use (the No
#: Mercy coloured +4, Wild Draw Six and Ten). Their texts are in unobot's
#: catalogue. A draw rank declared nowhere (`W+8`) gets a kind made up from
#: its rank (`kind_of`).
BUILT_IN_KINDS: Final[dict[tuple[bool, str], CardKind]] = {
    **{(False, n): _core_kind(n, value=int(n)) for n in NUMBERS},
    (False, SKIP): _core_kind(SKIP, name=N_("Skip"), symbol="⊘"),
    (False, REVERSE): _core_kind(REVERSE, name=N_("Reverse"), symbol="⇄"),
    (False, DRAW_TWO): _core_kind(DRAW_TWO, name=N_("Draw Two"), draw=2),
    (False, WILD_DRAW_FOUR): _core_kind(WILD_DRAW_FOUR, draw=4),  # No Mercy's Draw Four: "Red +4"
    (True, WILD): _core_kind(WILD, wild=True, value=50, name=N_("Wild"), symbol="W"),
    (True, WILD_DRAW_FOUR): _core_kind(WILD_DRAW_FOUR, wild=True, value=50, draw=4,
                                       name=N_("Wild Draw Four")),
    (True, "+6"): _core_kind("+6", wild=True, value=50, draw=6, name=N_("Wild Draw Six")),
    (True, "+10"): _core_kind("+10", wild=True, value=50, draw=10, name=N_("Wild Draw Ten")),
}
_MADE_UP: dict[tuple[bool, str], CardKind] = {}


def kind_of(card: Card) -> CardKind:
    """The declared kind of any card: a plugin's (`KINDS`), one of unobot's own
    (`BUILT_IN_KINDS`), or, for a rank declared nowhere, one made up from it
    (its rank as its symbol, no name: shown as "Red X9", "Wild +8")."""
    kind = KINDS.get(card.rank)
    if kind is not None and kind.wild == card.is_wild:
        return kind
    key = (card.is_wild, card.rank)
    kind = BUILT_IN_KINDS.get(key) or _MADE_UP.get(key)
    if kind is None:
        kind = _MADE_UP[key] = _core_kind(card.rank, wild=card.is_wild, value=card.value, draw=card.draw)
    return kind


def stacks_as(card: Card) -> str:
    """The built-in draw card `card` stacks as, for the house rules that
    stack draw cards: `DRAW_TWO` for a draw card drawing fewer than 4,
    `WILD_DRAW_FOUR` for one drawing 4 or more, "" for a card that does not
    stack (no draw, or its kind says `stacks=False`). Why one answer here:
    a plugin's +3 or Wild +6 stacks as a built-in one does, on every rule
    that stacks, with no rule naming the plugin's ranks."""
    if not card.draw or not kind_of(card).stacks:
        return ""
    return WILD_DRAW_FOUR if card.draw >= DRAW_AMOUNT[WILD_DRAW_FOUR] else DRAW_TWO


def rank_stacks_as(rank: str) -> str:
    """`stacks_as` for a rank without a colour (`state.pending_rank`: the
    rank of the card that made a pending total), read as the card is dealt:
    a plugin kind's (wild or coloured as declared), else the built-in wild
    of that rank where there is one (`+4`: the Wild Draw Four), else a
    coloured one. "" for a rank no card of which stacks (a rule's own
    penalty for a 7)."""
    if not rank or not _RANK_TEXT.fullmatch(rank):
        return ""
    kind = KINDS.get(rank)
    wild = kind.wild if kind is not None else (True, rank) in BUILT_IN_KINDS
    return stacks_as(Card.get(None if wild else COLORS[0], rank))


def all_kinds() -> list[CardKind]:
    """Every kind declared so far: unobot's own, then the plugins' (loaded first)."""
    load_installed_rules()
    return [*BUILT_IN_KINDS.values(), *KINDS.values()]


def register_kind(kind: CardKind) -> None:
    """Make a plugin's card kind known (the rule registry calls this)."""
    old = KINDS.get(kind.rank)
    if old is not None and old != kind:
        raise ValueError(f"card rank {kind.rank!r} is declared twice ({old.rule}, {kind.rule})")
    KINDS[kind.rank] = kind
    changed = False
    for key, card in list(Card._interned.items()):
        if key[1] == kind.rank:
            card._apply_kind(kind)
            changed = True
    if changed:  # a card's value or draw changed: what was worked out from them is stale
        for cache in _CLEARED_ON_NEW_CARD:
            cache.clear()


def unregister_kind(rule: str) -> None:
    """Forget the card kinds a rule declared (a rule unregistered, as a test's
    `installed` block ends): a later test must not see them in `all_kinds`."""
    for rank in [rank for rank, kind in KINDS.items() if kind.rule == rule]:
        del KINDS[rank]


#: Loads the installed rules, so that their card kinds are known before a
#: saved game or a scenario names one of their cards. The rule registry sets
#: it when it is imported (`set_discovery`), and `unobot` imports the registry
#: first thing: why not an import here: cards are below the rules, and parsing
#: a card started plugin discovery through a cycle back up (cards -> registry
#: -> rule -> hookspecs -> state -> cards).
_discover: Callable[[], object] | None = None


def set_discovery(load: Callable[[], object]) -> None:
    """Say how to load the installed rules (the registry's `available_rules`)."""
    global _discover
    _discover = load


def load_installed_rules() -> None:
    """Make sure the installed rules are loaded (their card and move kinds known)."""
    if _discover is not None:
        _discover()


def installed_rule_names() -> Collection[str]:
    """The names of the installed rules, through the same discovery (none
    before the registry set it): what a saved game's rules are checked
    against without importing the registry (which imports the state)."""
    found = _discover() if _discover is not None else None
    return found.keys() if isinstance(found, dict) else ()



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
        kind = KINDS.get(rank)
        if kind is not None:
            self._apply_kind(kind)

    def _apply_kind(self, kind: CardKind) -> None:
        self.value = kind.value
        self.draw = kind.draw

    @property
    def kind(self) -> CardKind | None:
        """The plugin card kind of this card, or None for a built-in rank."""
        return KINDS.get(self.rank)

    @classmethod
    def get(cls, color: str | None, rank: str) -> Card:
        key = (color, rank)
        card = cls._interned.get(key)
        if card is None:
            card = cls._interned[key] = cls(color, rank)
            for cache in _CLEARED_ON_NEW_CARD:  # known_cards() and what rules cached from it
                cache.clear()
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

    # No rich comparisons (sort with `key=sort_key`): a Python `__lt__` puts
    # every == of two cards through a Python-level slot, which made
    # `hand.remove(card)` and `card in hand` ten times slower; without one a
    # card is equal to itself only, compared in C.


_KNOWN: list[tuple[Card, ...]] = []
_CLEARED_ON_NEW_CARD: list[Any] = [_KNOWN]  # what is emptied when a new card is interned


def clear_on_new_card(cache: dict[Any, Any]) -> dict[Any, Any]:
    """Register (and return) a cache worked out from the cards there are: it
    is emptied whenever a new card is interned (a plugin's card kind), or a
    card kind is declared for cards already interned."""
    _CLEARED_ON_NEW_CARD.append(cache)
    return cache


class CardSet(set["Card"]):
    """Every card there is for which `test` holds, kept up to date: refilled
    whenever a new card is interned or a kind is declared (`card_set`)."""

    def __init__(self, test: Callable[[Card], bool]) -> None:
        super().__init__()
        self.test = test
        self.clear()

    def clear(self) -> None:
        super().clear()
        self.update(c for c in known_cards() if self.test(c))


def card_set(test: Callable[[Card], bool]) -> CardSet:
    """A live set of the cards for which `test` holds (see CardSet): for a
    test in the hot path that must not call back into Python per card."""
    found = CardSet(test)
    _CLEARED_ON_NEW_CARD.append(found)
    return found


def known_cards() -> tuple[Card, ...]:
    """Every card there is so far (interned), as one tuple (a new one once a
    new card is interned; see `clear_on_new_card` for caches built from it)."""
    if not _KNOWN:
        _KNOWN.append(tuple(Card._interned.values()))
    return _KNOWN[0]


_PARSED: dict[str, Card] = {}


def parse_card(text: str) -> Card:
    """Turn `R5`, `g+2`, `BS`, `W+4` into a card; raise CardError otherwise."""
    card = _PARSED.get(text)
    if card is not None:
        return card
    raw = text.strip().upper()
    if not raw or len(raw) > 5:
        raise CardError(text)
    head, rank = raw[0], raw[1:]
    if rank not in _BUILT_IN_RANKS and rank not in KINDS and _RANK_TEXT.fullmatch(rank):
        load_installed_rules()
    kind = KINDS.get(rank)
    draw_rank = rank.startswith("+") and _is_count(rank[1:]) and len(rank) <= 3
    if head == "W":
        if not (rank in (WILD, WILD_DRAW_FOUR) or draw_rank or (kind is not None and kind.wild)):
            raise CardError(text)
        card = Card.get(None, rank)
    elif head in COLORS:
        if not (rank in NUMBERS or rank in ACTIONS or draw_rank or (kind is not None and not kind.wild)):
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
