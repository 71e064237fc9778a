"""What a seat learns from the others' draws (core/ai/knowledge.py): a
seat that drew held nothing that fitted, neither the colour in play nor a
card of the top's rank nor a wild, and the search deals it no such card."""

from __future__ import annotations

import random

from unobot.ai.knowledge import TableMemory
from unobot.ai.search import Searching, unseen
from unobot.cards import parse_card
from unobot.engine import apply, legal_moves, new_game
from unobot.events import CARDS_DRAWN, Event
from unobot.moves import DRAW, play_move, simple_move
from unobot.state import GameState


def drawn_on(top: str = "R5") -> tuple[GameState, TableMemory, int]:
    """A two-player game where seat 1 draws on `top` with its colour in play."""
    state, _ = new_game("official", ["a", "b"], seed=3)
    state.discard.append(parse_card(top))
    state.color = top[0]
    state.pending = 0
    state.turn = 1
    memory = TableMemory()
    memory.sync(state)
    draw = next(m for m in legal_moves(state, 1) if m.kind == DRAW)
    colour = state.color
    after, events = apply(state, draw)
    memory.observe(after, draw, events, colour, 0)
    return after, memory, 1


def test_a_draw_tells_the_colour_the_rank_and_no_wild() -> None:
    _, memory, seat = drawn_on("R5")
    assert memory.lacking(seat) == {"R"}
    assert not memory.may_hold(seat, parse_card("R2"))
    assert not memory.may_hold(seat, parse_card("B5"))
    assert not memory.may_hold(seat, parse_card("W"))
    assert not memory.may_hold(seat, parse_card("W+4"))
    assert memory.may_hold(seat, parse_card("B2"))
    assert memory.knows_lack(seat) and not memory.knows_lack(0)


def test_a_card_played_or_two_taken_undo_what_it_said() -> None:
    state, memory, seat = drawn_on("G7")
    # seat plays a wild: it holds wilds after all (it drew one since)
    memory.observe(state, play_move(seat, parse_card("W"), "B"), [], "G", 0)
    assert memory.may_hold(seat, parse_card("W"))
    assert not memory.may_hold(seat, parse_card("G1")) and not memory.may_hold(seat, parse_card("Y7"))
    # it plays a 7: it holds sevens too
    memory.observe(state, play_move(seat, parse_card("B7")), [], "B", 0)
    assert memory.may_hold(seat, parse_card("Y7"))
    # it takes two cards at once: they may bring anything
    memory.observe(state, simple_move(DRAW, seat), [Event(CARDS_DRAWN, seat, None, 2)], None, 2)
    assert not memory.knows_lack(seat)
    assert memory.may_hold(seat, parse_card("G1"))


def test_the_search_deals_no_card_a_seat_was_seen_to_lack() -> None:
    state, memory, seat = drawn_on("R5")
    me = 1 - seat
    player = Searching(memory, rollouts=8)
    pool = sorted(unseen(state, me).elements(), key=lambda c: c.text)
    rnd = random.Random(1)
    for _ in range(50):
        world = player.deal(state, me, pool, rnd)
        assert len(world.hands[seat]) == len(state.hands[seat])
        assert all(memory.may_hold(seat, c) for c in world.hands[seat]), world.hands[seat]
        assert sorted(c.text for c in world.hands[seat] + world.draw_pile) == sorted(c.text for c in pool)
