"""`hard` and `expert` challenge a Wild Draw Four wisely: against a player
who never bluffs they lose few challenges (under a third of the Wild Draw
Fours they face), and a player who bluffs every time is still caught.

Whole two-player matches of the official rules, so the players learn from
what they saw at the table; the test reads whether each card was a bluff
(the challenge rule's record), which the players never do.
"""

from __future__ import annotations

import random

import pytest

from unobot.ai import Level, Searching, new_player
from unobot.events import Event
from unobot.moves import CHALLENGE, PLAY, Move
from unobot.simulate import simulate
from unobot.state import GameState


class Bluffer:
    """Plays a Wild Draw Four whenever it holds one (holding the colour or
    not), naming the colour it holds most; else plays as `normal`."""

    def __init__(self) -> None:
        self.normal = new_player("normal")

    def __call__(self, state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
        fours = [m for m in moves if m.kind == PLAY and m.card is not None and m.card.is_wild
                 and m.card.draw == 4]
        if fours:
            return max(fours, key=lambda m: sum(c.color == m.color for c in state.hands[player]))
        return self.normal(state, player, moves, rnd)


class Counted:
    """A player whose challenge decisions are counted."""

    def __init__(self, player: Level) -> None:
        self.player = player
        self.faced = self.bluffs = self.challenged = self.lost = self.caught = 0

    def observe(self, state: GameState, move: Move, events: list[Event], colour: str | None,
                pending: int) -> None:
        self.player.observe(state, move, events, colour, pending)

    def __call__(self, state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
        chosen = self.player(state, player, moves, rnd)
        if any(m.kind == CHALLENGE for m in moves):
            record = state.rules.rules["challenge"].bluff_record(state)
            bluff = bool(record and record[1])
            self.faced += 1
            self.bluffs += bluff
            if chosen.kind == CHALLENGE:
                self.challenged += 1
                self.caught += bluff
                self.lost += not bluff
        return chosen


def play(level: str, opponent: object, matches: int) -> Counted:
    """`matches` two-player matches from each seat. The searches play with
    a few rollouts a move (the challenge is decided by the same code at any
    budget: core/ai/heuristics.py's `should_challenge`, before any search)."""
    player = new_player(level)
    if isinstance(player, Searching):
        player.rollouts, player.seconds = 6, None
    me = Counted(player)
    simulate("official", 2, matches, 31, [me, opponent], check=False, match=True)  # type: ignore[list-item]
    simulate("official", 2, matches, 32, [opponent, me], check=False, match=True)  # type: ignore[list-item]
    return me


@pytest.mark.parametrize(("level", "matches"), [("hard", 12), ("expert", 2)])
def test_few_challenges_lost_against_a_player_who_never_bluffs(level: str, matches: int) -> None:
    me = play(level, new_player("normal"), matches)
    assert me.faced >= 10 and me.bluffs == 0
    assert me.lost < me.faced / 3


@pytest.mark.parametrize(("level", "matches"), [("hard", 12), ("expert", 2)])
def test_a_player_who_always_bluffs_is_caught(level: str, matches: int) -> None:
    me = play(level, Bluffer(), matches)
    assert me.bluffs >= 10
    assert me.caught > me.bluffs / 2
