"""Card pictures show the symbol a card kind declares (⊘, ⇄, ⇄+4), not its code."""

from __future__ import annotations

import pytest

from unobot.adapters.telegram import cards
from unobot.adapters.telegram.cards import face, render_card
from unobot.cards import parse_card


def test_a_picture_shows_the_kinds_symbol_in_a_font_that_has_it() -> None:
    for text, symbol in (("BS", "⊘"), ("YR", "⇄"), ("WR+4", "⇄+4"), ("RSA", "⊘⊘"), ("WCR", "◎"), ("G+2", "+2"),
                         ("R5", "5"), ("W", "W")):
        shown, font = face(parse_card(text))
        assert shown == symbol, text
        missing = font.getmask("\U000f0000").getbbox()
        assert all(font.getmask(ch).getbbox() != missing for ch in shown), text  # drawn, not a box
    assert face(parse_card("GSE"))[0] == "SE"  # the example plugin's kind declares no symbol: its rank


def test_without_a_font_for_the_symbol_the_rank_is_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cards, "SYMBOL_FONTS", ())
    assert face(parse_card("BS"))[0] == "S" and face(parse_card("WR+4"))[0] == "R+4"
    assert render_card(parse_card("BS")).size == (512, 512)


def test_the_skip_and_reverse_pictures_differ_where_the_symbol_is() -> None:
    skip, reverse = render_card(parse_card("BS")), render_card(parse_card("BR"))
    middle = (176, 176, 336, 336)
    assert skip.crop(middle).tobytes() != reverse.crop(middle).tobytes()
