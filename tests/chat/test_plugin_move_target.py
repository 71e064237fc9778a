"""A third-party move aimed at a player (a `poke` that makes them draw) is
offered and typed by the player's name, as a catch is: the console offered
"Poke a player @1" (the log's form) and refused "poke Ada" when the seat's
name was "Ada (AI)" or had a space, since the engine's move grammar reads a
target as one word equal to a whole name."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.conformance.situations import Situation, kind, lay, reference
from unobot import (
    COLORS,
    N_,
    Event,
    GameState,
    Move,
    Rule,
    draw_cards,
    hookimpl,
    register_rule,
    unregister_rule,
)
from unobot.chat import actions
from unobot.chat import commands as c
from unobot.chat.grammar import parse
from unobot.chat.service import ChatService
from unobot.chat.table import Table
from unobot.chat.typed_offers import turn_offers
from unobot.chat.views import hand_view, table_view
from unobot.store import MemoryStore

POKE = "poke"


class Poke(Rule):
    """Poke: the player on turn may make another player draw a card."""

    name = "test-poke"
    title = {"en": "Poking"}
    checks = (POKE,)
    move_kinds = {POKE: N_("Poke a player")}

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        if player != state.turn:
            return None
        return [Move(POKE, player, target=s) for s in state.active() if s != player]

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind != POKE:
            return None
        return True if move.player == state.turn and move.target not in (None, move.player) else "not_allowed"

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != POKE or move.target is None:
            return None
        draw_cards(state, move.target, 1, events)
        return True


@pytest.fixture
def poke() -> Iterator[type[Rule]]:
    register_rule(Poke)
    try:
        yield Poke
    finally:
        unregister_rule(Poke.name)


async def _table(svc: ChatService) -> Table:
    ana = c.Person("1", "Ana", None, True)
    await svc.handle("chat", ana, c.SetRule(rule="test-poke", enabled=True))  # an admin turns it on
    await svc.handle("chat", ana, c.NewGame(variant="official"))
    await svc.handle("chat", c.Person("2", "Ben Lee"), c.Join())
    await svc.handle("chat", ana, c.AddAI(count=1))
    table = (await svc.handle("chat", ana, c.Start())).table
    assert table is not None
    lay(table, Situation("poke", ("R1 R2 R3", "B1 B2", "G1 G2"), "R4", kind(POKE),
                         rules={"test-poke": {}}))
    return table


async def test_a_plugin_move_s_target_is_offered_and_typed_by_name(poke: type[Rule]) -> None:
    table = await _table(ChatService(MemoryStore(), rng=random.Random(3)))
    names = [s.name for s in table.seats]
    assert names[1] == "Ben Lee" and " " in names[2], names  # "Ada (AI)": names with spaces
    hv = hand_view(table, "1")
    assert hv is not None
    words = [o.word for o in turn_offers(hv, table_view(table, "en"), "en")]
    assert f"poke {names[1]}" in words and f"poke {names[2]}" in words, words
    assert not any("@" in w for w in words), words  # the log's form is no name a player reads
    ana = c.Person("1", "Ana")
    for line, seat in ((f"poke {names[1]}", 1), (f"poke {names[2]}", 2), ("poke ben", 1),
                       (f"Poke a player {names[2]}", 2)):
        cmd = parse(line, table, "1", "en")
        assert isinstance(cmd, c.PluginMove), (line, cmd)
        after = reference(table, ana, cmd, 0.0)
        assert after.game is not None
        assert [len(h) for h in after.game.hands] == [3, 2 + (seat == 1), 2 + (seat == 2)], line


PAINT = "paint"


class Paint(Rule):
    """Paint: the player on turn may name the colour in play instead of playing."""

    name = "test-paint"
    title = {"en": "Painting"}
    checks = (PAINT,)
    move_kinds = {PAINT: N_("Paint the pile")}

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        return [Move(PAINT, player, color=k) for k in COLORS] if player == state.turn else None

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind != PAINT:
            return None
        return True if move.player == state.turn and move.color else "not_allowed"

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != PAINT:
            return None
        state.color = move.color
        return True


async def test_a_plugin_move_with_a_colour_is_told_apart_and_typed_in_the_readers_words() -> None:
    """A move made in each colour was four buttons all reading "✨ Paint the
    pile" (Telegram, Discord, the web table), offered in Spanish as
    `paint red` and refused when typed `paint verde`."""
    register_rule(Paint)
    try:
        svc = ChatService(MemoryStore(), rng=random.Random(5))
        ana = c.Person("1", "Ana", None, True)
        await svc.handle("chat", ana, c.SetRule(rule="test-paint", enabled=True))
        await svc.handle("chat", ana, c.NewGame(variant="official"))
        await svc.handle("chat", c.Person("2", "Bea"), c.Join())
        table = (await svc.handle("chat", ana, c.Start())).table
        assert table is not None
        lay(table, Situation("paint", ("R1 G2 B3", "Y4 R6 G6"), "R9", kind(PAINT), rules={"test-paint": {}}))
        labels = [a.label for a in actions.menu(table, "1", "es").actions if a.kind == PAINT]
        assert labels == ["✨ Paint the pile → 🟥 rojo", "✨ Paint the pile → 🟨 amarillo",
                          "✨ Paint the pile → 🟩 verde", "✨ Paint the pile → 🟦 azul"], labels
        hv = hand_view(table, "1")
        assert hv is not None
        words = [o.word for o in turn_offers(hv, table_view(table, "es"), "es")]
        assert words[:4] == ["paint rojo", "paint amarillo", "paint verde", "paint azul"], words
        for line in ("paint verde", "paint green", "Paint the pile verde"):
            after = reference(table, ana, parse(line, table, "1", "es"), 0.0)
            assert after.game is not None and after.game.color == "G", line
    finally:
        unregister_rule(Paint.name)
