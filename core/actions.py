"""Building blocks that rules use to change a state: pass the turn, draw,
put a penalty on a player, end a round or the match, shuffle. They call
hooks where a rule may want a say (`next_turn`, `on_deck_empty`,
`hold_penalty`, `score`, `round_end`, `match_end`), so a plugin that uses
them stays composable with the others.
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

#: Why a match ended, as `match_end` is told.
WON = "won"            # the rules named a winner (a target reached, the last player not eliminated)
LEFT = "left"          # one player is left: the others left the match
ROUNDS = "rounds"      # the chat played the rounds it was told to (`--rounds N`)
STOPPED = "stopped"    # the chat ended it otherwise (an admin's stop)


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


def penalize(state: GameState, target: int | Card, amount: int | list[Event] | None = None,
             events: list[Event] | None = None, *, rank: str | None = None,
             card: Card | None = None) -> None:
    """Put a draw of `amount` cards on `target` (a seat), for any card or no card.

    The amount adds to a total already pending (stacking), and the rules are
    asked, as for a Draw Two, whether `target` may answer it
    (`hold_penalty(state, target, card)`): then it stays pending on them, it
    is their turn, and an answer played on it is asked of `can_stack` with
    `state.pending_rank` set to `rank`. Otherwise `target` takes the whole
    total at once and loses the turn (the turn passes on from them).

    `card` is the card that made the penalty (default: the top of the
    discard pile), `rank` the rank that answers are matched against
    (default: that card's rank). A 7 that makes the next player draw 2
    unless they play a 7:

        penalize(state, state.rules.next_turn(state, move.player, 0), 2, events)

    The shared rules call it for every draw card; the older form
    `penalize(state, card, events)` (the next player, `card.draw` cards)
    still works.
    """
    if isinstance(target, Card):  # the form of unobot 0.2: a draw card that just landed
        card = target
        events = amount if isinstance(amount, list) else events
        amount = card.draw
        seat: int = state.rules.next_turn(state, state.turn, 0)
    else:
        seat = target
    if events is None or not isinstance(amount, int):
        raise TypeError("penalize(state, target, amount, events): amount is a whole number of cards")
    rules = state.rules
    if card is None:
        card = state.top
    state.pending += amount
    state.pending_rank = rank if rank is not None else (card.rank if card is not None else "")
    if card is not None and rules.hold_penalty(state, seat, card):
        state.turn = seat
        state.drawn = None
        state.draws = 0
        events.append(Event(PENALTY_PENDING, seat, None, state.pending))
    else:
        take_pending(state, seat, events)
        state.turn = seat
        advance(state)


def take_pending(state: GameState, player: int, events: list[Event]) -> list[Card]:
    """`player` takes the whole pending total."""
    n = state.pending
    state.pending = 0
    state.pending_rank = ""
    return draw_cards(state, player, n, events, PENALTY_TAKEN)


def round_points(state: GameState) -> dict[int, int]:
    """The points each seat gains this round, as one pipeline every scoring
    rule takes part in, whatever the order of their hooks:

    1. count: `score` (firstresult: the rule that counts, e.g. the cards
       left in the other hands for the winner);
    2. add: every rule's `score_add` (points added to the counted ones,
       e.g. the hands mercy knocked out, counted as if still held);
    3. multiply: every rule's `score_factor` (each factor multiplies the
       sum, e.g. double-score's 2).

    So (counted + added) x factors: mercy's 21 points on a 9-point hand
    under double-score are (9 + 21) x 2 = 60.
    """
    rules = state.rules
    points = dict(rules.score(state) or {})
    for extra in rules.score_add(state, dict(points)):
        for seat, pts in (extra or {}).items():
            points[seat] = points.get(seat, 0) + int(pts)
    factor = 1
    for f in rules.score_factor(state, dict(points)):
        factor *= f
    if factor != 1:
        points = {seat: int(pts * factor) for seat, pts in points.items()}
    return points


def end_round(state: GameState, winner: int, events: list[Event]) -> None:
    """Score the round won by `winner` (`round_points`), tell every rule
    (`round_end`), and end the match when the rules name its winner."""
    rules = state.rules
    state.winner = winner
    state.phase = ROUND_OVER
    points = round_points(state)
    for seat, pts in points.items():
        state.scores[seat] += pts
    events.append(Event(ROUND_WON, winner, n=points.get(winner, 0)))
    events.append(Event(SCORES))
    rules.round_end(state, points, events)
    champion = rules.match_winner(state)
    if champion is not None:
        end_match(state, champion, WON, events)


def end_match(state: GameState, winner: int, reason: str, events: list[Event]) -> None:
    """End the match (`winner` a seat, or -1 when nobody is named: a chat
    that stopped it) and tell every rule once (`match_end`, with `reason`:
    `won`, `left`, `rounds` or `stopped`). A match already over is left as it is, so
    the hook is never asked twice."""
    if state.phase == MATCH_OVER:
        return
    state.phase = MATCH_OVER
    if winner >= 0:
        events.append(Event(MATCH_WON, winner, n=state.scores[winner]))
    state.rules.match_end(state, winner, reason, events)
