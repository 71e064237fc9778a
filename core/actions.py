"""Building blocks that rules use to change a state: pass the turn, draw,
deal a penalty, end a round, shuffle. They call hooks where a rule may want a
say (`next_turn`, `on_deck_empty`, `score`), so a plugin that uses them
stays composable with the others.
"""

from __future__ import annotations

import random

from .cards import Card
from .events import (
    CARDS_DRAWN,
    DECK_EMPTY,
    MATCH_WON,
    PENALTY_PENDING,
    PENALTY_TAKEN,
    ROUND_WON,
    SCORES,
    TURN_SKIPPED,
    Event,
)
from .state import MATCH_OVER, ROUND_OVER, GameState


def rng(state: GameState) -> random.Random:
    """The game's generator for its next shuffle. Deterministic from the seed
    and the number of shuffles so far, so a game replays exactly."""
    state.shuffles += 1
    return random.Random(f"unobot/{state.seed}/{state.shuffles}")


def shuffle(state: GameState, cards: list[Card]) -> None:
    rng(state).shuffle(cards)


def advance(state: GameState, skip: int = 0, events: list[Event] | None = None) -> int:
    """Pass the turn on from the current player, skipping `skip` players."""
    player = state.turn
    if skip and events is not None:
        seat = player
        for _ in range(skip):
            seat = state.rules.next_turn(state, seat, 0)
            events.append(Event(TURN_SKIPPED, seat))
    state.turn = state.rules.next_turn(state, player, skip)
    state.drawn = None
    state.draws = 0
    return state.turn


def draw_cards(state: GameState, player: int, n: int, events: list[Event] | None = None,
               kind: str = CARDS_DRAWN) -> list[Card]:
    """Move up to `n` cards from the draw pile to `player`'s hand.

    Refills the pile through `on_deck_empty` when it runs out; stops short when
    nothing is left (then a DECK_EMPTY event says so).
    """
    got: list[Card] = []
    pile = state.draw_pile
    hand = state.hands[player]
    wanted = state.rules.cards_to_draw(state, player, n, "penalty" if kind == PENALTY_TAKEN else "draw")
    if wanted is not None:
        n = max(0, int(wanted))
    for _ in range(n):
        if not pile:
            if not state.rules.on_deck_empty(state, events if events is not None else []):
                if events is not None:
                    events.append(Event(DECK_EMPTY, player))
                break
            pile = state.draw_pile
        card = pile.pop()
        hand.append(card)
        got.append(card)
    # (A player who draws must say UNO again: the uno-call rule clears that
    # when it sees the draw's event; the flag is that rule's data.)
    if got and events is not None:
        events.append(Event(kind, player, None, len(got), -1, None, tuple(got)))  # positional: hot
    return got


def penalize(state: GameState, card: Card, events: list[Event]) -> None:
    """A draw card landed: the next player takes its penalty now, or it stays
    pending on them when the rules give them an answer (`hold_penalty`)."""
    rules = state.rules
    victim = rules.next_turn(state, state.turn, 0)
    state.pending += card.draw
    state.pending_rank = card.rank
    if rules.hold_penalty(state, victim, card):
        state.turn = victim
        state.drawn = None
        state.draws = 0
        events.append(Event(PENALTY_PENDING, victim, None, state.pending))
    else:
        take_pending(state, victim, events)
        state.turn = victim
        advance(state)


def take_pending(state: GameState, player: int, events: list[Event]) -> list[Card]:
    """`player` takes the whole pending total."""
    n = state.pending
    state.pending = 0
    state.pending_rank = ""
    return draw_cards(state, player, n, events, PENALTY_TAKEN)


def end_round(state: GameState, winner: int, events: list[Event]) -> None:
    """Score the round won by `winner`; end the match when someone has won it."""
    rules = state.rules
    state.winner = winner
    state.phase = ROUND_OVER
    points = rules.score(state) or {}
    for seat, pts in points.items():
        state.scores[seat] += pts
    events.append(Event(ROUND_WON, winner, n=points.get(winner, 0)))
    events.append(Event(SCORES))
    champion = rules.match_winner(state)
    if champion is not None:
        state.phase = MATCH_OVER
        events.append(Event(MATCH_WON, champion, n=state.scores[champion]))
