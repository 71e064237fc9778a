"""Card art (adapters/card_art.py): every card of every variant gets a picture of its own,
the right size for a Telegram sticker, with real symbols, corner indices and a
colour-blind mark, and the contact sheets in docs/cards are there for every variant."""

from __future__ import annotations

import hashlib
import io
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image  # a test dependency: the test extra installs Pillow

from unobot.adapters import card_art
from unobot.adapters.card_art import ASPECT, card_image, signs, sticker_image
from unobot.adapters.card_art import sticker_image as render_card
from unobot.adapters.telegram.stickers import _png
from unobot.cards import (
    COLORS,
    Card,
    CardKind,
    load_installed_rules,
    parse_card,
    register_kind,
    unregister_kind,
)
from unobot.decks import card_kinds, variant_decks

DOCS = Path(__file__).resolve().parent.parent / "docs" / "cards"


@pytest.fixture(autouse=True)
def _rules_loaded() -> None:
    load_installed_rules()  # the plugins' card kinds (WR+4, RSA ...) parse


def test_every_card_of_every_variant_has_a_sticker_of_its_own() -> None:
    """Distinct per card (bright and greyed), 512 px a side, a PNG within Telegram's 512 KB."""
    kinds = card_kinds()
    every = {text for deck in variant_decks().values() for text in deck}
    assert every <= {c.text for c in kinds}, sorted(every - {c.text for c in kinds})
    seen: dict[str, str] = {}
    for card in kinds:
        for dim in (False, True):
            png = _png(card, dim)
            assert len(png) <= 512 * 1024, card.text
            with Image.open(io.BytesIO(png)) as image:
                assert image.format == "PNG" and image.size == (512, 512) and image.mode == "RGBA", card.text
                assert image.getpixel((0, 0))[3] == 0  # transparent round the card
                key = hashlib.sha256(image.tobytes()).hexdigest()
            name = f"{card.text}{' greyed' if dim else ''}"
            assert key not in seen, f"{name} looks like {seen.get(key)}"
            seen[key] = name


def test_faces_are_signs_not_words() -> None:
    """What the middle and the corners show: symbols, the same in every language."""
    expected = {"BS": ["⊘"], "YR": ["⇄"], "G+2": ["+2"], "W+4": ["+4"], "R5": ["5"], "W": [],
                "WR+4": ["⇄", "+4"], "RSA": ["⊘", "⊘"], "WCR": ["◎"], "W+10": ["+10"], "R+4": ["+4"]}
    for text, parts in expected.items():
        assert signs(parse_card(text)) == parts, text
    for card in card_kinds():
        if card.kind is None or card.kind.rule.startswith(("no-mercy", "shuffle")):  # unobot's own kinds
            assert not any(ch.isalpha() for part in signs(card) for ch in part), card.text


def test_a_plugin_kind_is_drawn_from_its_symbol_else_its_rank(monkeypatch: pytest.MonkeyPatch) -> None:
    register_kind(CardKind("ZZ", name="Zap", symbol="★", rule="test-art"))
    register_kind(CardKind("QQ", wild=True, draw=3, name="Wild Q", rule="test-art"))
    try:
        assert signs(Card.get("R", "ZZ")) == ["★"]
        assert signs(Card.get(None, "QQ")) == ["QQ"]  # no symbol declared: its rank
        assert sticker_image(Card.get("R", "ZZ")).size == (512, 512)
        assert sticker_image(Card.get(None, "QQ")).size == (512, 512)
        # No font here draws the symbol: the rank, never a "no such glyph" box.
        monkeypatch.setattr(card_art, "FONTS", ("/nonexistent.ttf",))
        card_art.font.cache_clear()
        assert signs(Card.get("R", "ZZ")) == ["ZZ"]
        assert signs(parse_card("BS")) == ["⊘"] and signs(parse_card("YR")) == ["⇄"]  # shapes, not characters
        assert sticker_image(parse_card("BS")).size == (512, 512)
    finally:
        unregister_kind("test-art")
        card_art.font.cache_clear()


def _white(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int]]:
    """Where `box` of `image` is near white (the corner index and the mark are white)."""
    part = image.crop(box).convert("RGB")
    return {(x, y) for x in range(part.width) for y in range(part.height)
            if min(part.getpixel((x, y))) > 215}  # type: ignore[type-var]


def _corner(card: Card) -> tuple[Image.Image, tuple[int, int, int, int]]:
    image = card_image(card, 496)
    w = image.width
    return image, (round(w * 0.04), round(496 * 0.04), round(w * 0.3), round(496 * 0.24))


def test_the_corner_shows_the_rank_and_the_colours_mark() -> None:
    """Two cards of one colour differ in the corner (the rank); two of one rank differ
    in the corner's white shapes alone (the mark), not only in their colour."""
    five, box = _corner(parse_card("R5"))
    six, _ = _corner(parse_card("R6"))
    assert _white(five, box) != _white(six, box)
    marks = {}
    for color in COLORS:
        image = card_image(Card.get(color, "5"), 496)  # the mark: under the index, at about 0.21 of the height
        marks[color] = frozenset(_white(image, (round(image.width * 0.1), round(496 * 0.165),
                                                round(image.width * 0.27), round(496 * 0.255))))
        assert len(marks[color]) > 200, color  # something white is drawn under the index
    for a in COLORS:
        for b in COLORS:
            if a < b:
                differ = len(marks[a] ^ marks[b]) / len(marks[a] | marks[b])
                assert differ > 0.2, (a, b, differ)  # a shape of its own (the same mark: 0)


def test_the_lower_corner_is_the_upper_one_turned() -> None:
    image = card_image(parse_card("G7"), 496)
    turned = image.transpose(Image.Transpose.ROTATE_180)
    w = image.width
    box = (round(w * 0.04), round(496 * 0.04), round(w * 0.3), round(496 * 0.24))
    same = _white(image, box) & _white(turned, box)
    assert len(same) > 0.9 * len(_white(image, box))


def test_the_skip_and_reverse_pictures_differ_where_the_symbol_is() -> None:
    skip, reverse = render_card(parse_card("BS")), render_card(parse_card("BR"))
    middle = (176, 176, 336, 336)
    assert skip.crop(middle).tobytes() != reverse.crop(middle).tobytes()


def test_the_web_table_gets_the_same_art_cut_to_the_card() -> None:
    from unobot.adapters.web.server import render_png

    with Image.open(io.BytesIO(render_png(parse_card("W+4")))) as image:
        assert image.size == (176, 248) and image.format == "PNG"
    assert round(248 * ASPECT) == 176


def _shipped() -> Iterator[tuple[str, int]]:
    for name, deck in variant_decks().items():
        yield name, len(deck)


def test_the_docs_hold_a_contact_sheet_of_every_shipped_variant() -> None:
    """docs/cards/<variant>.png (`unobot cards --sheets docs/cards`): one per variant, and
    its grid has room for exactly that variant's cards and the greyed example
    (a deck changed since the sheet was made fails here: make the sheets again)."""
    names = []
    for name, count in _shipped():
        path = DOCS / f"{name}.png"
        assert path.is_file(), f"{path} is missing: run unobot cards --sheets docs/cards"
        rows = math.ceil((count + 1) / 10)
        with Image.open(path) as image:
            assert image.format == "PNG"
            assert image.height == 96 + rows * (200 + 26 + 14) + 14, (name, count, image.size)
        names.append(name)
    assert "no-mercy" in names and "official-2018" in names and "official" in names
