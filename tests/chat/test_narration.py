"""A run of events is told once on every front-end: the chats' last moves
(status message, web table) merge a player's run of draws and count a
repeated move, as the console's log does (core/chat/narration.py)."""

from __future__ import annotations

import random

from unobot.cards import parse_card
from unobot.chat import commands as c
from unobot.chat.narration import kept_after_draw, last_wild_colours, merge_repeats, unsaid_notices
from unobot.chat.service import ChatService
from unobot.chat.views import table_view
from unobot.events import Event
from unobot.store import MemoryStore


async def test_the_last_moves_tell_a_run_of_draws_once() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(5))
    assert (await svc.handle("c", c.Person("1", "Ana"), c.NewGame(variant="official"))).ok
    assert (await svc.handle("c", c.Person("2", "Ben"), c.Join())).ok
    assert (await svc.handle("c", c.Person("1", "Ana"), c.Start())).ok
    table = await svc.table("c")
    assert table is not None
    table.recent.clear()
    y2 = parse_card("Y2")
    table.remember([Event("cards_drawn", 0, n=1)] * 3 + [Event("card_played", 1, y2)] * 2 + [Event("cards_drawn", 1, n=2)])
    lines = table_view(table, "en").recent
    assert len(lines) == 3, lines
    assert "3" in lines[0] and "Ana" in lines[0]  # one line: Ana drew 3 cards
    assert lines[1].endswith(" ×2") and "Ben" in lines[1]
    assert "Ben" in lines[2] and "2" in lines[2]


def test_a_wild_that_ends_the_round_names_no_colour() -> None:
    events = [Event("card_played", 0, parse_card("W")), Event("color_chosen", 0, color="R"),
              Event("round_won", 0, n=20), Event("card_played", 1, parse_card("W")), Event("color_chosen", 1, color="B")]
    assert last_wild_colours(events) == {1}
    merged, times = merge_repeats(events)
    assert merged == events and times == [1] * 5


def test_a_colour_drawn_at_random_is_not_told_again_as_the_players_choice() -> None:
    """random-colour tells the colour its draw gave; "Ada chose red." after
    it said what Ada never did (issue #21)."""
    from unobot.chat.render import describe_event
    from unobot.engine import apply, legal_moves, new_game
    from unobot.moves import PLAY

    for seed in range(200):
        state, _ = new_game("official", ["Ada", "Ben"], seed=seed, overrides={"random-colour": True})
        wilds = [m for m in legal_moves(state, state.turn) if m.kind == PLAY and m.card is not None
                 and m.card.is_wild and m.card.draw == 0]
        if wilds:
            break
    else:
        raise AssertionError("no seed deals a playable Wild")
    _, events = apply(state, wilds[0])
    assert [e.kind for e in events].count("color_chosen") == 1  # the state still records the choice
    merged, _ = merge_repeats(events)
    lines = [t for e in merged if (t := describe_event(e, ["Ada", "Ben"].__getitem__, "en"))]
    assert any("drawn at random" in t for t in lines), lines
    assert not any(" chose " in t for t in lines), lines
    # a player's own choice is still told
    played = Event("card_played", 0, parse_card("W"))
    chosen = Event("color_chosen", 0, color="R")
    assert merge_repeats([played, chosen])[0] == [played, chosen]


def test_a_drawn_card_that_does_not_fit_is_named_and_kept() -> None:
    """After `dp`: the card drawn and kept is named (the drawer's own cards
    only); a drawn card that was played says nothing."""
    g7 = parse_card("G7")
    kept = kept_after_draw([Event("cards_drawn", 0, n=1, cards=(g7,)), Event("cards_drawn", 1, n=1)], 0, "en")
    assert kept == ("Green 7 does not fit now: you keep it.", [g7])
    assert kept_after_draw([Event("cards_drawn", 0, n=1)], 0, "en") == (
        "The card you drew does not fit now: you keep it.", [])
    assert kept_after_draw([Event("cards_drawn", 0, n=1, cards=(g7,)), Event("card_played", 0, g7)], 0, "en") is None
    assert kept_after_draw([], None, "en") is None


def test_only_notices_no_event_says_are_added() -> None:
    events = [Event("player_left", 1), Event("player_left", 1)]
    names = ["Ana", "Ben"].__getitem__
    notices = ["Ben left the game.", "Ben left the game.", "Ben left the game.", "A rule's own words."]
    assert unsaid_notices(notices, events, names, "en") == ["Ben left the game.", "A rule's own words."]
