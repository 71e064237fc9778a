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


def test_the_unseen_pool_is_worked_out_again_for_a_state_laid_out_afresh() -> None:
    """A state rebuilt in place from another game's view (bench/ai.py inside
    RLCard's game: every view says 0 moves) is a new position: the cards
    played since are no longer unseen. Keyed on an id and the move count, the
    pool of the last decision came back."""
    state, _ = new_game("official", ["a", "b"], seed=5)
    hard = Searching()
    before = hard._pool(state, 0)
    card = state.draw_pile.pop()
    state.discard.append(card)  # played since, by the other game; still 0 moves here
    after = hard._pool(state, 0)
    assert after == unseen(state, 0)
    assert after[card] == before[card] - 1


def test_a_level_in_rlcards_game_is_told_of_a_penalty_and_forgets_what_the_seat_lacked() -> None:
    """bench/ai.py shows a level each step of RLCard's game with its penalty
    (RLCard's step says nothing of it): a seat that drew on red, then took a
    Draw Two, may hold red again."""
    import importlib.util
    import sys
    from pathlib import Path

    saved = list(sys.path)  # bench/ai.py puts bench/ first, where telegram.py would shadow PTB
    try:
        spec = importlib.util.spec_from_file_location(
            "bench_ai", Path(__file__).resolve().parent.parent / "bench" / "ai.py")
        assert spec is not None and spec.loader is not None
        bench = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench)
    finally:
        sys.path[:] = saved
    taken = bench.taken

    after, memory, seat = drawn_on("R5")
    assert not memory.may_hold(seat, parse_card("R2"))

    class Player:
        def __init__(self, n: int) -> None:
            self.hand = [None] * n

    class Game:
        players = [Player(7), Player(len(after.hands[seat]) + 2)]

    events = taken(Game(), [7, len(after.hands[seat])], mover=0)
    assert [(e.kind, e.player, e.n) for e in events] == [("penalty_taken", seat, 2)]
    memory.observe(after, play_move(0, parse_card("R+2")), events, "R", 0)
    assert memory.may_hold(seat, parse_card("R2"))
