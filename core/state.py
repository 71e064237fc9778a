"""Game state: plain data that serializes to a compact, versioned form.

The state carries everything needed to go on or to replay a game: the
variant's name, the rule overrides it was started with, the resolved rules
and options themselves (`rule_spec`: a game plays to its end under the rules
it started with, even if the variant's file changes), and its RNG seed with
the number of shuffles done so far.

`rules` (the compiled rule set) and `legal` (the legal moves of the player
to move, once listed) are caches the engine keeps on the object beside the
data: never serialized, never compared, and rebuilt from the data alone.

Piles are lists whose *end* is the top (the draw pile pops from the end, the
discard pile's top is `discard[-1]`), so drawing and playing are O(1).
The engine never mutates a state it was given: `apply` clones first.
`ext` is room for plugins' own data for the round (cleared when a new
round is dealt); `match` for data that lasts the whole match (elimination
counts, team totals). Treat their values as immutable (replace them, never
mutate in place), since clones share them. Both must be JSON-able.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from .cards import Card, CardError, installed_rule_names, parse_card


def spec_to_text(spec: list[list[Any]]) -> tuple[str, dict[str, Any]]:
    """A game's rule spec, compactly: the names in order, and the options that
    differ from their defaults."""
    return " ".join(n for n, _ in spec), {n: o for n, o in spec if o}


def spec_from_text(names: str, options: dict[str, Any]) -> list[list[Any]]:
    return [[n, dict(options.get(n, {}))] for n in names.split()]

SCHEMA: Final = 2  # 2: card piles in the one-character form (1: space-separated texts, still read)

PLAYING: Final = "play"
ROUND_OVER: Final = "round_over"
MATCH_OVER: Final = "match_over"


class StateFormatError(ValueError):
    """An encoded state that this version cannot read (corrupt, foreign or from the future)."""


class GameState:
    __slots__ = (
        "variant", "overrides", "fingerprint", "seed", "shuffles",
        "players", "hands", "draw_pile", "discard", "turn", "direction",
        "color", "pending", "pending_rank", "drawn", "draws", "uno",
        "exposed", "out", "winner", "phase", "scores", "round", "dealer",
        "moves", "ext", "match", "rule_spec", "rules", "legal",
    )

    variant: str
    overrides: dict[str, Any]
    fingerprint: str
    seed: int
    shuffles: int
    players: list[str]
    hands: list[list[Card]]
    draw_pile: list[Card]
    discard: list[Card]
    turn: int
    direction: int
    color: str | None
    pending: int
    pending_rank: str
    drawn: Card | None
    draws: int
    uno: int
    exposed: int
    out: list[int]
    winner: int
    phase: str
    scores: list[int]
    round: int
    dealer: int
    moves: int
    ext: dict[str, Any]
    match: dict[str, Any]
    rule_spec: list[list[Any]]  # the rules and options the game started with
    rules: Any  # the compiled RuleSet; never serialized
    legal: Any  # the legal moves of the player to move, once listed; never serialized

    def __init__(self, variant: str, players: list[str], seed: int = 0,
                 overrides: dict[str, Any] | None = None) -> None:
        self.variant = variant
        self.overrides = overrides or {}
        self.fingerprint = ""
        self.seed = seed
        self.shuffles = 0
        self.players = list(players)
        n = len(players)
        self.hands = [[] for _ in range(n)]
        self.draw_pile = []
        self.discard = []
        self.turn = 0
        self.direction = 1
        self.color = None
        self.pending = 0
        self.pending_rank = ""
        self.drawn = None
        self.draws = 0
        self.uno = 0          # bit per seat: said UNO
        self.exposed = -1     # seat that may be caught, or -1
        self.out = []         # seats that went out, in order
        self.winner = -1
        self.phase = PLAYING
        self.scores = [0] * n
        self.round = 1
        self.dealer = n - 1
        self.moves = 0
        self.ext = {}
        self.match = {}
        self.rule_spec = []
        self.rules = None
        self.legal = None

    # -- reading -------------------------------------------------------------
    @property
    def top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def seat(self, name: str) -> int:
        return self.players.index(name)

    def active(self) -> list[int]:
        """Seats still in the round, in seating order."""
        out = self.out
        return [i for i in range(len(self.players)) if i not in out]

    def said_uno(self, seat: int) -> bool:
        return bool(self.uno >> seat & 1)

    def all_cards(self) -> list[Card]:
        cards = [c for h in self.hands for c in h]
        cards.extend(self.draw_pile)
        cards.extend(self.discard)
        return cards

    # -- copying -------------------------------------------------------------
    def clone(self) -> GameState:
        new = GameState.__new__(GameState)
        new.variant = self.variant
        new.overrides = self.overrides
        new.fingerprint = self.fingerprint
        new.seed = self.seed
        new.shuffles = self.shuffles
        new.players = self.players
        new.hands = [h[:] for h in self.hands]
        new.draw_pile = self.draw_pile[:]
        new.discard = self.discard[:]
        new.turn = self.turn
        new.direction = self.direction
        new.color = self.color
        new.pending = self.pending
        new.pending_rank = self.pending_rank
        new.drawn = self.drawn
        new.draws = self.draws
        new.uno = self.uno
        new.exposed = self.exposed
        new.out = self.out[:]
        new.winner = self.winner
        new.phase = self.phase
        new.scores = self.scores[:]
        new.round = self.round
        new.dealer = self.dealer
        new.moves = self.moves
        new.ext = dict(self.ext) if self.ext else {}
        new.match = dict(self.match) if self.match else {}
        new.rule_spec = self.rule_spec
        new.rules = self.rules
        new.legal = None
        return new

    # -- serializing ---------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict; card lists become space-separated card texts."""
        d: dict[str, Any] = {
            "s": SCHEMA,
            "var": self.variant,
            "seed": self.seed,
            "sh": self.shuffles,
            "p": self.players,
            "h": [pack(h) for h in self.hands],
            "dp": pack(self.draw_pile),
            "dc": pack(self.discard),
            "t": self.turn,
            "d": self.direction,
            "c": self.color,
            "ph": self.phase,
            "sc": self.scores,
            "r": self.round,
            "dl": self.dealer,
            "m": self.moves,
        }
        # Rarely set fields are written only when they differ from their default.
        if self.overrides:
            d["ovr"] = self.overrides
        if self.pending:
            d["pn"] = self.pending
            d["pr"] = self.pending_rank
        if self.drawn is not None:
            d["dw"] = self.drawn.text
        if self.draws:
            d["ds"] = self.draws
        if self.uno:
            d["u"] = self.uno
        if self.exposed >= 0:
            d["x"] = self.exposed
        if self.out:
            d["o"] = self.out
        if self.winner >= 0:
            d["w"] = self.winner
        if self.ext:
            d["e"] = self.ext
        if self.match:
            d["md"] = self.match
        if self.rule_spec:
            d["rs"], options = spec_to_text(self.rule_spec)
            if options:
                d["ro"] = options
        else:
            d["fp"] = self.fingerprint  # a game from before games kept their rules
        return d

    def encode(self) -> bytes:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False).encode()

    @classmethod
    def from_dict(cls, d: dict[str, Any], parse: Callable[[str], Card] = parse_card) -> GameState:
        """The state `to_dict` wrote. `parse` reads a card written out in full
        (a plugin's kind); a card of a kind no installed rule declares, in a
        game whose saved rules name a rule that is not installed, is read as
        it was written (`_card_of_missing_kind`), not as corruption."""
        schema = d.get("s")
        if schema not in (1, SCHEMA):
            raise StateFormatError(
                f"game state schema {schema!r} is not readable by this version (expects {SCHEMA})"
            )
        try:
            s = cls(d["var"], d["p"], d["seed"], d.get("ovr"))
            s.fingerprint = d.get("fp", "")
            s.shuffles = d["sh"]
            cards = _cards if schema == 1 else unpack
            s.hands = [cards(h, parse) for h in d["h"]]
            s.draw_pile = cards(d["dp"], parse)
            s.discard = cards(d["dc"], parse)
            s.turn = d["t"]
            s.direction = d["d"]
            s.color = d["c"]
            s.phase = d["ph"]
            s.scores = list(d["sc"])
            s.round = d["r"]
            s.dealer = d["dl"]
            s.moves = d["m"]
            s.pending = d.get("pn", 0)
            s.pending_rank = d.get("pr", "")
            dw = d.get("dw")
            s.drawn = parse(dw) if dw else None
            s.draws = d.get("ds", 0)
            s.uno = d.get("u", 0)
            s.exposed = d.get("x", -1)
            s.out = list(d.get("o", []))
            s.winner = d.get("w", -1)
            s.ext = dict(d.get("e", {}))
            s.match = dict(d.get("md", {}))
            s.rule_spec = spec_from_text(d["rs"], d.get("ro", {})) if d.get("rs") else []
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CardError) and parse is parse_card and _missing_rules(d):
                return cls.from_dict(d, parse=_card_of_missing_kind)
            raise StateFormatError(f"game state is incomplete or corrupt: {exc!r}") from exc
        if len(s.hands) != len(s.players) or len(s.scores) != len(s.players):
            raise StateFormatError("game state is corrupt: hands, scores and players disagree")
        return s

    @classmethod
    def decode(cls, data: bytes | str) -> GameState:
        try:
            d = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise StateFormatError(f"game state is not valid JSON: {exc}") from exc
        if not isinstance(d, dict):
            raise StateFormatError("game state is not a JSON object")
        return cls.from_dict(d)

    def same_as(self, other: GameState) -> bool:
        return self.to_dict() == other.to_dict()


