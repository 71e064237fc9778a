"""The status message's text: whose turn, top card and colour, direction,
card counts, the pending draw; never a card from a hand."""

from __future__ import annotations

from tests.telegram.test_inline import table
from unobot.adapters.telegram.status import render
from unobot.cards import parse_card
from unobot.engine import apply
from unobot.moves import PLAY, Move


def test_status_shows_colour_pending_draw_counts_and_turn() -> None:
    t = table(["W+4 G5 B7 RR", "R5 R6", "Y1 Y2"], "R9")
    assert t.game is not None
    t.game, _events = apply(t.game, Move(PLAY, 0, parse_card("W+4"), "G"))
    status = render(t)
    lines = status.text.splitlines()
    assert lines[0] == "UNO · Official rules" and status.bold == len(lines[0])
    assert lines[1] == "🟩 Top card: Wild Draw Four · colour: green"
    assert lines[2] == "Ann (3) → ▶ Ben (2) → Ada (AI) (2)"  # direction, counts, who is on turn
    assert "Ben must draw 4, or answer it." in lines
    assert "Turn: Ben" in lines
    button = status.markup.inline_keyboard[0][0] if status.markup is not None else None
    assert button is not None and button.switch_inline_query_current_chat == "#-1001234567890 "  # "My cards", naming the game
    for card in ("G5", "B7", "Red Reverse", "R5", "Red 5", "Y1", "Yellow 1"):
        assert card not in status.text


def test_a_reverse_turns_the_arrows() -> None:
    t = table(["RR G5 B7", "R5 R6", "Y1 Y2"], "R9")
    assert t.game is not None
    t.game, _events = apply(t.game, Move(PLAY, 0, parse_card("RR")))
    lines = render(t).text.splitlines()
    assert lines[1] == "🟥 Top card: Red Reverse · colour: red"
    assert lines[2] == "Ann (2) ← Ben (2) ← ▶ Ada (AI) (2)"
