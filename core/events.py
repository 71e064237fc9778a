"""Events: what a move did, in neutral terms that every adapter renders and every test asserts.

An event is a small named tuple. `cards` is private: only the player it names
may see it (adapters must strip it from public views); everything else is public.
Plugins may emit kinds of their own; adapters render unknown kinds generically.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card

# Kinds the core rules emit.
CARD_PLAYED = "card_played"
COLOR_CHOSEN = "color_chosen"
CARDS_DRAWN = "cards_drawn"          # player drew n cards (cards: private)
TURN_SKIPPED = "turn_skipped"
DIRECTION_REVERSED = "direction_reversed"
PENALTY_PENDING = "penalty_pending"  # player must take n unless they answer
PENALTY_TAKEN = "penalty_taken"      # player took n as a penalty (cards: private)
PASSED = "passed"
CHALLENGE_WON = "challenge_won"      # player = challenger, other = bluffer
CHALLENGE_LOST = "challenge_lost"    # player = challenger, other = who played the +4
UNO_SAID = "uno_said"
UNO_CAUGHT = "uno_caught"            # player = catcher, other = caught
HANDS_SWAPPED = "hands_swapped"      # player <-> other
HANDS_ROTATED = "hands_rotated"
DECK_RESHUFFLED = "deck_reshuffled"  # n = new draw pile size
DECK_EMPTY = "deck_empty"            # nothing left to draw
JUMPED_IN = "jumped_in"
STARTER = "starter"                  # the first card was turned up
STARTER_RETURNED = "starter_returned"  # a Wild Draw Four went back into the deck
TURN = "turn"                        # it is now player's turn
PLAYER_OUT = "player_out"            # player emptied their hand (n = place, from 1)
ROUND_WON = "round_won"              # player won the round, n = points
SCORES = "scores"                    # match totals after a round (in GameState.scores)
MATCH_WON = "match_won"
TIMED_OUT = "timed_out"
PLAYER_LEFT = "player_left"        # player left the round (cards under the draw pile)
ROUND_STARTED = "round_started"


class Event(NamedTuple):
    kind: str
    player: int = -1
    card: Card | None = None
    n: int = 0
    other: int = -1
    color: str | None = None
    cards: tuple[Card, ...] = ()