def card_reader(game: dict[str, Any] | None) -> Callable[[str], Card]:
    """How to read the cards saved beside the game dict `game` (a chat table's
    last draws and recent events): leniently, as `from_dict` reads the game's
    own, when the game names a rule that is not installed. Why: those cards
    are of the game's kinds; read strictly, a gone plugin's card anywhere
    beside the game made the whole table corrupt, depending on the deal."""
    return _card_of_missing_kind if game and _missing_rules(game) else parse_card


def _missing_rules(d: dict[str, Any]) -> list[str]:
    """The rules a saved game names (its rule spec) that are not installed."""
    known = installed_rule_names()
    return [name for name in str(d.get("rs") or "").split() if name not in known]


def _card_of_missing_kind(text: str) -> Card:
    """`text` as a card, of a kind no installed rule declares when it must be.

    Why: a game whose rule plugin is gone (uninstalled, or failing to load
    after an upgrade) holds cards of that plugin's kinds (a Thunder). Read as
    a corrupt state, the game was unbound from its chat, so lost for good,
    though it reads again once the plugin is back. Read this way, the table
    loads; its rules do not (`rules_of` names the missing rule), so the chat
    answers `rules_unavailable`, the console says why it cannot resume, and
    an admin may stop it."""
    try:
        return parse_card(text)
    except CardError:
        raw = text.strip().upper()
        head, rank = raw[:1], raw[1:]
        if head not in ("W", "R", "Y", "G", "B") or not rank or len(rank) > 4 \
                or not all(ch.isascii() and (ch.isalnum() or ch == "+") for ch in rank):
            raise
        return Card.get(None if head == "W" else head, rank)


