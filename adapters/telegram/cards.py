"""Cards as pictures: every card kind drawn with Pillow, for stickers and for looking at.

Why drawn and not shipped as image files: plugins add card kinds, and each
needs its picture too; a card is a coloured rounded rectangle with its
kind's symbol (`CardKind.symbol`: ⊘, ⇄, +2; else its rank) large in the middle and, for colour-blind players, the colour's letter
(R, Y, G, B) in two corners. Wilds are black with the four colours around
the rank. `dim=True` greys a card out (a card not playable now).

`unobot cards --out DIR` writes one PNG per card kind (512x512, a
sticker's size) so they can be looked at. Pillow is optional: `pip install
unobot[cards]`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from unobot.cards import COLORS, KINDS, Card, load_installed_rules, official_deck
from unobot.chat.render import card_symbol

SIZE = 512
FILL = {"R": (214, 40, 40), "Y": (240, 196, 25), "G": (52, 160, 72), "B": (30, 100, 200), None: (25, 25, 25)}


#: Players counts the decks are built for (a rule may build a bigger deck for more players).
DECK_PLAYERS = (2, 4, 10)


def deck_cards() -> list[Card]:
    """Every card of every variant's deck the bot knows, built through its rule
    set as a round builds it (`build_deck` plus every rule's `more_cards`):
    cards a rule adds only to its deck (no-mercy's R+4, W+6, W+10) need
    pictures too. A variant that cannot be loaded is passed over."""
    from unobot.variants import VariantError, rules_for, variant_names

    cards: list[Card] = []
    for name in variant_names():
        try:
            rules = rules_for(name)
        except (VariantError, OSError, UnicodeDecodeError):
            continue
        for players in DECK_PLAYERS:
            cards += rules.build_deck(players)
            for extra in rules.more_cards(players):
                cards += extra
    return cards


def card_kinds() -> list[Card]:
    """One card of every kind: the official deck's, every variant's deck's,
    then each registered card kind in every colour (or as a wild)."""
    load_installed_rules()
    seen: dict[str, Card] = {}
    for card in [*official_deck(), *deck_cards()]:
        seen.setdefault(card.text, card)
    for rank, kind in sorted(KINDS.items()):
        for color in ((None,) if kind.wild else COLORS):
            card = Card.get(color, rank)
            seen.setdefault(card.text, card)
    return list(seen.values())


def _font(size: int) -> Any:
    from PIL import ImageFont  # type: ignore[import-not-found,unused-ignore]  # optional (unobot[cards])

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: one small bitmap font
        return ImageFont.load_default()


#: Fonts with the symbols card kinds declare (⊘ ⇄ ⇊ ◎ ...), tried in order;
#: Pillow's own font has none of them. DejaVu ships with most Linux systems.
SYMBOL_FONTS = ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
                "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf", "/Library/Fonts/Arial Unicode.ttf",
                "C:/Windows/Fonts/seguisym.ttf")


def _symbol_font(size: int, text: str) -> Any | None:
    """A font that draws every character of `text`, or None."""
    from PIL import ImageFont  # type: ignore[import-not-found,unused-ignore]

    for name in SYMBOL_FONTS:
        try:
            font = ImageFont.truetype(name, size)
        except OSError:
            continue
        missing = font.getmask("\U000f0000").getbbox()  # a private-use character: the "no glyph" box
        if all(font.getmask(ch).getbbox() != missing for ch in text if not ch.isascii()):
            return font
    return None


def face(card: Card) -> tuple[str, Any]:
    """What the card's picture shows in the middle and in what font: its kind's
    symbol (`⊘`, `⇄+4`) where a font can draw it, else its code's rank
    (`S`, `R+4`), as before kinds declared symbols."""
    symbol = card_symbol(card)
    rank = card.rank or "W"
    for text in (symbol, rank) if symbol != rank else (rank,):
        size = {1: 190, 2: 150, 3: 110}.get(len(text), 90)
        if text.isascii():
            return text, _font(size)
        font = _symbol_font(size, text)
        if font is not None:
            return text, font
    return rank, _font({1: 190, 2: 150, 3: 110}.get(len(rank), 90))


def render_card(card: Card, *, dim: bool = False) -> Any:
    """The card's picture: a 512x512 RGBA image (transparent around the card)."""
    from PIL import Image, ImageDraw, ImageEnhance  # type: ignore[import-not-found,unused-ignore]

    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = 96, 16, SIZE - 96, SIZE - 16
    draw.rounded_rectangle((left - 8, top - 8 + 8, right + 8, bottom), radius=40, fill=(255, 255, 255, 255))
    draw.rounded_rectangle((left, top + 8, right, bottom - 8), radius=32, fill=FILL[card.color] + (255,))
    if card.color is None:  # a wild: the four colours in the corners of the oval
        box = (left + 30, top + 90, right - 30, bottom - 90)
        for i, color in enumerate(COLORS):
            draw.pieslice(box, 90 * i - 90, 90 * i, fill=FILL[color] + (255,))
    else:
        draw.ellipse((left + 30, top + 90, right - 30, bottom - 90), fill=(255, 255, 255, 255))
    rank, font = face(card)
    ink = (255, 255, 255, 255) if card.color is None else FILL[card.color] + (255,)
    draw.text((SIZE // 2, SIZE // 2), rank, font=font, anchor="mm", fill=ink,
              stroke_width=6, stroke_fill=(0, 0, 0, 255))
    small = _font(52)
    letter = card.color or "W"
    for x, y in ((left + 40, top + 50), (right - 40, bottom - 50)):
        draw.text((x, y), letter, font=small, anchor="mm", fill=(255, 255, 255, 255),
                  stroke_width=3, stroke_fill=(0, 0, 0, 255))
    if dim:
        alpha = image.getchannel("A")
        grey = ImageEnhance.Brightness(ImageEnhance.Color(image.convert("RGB")).enhance(0.15)).enhance(0.7)
        image = grey.convert("RGBA")
        image.putalpha(alpha)
    return image


def write_cards(out: Path, *, dim: bool = False) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for card in card_kinds():
        name = card.text.replace("+", "plus")
        path = out / f"{name}{'-dim' if dim else ''}.png"
        render_card(card, dim=dim).save(path)
        written.append(path)
    return written


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("cards", help="write a picture of every card kind (PNG, 512x512)",
                              description="Write a picture of every card kind, plugin cards included.")
    p.add_argument("--out", metavar="DIR", required=True, help="folder to write the PNG files to")
    p.add_argument("--dim", action="store_true", help="also write the greyed-out versions")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import PIL  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        print("error: drawing cards needs Pillow: pip install 'unobot[cards]'", file=sys.stderr)
        return 2
    written = write_cards(Path(args.out))
    if args.dim:
        written += write_cards(Path(args.out), dim=True)
    print(f"{len(written)} card pictures in {args.out}")
    return 0
