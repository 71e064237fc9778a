"""Moves: what a player does, as small values with a text form.

The text form is what scenario files, the console and the store's move log
use: `play R5`, `play W+4 green`, `play R7 ben`, `draw`, `pass`, `uno`,
`catch ben`, `challenge`, `color green`. In logs a target is written as `@seat`.
"""

from __future__ import annotations

from typing import Any, Final

from .cards import (
    COLOR_NAMES,
    Card,
    CardError,
    is_color_word,
    load_installed_rules,
    parse_card,
    parse_color,
)
from .errors import BAD_MOVE, UNKNOWN_PLAYER, MoveError

#: Move kinds that rules declared -> the rule class (filled by the registry:
#: `Rule.move_kinds`); kept here, beside the moves, so parsing a move needs
#: nothing from the registry above it.
MOVE_KINDS: dict[str, Any] = {}

PLAY: Final = "play"
DRAW: Final = "draw"
PASS: Final = "pass"
UNO: Final = "uno"
CATCH: Final = "catch"
CHALLENGE: Final = "challenge"
COLOR: Final = "color"  # the first player names the colour of a Wild starter
KINDS: Final = (PLAY, DRAW, PASS, UNO, CATCH, CHALLENGE, COLOR)


class Move:
    """One move by the player in `seat`. Immutable by convention, hashable."""

    __slots__ = ("kind", "player", "card", "color", "target", "cards")

    def __init__(
        self,
        kind: str,
        player: int,
        card: Card | None = None,
        color: str | None = None,
        target: int | None = None,
        cards: tuple[Card, ...] = (),
    ) -> None:
        self.kind = kind
        self.player = player
        self.card = card
        self.color = color
        self.target = target
        #: Further cards, for plugin moves that play several at once
        #: (`card` is the first of them).
        self.cards = cards

    def _key(self) -> tuple[object, ...]:
        return (self.kind, self.player, self.card, self.color, self.target, self.cards)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            isinstance(other, Move) and self.kind == other.kind and self.player == other.player
            and self.card is other.card and self.color == other.color and self.target == other.target
            and self.cards == other.cards
        )

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"<Move {self.player}: {self.text}>"

    @property
    def text(self) -> str:
        """The move without its player, targets as `@seat` (the log form)."""
        parts = [self.kind]
        if self.card is not None:
            parts.append(self.card.text)
        parts.extend(c.text for c in self.cards)
        if self.color is not None:
            parts.append(COLOR_NAMES[self.color])
        if self.target is not None:
            parts.append(f"@{self.target}")
        return " ".join(parts)



_simple: dict[tuple[str, int], Move] = {}
_plays: dict[tuple[int, Card, str | None, int | None], Move] = {}


def simple_move(kind: str, player: int) -> Move:
    """A shared `draw`/`pass`/`uno`/`challenge` move (moves are immutable)."""
    try:
        return _simple[(kind, player)]
    except KeyError:
        move = _simple[(kind, player)] = Move(kind, player)
        return move


_catches: dict[tuple[int, int], Move] = {}


def catch_move(player: int, target: int) -> Move:
    """A shared `catch` move of `player` against `target`."""
    move = _catches.get((player, target))
    if move is None:
        move = _catches[(player, target)] = Move(CATCH, player, target=target)
    return move


def play_move(player: int, card: Card, color: str | None = None, target: int | None = None) -> Move:
    """A shared play move; the legal-move lists reuse these objects."""
    key = (player, card, color, target)
    move = _plays.get(key)
    if move is None:
        if len(_plays) > 50_000:
            _plays.clear()
        move = _plays[key] = Move(PLAY, player, card, color, target)
    return move


def _seat(word: str, names: list[str]) -> int:
    if word.startswith("@") and word[1:].isascii() and word[1:].isdecimal():
        seat = int(word[1:])
        if 0 <= seat < len(names):
            return seat
    else:
        lowered = [n.lower() for n in names]
        if word.lower() in lowered:
            return lowered.index(word.lower())
    raise MoveError(UNKNOWN_PLAYER, word)


def parse_move(text: str, player: int, names: list[str]) -> Move:
    """Parse `play W+4 green ben` and the like for the player in `player`.

    Raises MoveError(bad_move) for text that is not a move, and
    MoveError(unknown_player) for a target that is not seated.
    """
    words = text.split()
    if not words:
        raise MoveError(BAD_MOVE, text)
    kind = words[0].lower()
    rest = words[1:]
    if kind == PLAY:
        if not rest:
            raise MoveError(BAD_MOVE, text)
        try:
            card = parse_card(rest[0])
        except CardError as exc:
            raise MoveError(BAD_MOVE, f"unknown card {rest[0]!r}") from exc
        color = target = None
        for word in rest[1:]:
            if color is None and target is None and is_color_word(word):
                color = parse_color(word)
            elif target is None:
                target = _seat(word, names)
            else:
                raise MoveError(BAD_MOVE, text)
        return Move(PLAY, player, card, color, target)
    if kind in (DRAW, PASS, UNO, CHALLENGE):
        if rest:
            raise MoveError(BAD_MOVE, text)
        return Move(kind, player)
    if kind == CATCH:
        if len(rest) != 1:
            raise MoveError(BAD_MOVE, text)
        return Move(CATCH, player, target=_seat(rest[0], names))
    if kind in (COLOR, "colour"):
        if len(rest) != 1 or not is_color_word(rest[0]):
            raise MoveError(BAD_MOVE, text)
        return color_move(player, parse_color(rest[0]))
    load_installed_rules()
    if kind in MOVE_KINDS:
        return _plugin_move(kind, rest, player, names, text)
    raise MoveError(BAD_MOVE, text)


def _plugin_move(kind: str, words: list[str], player: int, names: list[str], text: str) -> Move:
    """A plugin's move kind: `KIND [CARD...] [COLOUR] [PLAYER]`."""
    cards: list[Card] = []
    color = target = None
    for word in words:
        if color is None and target is None and not cards and is_color_word(word):
            color = parse_color(word)
            continue
        if color is None and target is None:
            try:
                cards.append(parse_card(word))
                continue
            except CardError:
                pass
            if is_color_word(word):
                color = parse_color(word)
                continue
        if target is None:
            target = _seat(word, names)
        else:
            raise MoveError(BAD_MOVE, text)
    first = cards[0] if cards else None
    return Move(kind, player, first, color, target, tuple(cards[1:]))


_colors: dict[tuple[int, str], Move] = {}


def color_move(player: int, color: str) -> Move:
    """A shared `color` move (naming the colour of a Wild starter)."""
    key = (player, color)
    move = _colors.get(key)
    if move is None:
        move = _colors[key] = Move(COLOR, player, color=color)
    return move
