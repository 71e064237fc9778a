"""A wild (or a Seven-O seven) played with UNO, folded into one action that
still needs its colour or target, keeps "· UNO!" in its label: it was cut off
with the colour, so the button read as the card's own plain play beside it.
Its choices, under that label, say the colour and the UNO only."""

from __future__ import annotations

import random

from tests.conformance.situations import Situation, kind, lay
from unobot.chat import actions
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.store import MemoryStore


async def test_a_wild_played_with_uno_says_uno_before_its_colour_is_picked() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(6))
    people = [c.Person("1", "Ana"), c.Person("2", "Bea")]
    await svc.handle("chat", people[0], c.NewGame(variant="official"))
    await svc.handle("chat", people[1], c.Join())
    table = (await svc.handle("chat", people[0], c.Start())).table
    assert table is not None
    lay(table, Situation("uno", ("W G2", "R1 R2 R3"), "R1", kind("play")))
    wilds = [a for a in actions.menu(table, "1", "en").grouped() if a.card is not None and a.card.text == "W"]
    plain = next(a for a in wilds if not a.uno)
    with_uno = next(a for a in wilds if a.uno)
    assert plain.label == "⬛ W · Wild" and with_uno.label == "⬛ W · Wild · UNO!"
    assert with_uno.needs == ("color",)
    assert [with_uno.choice_label(x) for x in with_uno.choices] == [
        "🟥 red · UNO!", "🟨 yellow · UNO!", "🟩 green · UNO!", "🟦 blue · UNO!"]
    assert [plain.choice_label(x) for x in plain.choices] == ["🟥 red", "🟨 yellow", "🟩 green", "🟦 blue"]
