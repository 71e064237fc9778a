"""A plugin's move is labelled with its title, its cards set apart by commas
and its target after an arrow: "🃏 Play several cards G5 · Green 5, G6 ·
Green 6, G7 · Green 7 → Bea" (each card's label has its own " · ", so cards
and a name run together by spaces read as one run)."""

from __future__ import annotations

import random

from tests.conformance.situations import Situation, kind, lay
from unobot.chat import actions
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.store import MemoryStore


async def test_a_multi_play_names_each_card_and_its_target_apart() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(5))
    people = [c.Person("1", "Ana"), c.Person("2", "Bea")]
    await svc.handle("chat", people[0], c.NewGame(variant="crazy"))
    await svc.handle("chat", people[1], c.Join())
    table = (await svc.handle("chat", people[0], c.Start())).table
    assert table is not None
    lay(table, Situation("multi", ("G5 G6 G7 Y9", "R1 R2 R3"), "G4", kind("play"), variant="crazy"))
    labels = [a.label for a in actions.menu(table, "1", "en").actions if a.kind == "multi"]
    assert "🃏 Play several cards G5 · Green 5, G6 · Green 6" in labels, labels
    assert "🃏 Play several cards G5 · Green 5, G6 · Green 6, G7 · Green 7 → Bea" in labels, labels
