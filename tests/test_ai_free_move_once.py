"""An AI seat at a chat table makes a rule's costless move once a round.

Why: `free_move` takes a plugin's move without cards that leaves the seat
to move with no more cards (a look at the cards, a knock that keeps the
turn), "once a round for each kind, so a move always offered cannot loop".
The record of it lived on the level's object, and a chat table makes a new
one for every AI move (only the table's memory is kept): an AI seat made
such a move until the chat's cap of 3,000 moves a step stopped it.
"""

from __future__ import annotations

import pytest

from unobot import Event, GameState, Move, Rule, hookimpl, testing
from unobot.ai import LEVELS
from unobot.cards import parse_card
from unobot.chat import play
from unobot.chat.outcome import Outcome
from unobot.chat.table import PLAYING, Seat, Table
from unobot.engine import setup_round

PEEK = "peek"


class Peek(Rule):
    """On your turn you may look at the top of the draw pile (it changes nothing)."""

    name = "peek-for-a-test"
    move_kinds = {PEEK: "Peek at the draw pile"}

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        return [Move(PEEK, player)] if player == state.turn else None

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | None:
        return (move.player == state.turn) if move.kind == PEEK else None

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        return True if move.kind == PEEK else None


@pytest.mark.parametrize("level", LEVELS)
def test_an_ai_seat_peeks_once_a_round_not_three_thousand_times(level: str) -> None:
    with testing.installed(Peek):
        rules = {Peek.name: {}}
        hands = [[parse_card(x) for x in h.split()] for h in ("R5 G7 B3", "Y4 Y6 G6")]
        game = setup_round("official", ["ai", "ben"], hands, [parse_card("R9")],
                           [parse_card(x) for x in ["R1", "R2", "R3", "G1", "G2", "G3"]], turn=0, overrides=rules)
        t = Table(chat_id="c", creator="ben", overrides=rules, phase=PLAYING, seed=101 + LEVELS.index(level),
                  seats=[Seat("ai", "Ai", level=level), Seat("ben", "Ben")], game=game)
        entries = play._ai(t, Outcome(table=t), 0.0, pause=False)
        assert entries.count(f"0 {PEEK}") <= 1, entries[:5]
        assert t.game is not None and t.game.turn == 1, entries[:5]


class Gold(Peek):
    """The same peek, which its rule says is worth a card (`move_value`)."""

    name = "gold-peek-for-a-test"

    def move_value(self, state: GameState, move: Move) -> float | None:
        return 2.0 if move.kind == PEEK else None


@pytest.mark.parametrize("level", LEVELS)
def test_a_move_said_to_be_worth_cards_that_keeps_the_turn_is_made_once_a_round(level: str) -> None:
    with testing.installed(Gold):
        rules = {Gold.name: {}}
        hands = [[parse_card(x) for x in h.split()] for h in ("R5 G7 B3", "Y4 Y6 G6")]
        game = setup_round("official", ["ai", "ben"], hands, [parse_card("R9")],
                           [parse_card(x) for x in ["R1", "R2", "R3", "G1", "G2", "G3"]], turn=0, overrides=rules)
        t = Table(chat_id="c", creator="ben", overrides=rules, phase=PLAYING, seed=201 + LEVELS.index(level),
                  seats=[Seat("ai", "Ai", level=level), Seat("ben", "Ben")], game=game)
        entries = play._ai(t, Outcome(table=t), 0.0, pause=False)
        assert entries.count(f"0 {PEEK}") == 1 and t.game is not None and t.game.turn == 1, entries[:5]
