"""`3 uno` with a card that takes the hand from three cards to one (a
Discard All putting down the rest of its colour): UNO goes with the play,
said once the card lands, in the same command. Before, the console refused
it ("UNO can be said only with two cards ... Nothing was played"), and
under false UNO (the crazy preset) UNO said first cost two cards."""

from __future__ import annotations

import random

from tests.conformance.situations import Situation, kind, lay
from unobot.chat import commands as c
from unobot.chat.outcome import Outcome
from unobot.chat.play import step
from unobot.chat.play_picks import PlayNeeds, play_needs
from unobot.chat.service import ChatService
from unobot.chat.table import Table
from unobot.chat.views import hand_view, table_view
from unobot.store import MemoryStore

ANA, BEA = c.Person("1", "Ana"), c.Person("2", "Bea")


async def laid(variant: str, hands: tuple[str, ...]) -> Table:
    svc = ChatService(MemoryStore(), rng=random.Random(6))
    await svc.handle("chat", ANA, c.NewGame(variant=variant))
    await svc.handle("chat", BEA, c.Join())
    table = (await svc.handle("chat", ANA, c.Start())).table
    assert table is not None
    lay(table, Situation("discard all", hands, "R9", kind("play"), variant=variant))
    return table


async def test_a_discard_all_down_to_one_card_takes_uno_with_it() -> None:
    for variant in ("no-mercy", "crazy"):  # crazy: false UNO is on, so UNO said first would cost 2 cards
        table = await laid(variant, ("RDA R5 G1", "B1 B2 B3"))
        hv = hand_view(table, "1")
        assert hv is not None
        typed = play_needs(table, "1", c.Play(card="RDA", uno=True), table_view(table, "en"), hv, "en")
        assert isinstance(typed, PlayNeeds) and typed.uno, typed
        out = Outcome()
        step(table, ANA, typed.command(None, None), out, 0.0)
        game = table.game
        assert game is not None
        assert [x.text for x in game.hands[0]] == ["G1"], variant
        assert game.uno & 1 and game.exposed == -1, variant  # said: nobody can catch Ana
        assert [e.kind for e in out.events].count("uno_said") == 1


async def test_uno_that_no_play_makes_owed_is_still_refused_whole() -> None:
    table = await laid("no-mercy", ("R5 R6 G1", "B1 B2 B3"))
    hv = hand_view(table, "1")
    assert hv is not None
    refused = play_needs(table, "1", c.Play(card="R5", uno=True), table_view(table, "en"), hv, "en")
    assert isinstance(refused, str) and "Nothing was played" in refused
