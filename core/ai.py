"""AI players: policies that choose among the legal moves.

- `random`: uniform over legal moves (RLCard's random agent, as a baseline).
- `basic`: greedy. Says UNO and catches when it can, plays rather than draws,
  dumps its most valuable playable card, names its most held colour.
- `strong`: keeps wilds for when nothing else fits, follows the colour it
  holds most, attacks a player close to going out with skips and draw
  cards, challenges a Wild Draw Four that is likely a bluff, stacks when hit,
  swaps hands with the player holding fewest cards.

A policy sees only what its seat may see: its own hand, card counts, the
discard pile. (It reads the state object, so it is trusted not to peek;
`strong` uses only public information and its own hand.)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from .cards import COLORS, Card
from .moves import CATCH, CHALLENGE, COLOR, DRAW, PASS, PLAY, UNO, Move
from .state import GameState

Policy = Callable[[GameState, int, list[Move], random.Random], Move]


def random_policy(state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
    return moves[rnd.randrange(len(moves))]


def _card(move: Move) -> Card:
    """The card of a play move (plays always carry one)."""
    assert move.card is not None
    return move.card


def _first(moves: list[Move], kind: str) -> Move | None:
    for m in moves:
        if m.kind == kind:
            return m
    return None


def _color_counts(hand: list[Card]) -> Counter[str]:
    return Counter(c.color for c in hand if c.color)


def _best_color(hand: list[Card], exclude: Card | None = None) -> str:
    counts = _color_counts([c for c in hand if c is not exclude])
    if not counts:
        return COLORS[0]
    return max(COLORS, key=lambda c: (counts.get(c, 0), -COLORS.index(c)))


def _talk(state: GameState, player: int, moves: list[Move]) -> Move | None:
    """What to say before anything else: name a Wild starter's colour (the
    colour held most), catch a player who forgot UNO, and say UNO only with
    the play that leaves one card (never UNO and then a draw), or at one
    card before being caught."""
    hand = state.hands[player]
    color = _first(moves, COLOR)
    if color is not None:
        best = _best_color(hand)
        return next((m for m in moves if m.kind == COLOR and m.color == best), color)
    catch = _first(moves, CATCH)
    if catch is not None:
        return catch
    uno = _first(moves, UNO)
    if uno is not None and (len(hand) == 1 or _first(moves, PLAY) is not None):
        return uno
    return None


def basic_policy(state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
    said = _talk(state, player, moves)
    if said is not None:
        return said
    plays = [m for m in moves if m.kind == PLAY and m.player == player]
    if plays:
        hand = state.hands[player]
        best = max(plays, key=lambda m: (_card(m).value, m.color == _best_color(hand, _card(m))))
        if _card(best).is_wild:
            color = _best_color(hand, _card(best))
            for m in plays:
                if m.card is best.card and m.color == color:
                    return m
        return best
    for kind in (DRAW, PASS):
        found = _first(moves, kind)
        if found is not None:
            return found
    return next((m for m in moves if m.kind != UNO), moves[0])


def _next_seat(state: GameState, player: int) -> int:
    return state.rules.next_turn(state, player, 0) if state.rules else (player + 1) % len(state.players)


def strong_policy(state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
    said = _talk(state, player, moves)
    if said is not None:
        return said
    hand = state.hands[player]
    challenge = _first(moves, CHALLENGE)
    if challenge is not None and _likely_bluff(state, player):
        return challenge
    plays = [m for m in moves if m.kind == PLAY]
    if plays:
        return _choose_play(state, player, hand, plays)
    if challenge is not None and state.pending >= 4 and _likely_bluff(state, player, lenient=True):
        return challenge
    for kind in (DRAW, PASS):
        found = _first(moves, kind)
        if found is not None:
            return found
    return next((m for m in moves if m.kind != UNO), moves[0])


def _likely_bluff(state: GameState, player: int, lenient: bool = False) -> bool:
    """A Wild Draw Four from a big hand, in a colour we see little of, is
    likely a bluff: the more cards its player holds, the likelier they held
    the colour in play."""
    challenge = state.rules.rules.get("challenge") if state.rules else None
    info = challenge.bluff_record(state) if challenge is not None else None
    if not info:
        return False
    bluffer = info[0]
    size = len(state.hands[bluffer])
    seen = Counter(c.color for c in state.discard if c.color)
    previous = _previous_color(state)
    scarce = previous is not None and seen.get(previous, 0) < 8
    threshold = 4 if lenient else 6
    return size >= threshold and scarce


def _previous_color(state: GameState) -> str | None:
    for card in reversed(state.discard[:-1]):
        if card.color:
            return card.color
    return None


def best_play(state: GameState, player: int, plays: list[Move]) -> Move:
    """The play among `plays` the strong policy prefers (colour, target):
    also what a person gets who asked to play a drawn card "if it fits"."""
    return _choose_play(state, player, state.hands[player], plays)


def _choose_play(state: GameState, player: int, hand: list[Card], plays: list[Move]) -> Move:
    best_color = _best_color(hand)
    nxt = _next_seat(state, player)
    threat = len(state.hands[nxt]) <= 2
    fewest = min((s for s in state.active() if s != player), key=lambda s: len(state.hands[s]))

    def score(m: Move) -> float:
        card = _card(m)
        s = 0.0
        if card.is_wild:
            s -= 30  # keep wilds for when nothing else fits
            if m.color == _best_color(hand, card):
                s += 5
            if card.draw and threat:
                s += 45
        else:
            if card.color == best_color:
                s += 10
            s += card.value / 10
            if threat and (card.draw or card.rank in ("S", "R")):
                s += 40
            if card.draw and state.pending:
                s += 20  # answer a stack rather than take it
        if m.target is not None:
            s += 15 if m.target == fewest and len(state.hands[m.target]) < len(hand) else -15
        if len(hand) == 2 and not card.is_number:
            s += 3  # keep a number to finish on
        return s

    return max(plays, key=score)


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "basic": basic_policy,
    "strong": strong_policy,
}
