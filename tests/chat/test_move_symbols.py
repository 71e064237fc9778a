"""A rule chooses the mark its move's label starts with (`Rule.move_symbols`),
and every front-end shows it: every plugin move read "✨ ..." (core's one
mark for any kind it did not know), so a knock and a multi-play looked
alike on every button. The built-in moves that rules carry out (UNO, catch,
challenge, multi-play, blitz's time up) take their marks the same way."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.chat.test_plugin_move_target import PAINT, Paint
from tests.conformance.situations import Situation, kind, lay
from unobot import COLORS, Rule, register_rule, unregister_rule
from unobot.chat import actions
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.moves import CATCH, CHALLENGE, UNO, Move
from unobot.registry import move_symbol, valid_move_symbol
from unobot.store import MemoryStore


class Brush(Paint):
    """Paint, with a brush of its own on its buttons."""

    name = "test-brush"
    move_symbols = {PAINT: "🖌️"}
    move_hints = {PAINT: "The colour in play becomes this one"}


@pytest.fixture
def brush() -> Iterator[type[Rule]]:
    register_rule(Brush)
    try:
        yield Brush
    finally:
        unregister_rule(Brush.name)


async def test_a_plugin_move_s_label_starts_with_the_symbol_its_rule_declared(brush: type[Rule]) -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(3))
    ana = c.Person("1", "Ana", None, True)
    await svc.handle("chat", ana, c.SetRule(rule=Brush.name, enabled=True))
    await svc.handle("chat", ana, c.NewGame(variant="official"))
    await svc.handle("chat", ana, c.AddAI(count=1))
    table = (await svc.handle("chat", ana, c.Start())).table
    assert table is not None
    lay(table, Situation("brush", ("R1 R2 R3", "B1 B2"), "R4", kind(PAINT), rules={Brush.name: {}}))
    assert actions.move_label(table, Move(PAINT, 0, color=COLORS[0]), "es") == "🖌️ Paint the pile → 🟥 rojo"
    painting = [a for a in actions.menu(table, "1", "es").actions if "Paint the pile" in a.label]
    assert len(painting) == len(COLORS), painting
    assert all(a.emoji == "🖌️" and a.label.startswith("🖌️ Paint the pile") for a in painting), painting
    # and its hint, as every built-in move has one (a rule without a catalogue: English)
    assert {a.hint for a in painting} == {"The colour in play becomes this one"}, painting
    assert move_symbol(PAINT) == "🖌️"


async def test_a_built_in_rule_s_move_has_its_hint_in_the_reader_s_language() -> None:
    """multi-play's move read its label alone where every other move says what it does."""
    svc = ChatService(MemoryStore(), rng=random.Random(5))
    people = [c.Person("1", "Ana"), c.Person("2", "Bea")]
    await svc.handle("chat", people[0], c.NewGame(variant="crazy"))
    await svc.handle("chat", people[1], c.Join())
    table = (await svc.handle("chat", people[0], c.Start())).table
    assert table is not None
    lay(table, Situation("multi", ("G5 G6 G7 Y9", "R1 R2 R3"), "G4", kind("play"), variant="crazy"))
    # (the multi-play down to one card is offered with UNO too: that action says so instead)
    hints = {a.hint for a in actions.menu(table, "1", "es").actions
             if a.kind == "multi" and not getattr(a.command, "uno", False)}
    assert hints == {"Todas en un solo turno"}, hints


def test_a_rule_without_symbols_keeps_the_default_and_forgetting_a_rule_forgets_its_symbol() -> None:
    register_rule(Brush)
    unregister_rule(Brush.name)
    assert move_symbol(PAINT) == "✨"


def test_the_built_in_moves_rules_carry_out_use_the_same_way() -> None:
    from unobot.plugins.blitz import TIME_UP, Blitz
    from unobot.plugins.challenge import Challenge
    from unobot.plugins.multi_play import MULTI, MultiPlay
    from unobot.plugins.uno_call import UnoCall

    assert UnoCall.move_symbols == {UNO: "📢", CATCH: "🫵"}
    assert Challenge.move_symbols == {CHALLENGE: "⚖️"}
    assert MultiPlay.move_symbols[MULTI] == move_symbol(MULTI) != "✨"
    assert Blitz.move_symbols[TIME_UP] == move_symbol(TIME_UP) != "✨"
    assert move_symbol(UNO) == "📢" and move_symbol(CHALLENGE) == "⚖️"


@pytest.mark.parametrize("symbol, ok", [("✊", True), ("🖌️", True), ("🧑‍🚀", True), ("🇪🇸", True),
                                        ("", False), ("a b", False), ("x\n", False),
                                        ("\x1b[31m", False), ("a very long mark", False), (7, False)])
def test_a_symbol_is_a_short_mark(symbol: object, ok: bool) -> None:
    assert valid_move_symbol(symbol) is ok


def test_a_bad_symbol_is_not_shown_and_the_author_is_told(caplog: pytest.LogCaptureFixture) -> None:
    class Shouting(Paint):
        name = "test-shouting"
        move_symbols = {PAINT: "PAINT NOW"}

    register_rule(Shouting)
    try:
        assert move_symbol(PAINT) == "✨"
        assert "move symbol 'PAINT NOW'" in caplog.text
    finally:
        unregister_rule(Shouting.name)


def test_a_move_kind_another_rule_declared_is_reported_not_silently_shared(
        caplog: pytest.LogCaptureFixture) -> None:
    """Two rules declaring one move kind: the second's moves were read, titled and
    marked as the first's without a word. Reported, as a card rank declared twice is."""
    from unobot.registry import broken_rules

    class Other(Paint):
        name = "test-other-paint"
        move_symbols = {PAINT: "🪣"}

    register_rule(Paint)
    register_rule(Other)
    try:
        assert "move kind 'paint' is declared twice (test-paint, test-other-paint)" in caplog.text
        assert "declared twice" in broken_rules()["test-other-paint"]
        assert move_symbol(PAINT) == "✨"  # the first rule's (none), not the second's
    finally:
        unregister_rule(Other.name)
        unregister_rule(Paint.name)