def _cards(text: str, parse: Callable[[str], Card] = parse_card) -> list[Card]:
    if not text:
        return []
    words = text.split()
    try:
        return list(map(_KNOWN.__getitem__, words))  # the common case, at C speed
    except KeyError:
        cards = [parse(w) for w in words]
        _KNOWN.update(zip(words, cards))
        return cards


#: Card texts already seen, for decoding without a Python call per card.
_KNOWN: dict[str, Card] = {}


# -- the one-character form of card piles ---------------------------------------------
# Why: piles are most of a stored game (a 4-player game's draw pile is ~80
# cards). Each of the 54 kinds of Mattel's deck is one character; any other
# card (a plugin's kind) is written as its text in parentheses. A 4-player
# game's state shrinks from ~680 to ~450 bytes, and decoding stays a dict
# lookup per card.
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _official_kinds() -> list[Card]:
    from .cards import COLORS, NUMBERS, REVERSE, SKIP

    kinds = [Card.get(color, rank) for color in COLORS for rank in (*NUMBERS, SKIP, REVERSE, "+2")]
    return [*kinds, Card.get(None, ""), Card.get(None, "+4")]


_TO_CHAR: dict[Card, str] = {card: _ALPHABET[i] for i, card in enumerate(_official_kinds())}
_FROM_CHAR: dict[str, Card] = {ch: card for card, ch in _TO_CHAR.items()}


def pack(cards: list[Card]) -> str:
    """A pile in the one-character form."""
    get = _TO_CHAR.get
    return "".join(get(c) or f"({c.text})" for c in cards)


def unpack(text: str, parse: Callable[[str], Card] = parse_card) -> list[Card]:
    if "(" not in text:
        return list(map(_FROM_CHAR.__getitem__, text))  # the common case, at C speed
    out: list[Card] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "(":
            end = text.index(")", i)
            out.append(parse(text[i + 1:end]))
            i = end + 1
        else:
            out.append(_FROM_CHAR[ch])
            i += 1
    return out
