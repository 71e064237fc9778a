"""Card art: one drawing of every card, for the Telegram stickers, `unobot cards` and the web table.

Why drawn and not shipped as image files: plugins add card kinds, and each
needs its picture too. What a card's face shows comes from its kind
(`CardKind.face`: the declared `symbol`, else the rank), read as a row of
signs: ``⊘`` is drawn as a skip sign (a ring with a bar), ``⇄`` as the two
arrows of a reverse, ``+N`` as a number, and any other character in a font
that has it (DejaVu, on most systems), so ``⊘⊘`` (skip everyone), ``⇄+4``
(wild reverse draw four), ``◎``, ``⇊``, ``⇶``, ``✎`` need nothing of their
own here, and a plugin's kind with a symbol of its own is drawn from it. A
kind that declares no symbol shows its rank (`SE`); no picture ever shows a
word of one language.

The layout is a real card's: a coloured card in a white border, a tilted
white oval with the face large in the card's colour, and in two corners
(top left, and bottom right upside down) the face small with the colour's
mark under it. A card whose face is only a draw (``+2``, ``+4``, ``+6``...)
shows a stack of cards under the number. A wild is black with the four
colours in its oval.

The colour-blind mark: colour is never the only cue. Each colour has a
shape, drawn under the corner index: red ▲ (a triangle), yellow ● (a
circle), green ✚ (a cross), blue ◆ (a diamond): four outlines that differ
even where the colours look alike. A wild shows the four
colours' marks in the quadrants of its oval. 6 and 9 are underlined, as on
real cards, because the lower corner reads upside down.

Drawn at twice the size and scaled down, so edges are smooth at any size.
Pillow is needed (a dependency of the web table and of the `cards` extra).
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any

from unobot.cards import COLORS, Card
from unobot.chat.render import card_symbol

#: The drawing's version: part of the sticker sets' titles and of what the store
#: remembers of them (adapters/telegram/stickers.py), so sets drawn by an older
#: version are made again. Change it whenever the pictures change.
ART_VERSION = "2"
#: A card's width over its height (a playing card's 63 x 88 mm).
ASPECT = 0.71
#: A Telegram sticker: one side exactly 512 px (PNG or WEBP, at most 512 KB).
STICKER = 512
#: Drawn at this many times the size asked for, then scaled down (smooth edges).
SUPERSAMPLE = 2

FILL: dict[str | None, tuple[int, int, int]] = {
    "R": (214, 40, 40), "Y": (242, 192, 20), "G": (46, 158, 72), "B": (28, 98, 204), None: (28, 28, 30)}
INK = (20, 20, 24)
WHITE = (255, 255, 255)
#: The colour-blind marks: a shape per colour (see the module's docstring).
MARKS = {"R": "triangle", "Y": "circle", "G": "cross", "B": "diamond"}

#: Fonts tried in order: a bold sans with the symbols card kinds declare
#: (⊘ ⇄ ⇊ ◎ ...); Pillow's own font has none of them. DejaVu ships with most
#: Linux systems; without any of these, Pillow's font draws ASCII faces.
FONTS = ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
         "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
         "/Library/Fonts/Arial Unicode.ttf", "C:/Windows/Fonts/seguisym.ttf")

#: Signs of a face drawn as shapes, not as characters of a font.
SKIP_SIGN, REVERSE_SIGN = "⊘", "⇄"
_SIGNS = re.compile(r"\+\d+|[A-Za-z0-9]+|.")
_DRAW_ONLY = re.compile(r"\+\d+")


def _image() -> Any:
    from PIL import Image  # type: ignore[import-not-found,unused-ignore]  # Pillow is optional for core

    return Image


@functools.lru_cache(maxsize=64)
def font(size: int) -> Any:
    """The first of `FONTS` found, at `size`; Pillow's own font without one."""
    from PIL import ImageFont  # type: ignore[import-not-found,unused-ignore]

    for name in FONTS:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def has_glyph(face: Any, ch: str) -> bool:
    """True when `face` draws `ch` (and not its "no such glyph" box)."""
    missing = face.getmask("\U000f0000").getbbox()  # a private-use character: the box
    box = face.getmask(ch).getbbox()
    return box is not None and box != missing


def signs(card: Card) -> list[str]:
    """The face as the signs drawn: `⊘⊘` -> [⊘, ⊘], `⇄+4` -> [⇄, +4], `+10` -> [+10],
    `SE` -> [SE]. A character no font here can draw makes the face its rank."""
    face = "" if card.is_wild and not card.rank else card_symbol(card)
    found = _SIGNS.findall(face)
    sample = font(40)
    if all(s in (SKIP_SIGN, REVERSE_SIGN) or s.isascii() or has_glyph(sample, s) for s in found):
        return found
    return _SIGNS.findall(card.rank or "")


# ---------------------------------------------------------------- shapes (masks)

def _mask(width: int, height: int) -> tuple[Any, Any]:
    from PIL import ImageDraw  # type: ignore[import-not-found,unused-ignore]

    mask = _image().new("L", (max(1, width), max(1, height)), 0)
    return mask, ImageDraw.Draw(mask)


def _skip_mask(s: int) -> Any:
    """⊘: a ring with a bar from its upper right to its lower left."""
    mask, draw = _mask(s, s)
    t = s * 0.17
    draw.ellipse((0, 0, s - 1, s - 1), fill=255)
    draw.ellipse((t, t, s - 1 - t, s - 1 - t), fill=0)
    r = s / 2 - t / 2
    c = s / 2
    d = r * 0.7071
    draw.line((c + d, c - d, c - d, c + d), fill=255, width=round(t))
    return mask


def _reverse_mask(s: int) -> Any:
    """⇄: two thick arrows, one each way, turned to lie along the card's diagonal."""
    mask, draw = _mask(s, s)
    shaft = s * 0.17
    for y, right in ((s * 0.28, True), (s * 0.72, False)):
        head = [(s * 0.58, y - s * 0.25), (s, y), (s * 0.58, y + s * 0.25)]
        body = (s * 0.0, y - shaft / 2, s * 0.62, y + shaft / 2)
        if not right:
            head = [(s - x, yy) for x, yy in head]
            body = (s - body[2], body[1], s - body[0], body[3])
        draw.polygon(head, fill=255)
        draw.rectangle(body, fill=255)
    turned = mask.rotate(45, resample=_image().Resampling.BICUBIC, expand=True)
    return turned.crop(turned.getbbox())


def _text_mask(text: str, height: int) -> Any:
    """`text` in the card font, cut to its ink."""
    face = font(max(8, round(height * 1.3)))
    left, top, right, bottom = face.getbbox(text)
    mask, draw = _mask(right - left + 4, bottom - top + 4)
    draw.text((2 - left, 2 - top), text, font=face, fill=255)
    box = mask.getbbox()
    return mask.crop(box) if box else mask


def _sign_mask(sign: str, height: int) -> Any:
    if sign == SKIP_SIGN:
        return _skip_mask(height)
    if sign == REVERSE_SIGN:
        return _reverse_mask(height)
    return _text_mask(sign, height)


def _row_mask(parts: list[str], height: int, underline: bool = False) -> Any:
    """The face's signs side by side (overlapping a little when they repeat, as ⊘⊘)."""
    masks = [_sign_mask(p, height) for p in parts] or [_mask(1, 1)[0]]
    gap = round(height * 0.04)
    overlaps = [round(-height * 0.22) if a == b else gap for a, b in zip(parts, parts[1:])]
    width = sum(m.width for m in masks) + sum(overlaps)
    tallest = max(m.height for m in masks)
    line = round(height * 0.09) if underline else 0
    row, draw = _mask(width, tallest + (line * 2 if line else 0))
    x = 0
    for i, m in enumerate(masks):
        row.paste(255, (x, (tallest - m.height) // 2), m)
        x += m.width + (overlaps[i] if i < len(overlaps) else 0)
    if line:
        draw.rectangle((width * 0.22, tallest + line * 0.6, width * 0.78, tallest + line * 1.6), fill=255)
    return row


def _mark_mask(color: str, s: int) -> Any:
    """The colour's colour-blind mark, a shape filling an s x s square."""
    mask, draw = _mask(s, s)
    shape = MARKS[color]
    if shape == "triangle":
        draw.polygon([(s / 2, s * 0.04), (s * 0.98, s * 0.92), (s * 0.02, s * 0.92)], fill=255)
    elif shape == "circle":
        draw.ellipse((s * 0.05, s * 0.05, s * 0.95, s * 0.95), fill=255)
    elif shape == "cross":
        draw.rectangle((s * 0.33, s * 0.02, s * 0.67, s * 0.98), fill=255)
        draw.rectangle((s * 0.02, s * 0.33, s * 0.98, s * 0.67), fill=255)
    else:
        draw.polygon([(s / 2, 0), (s, s / 2), (s / 2, s), (0, s / 2)], fill=255)
    return mask


def _fit(mask: Any, width: float, height: float) -> Any:
    """`mask` scaled to fit width x height, its proportions kept."""
    scale = min(width / mask.width, height / mask.height)
    size = (max(1, round(mask.width * scale)), max(1, round(mask.height * scale)))
    return mask.resize(size, _image().Resampling.LANCZOS) if size != mask.size else mask


def _grow(mask: Any, by: float) -> Any:
    """`mask` grown by about `by` pixels all round (for an outline), on a canvas that fits it."""
    from PIL import ImageFilter  # type: ignore[import-not-found,unused-ignore]

    pad = round(by) + 2
    big = _image().new("L", (mask.width + 2 * pad, mask.height + 2 * pad), 0)
    big.paste(mask, (pad, pad))
    if by <= 0:
        return big
    blurred = big.filter(ImageFilter.GaussianBlur(by / 2))
    return blurred.point(lambda v: 255 if v > 12 else v * 20)


def _paint(canvas: Any, mask: Any, center: tuple[float, float], fill: tuple[int, int, int],
           outline: float, ink: tuple[int, int, int] = INK) -> None:
    """`mask` painted in `fill` centred on `center`, with an `outline` px border in `ink`."""
    cx, cy = center
    if outline > 0:
        grown = _grow(mask, outline)
        pad = (grown.width - mask.width) // 2
        x, y = round(cx - mask.width / 2) - pad, round(cy - mask.height / 2) - pad
        canvas.paste(ink + (255,), (x, y), grown)
    canvas.paste(fill + (255,), (round(cx - mask.width / 2), round(cy - mask.height / 2)), mask)


# ---------------------------------------------------------------- the card

def _mini_card(canvas: Any, box: tuple[float, float, float, float], color: str | None, line: float) -> None:
    """A small card (white edge, its colour, a dark outline) for the draw stacks."""
    from PIL import ImageDraw  # type: ignore[import-not-found,unused-ignore]

    draw = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    r = (x1 - x0) * 0.16
    draw.rounded_rectangle(box, radius=r, fill=INK + (255,))
    draw.rounded_rectangle((x0 + line, y0 + line, x1 - line, y1 - line), radius=r * 0.8, fill=WHITE + (255,))
    e = line + (x1 - x0) * 0.08
    draw.rounded_rectangle((x0 + e, y0 + e, x1 - e, y1 - e), radius=r * 0.5, fill=FILL[color] + (255,))
    if color is not None:
        _paint(canvas, _mark_mask(color, round((x1 - x0) * 0.34)), ((x0 + x1) / 2, (y0 + y1) / 2), WHITE, line * 0.6)


def _draw_stack(canvas: Any, card: Card, center: tuple[float, float], size: float, line: float) -> None:
    """The stack of cards a draw card shows: as many as it makes one draw, up to four
    (a wild's in the four colours), fanned from lower left to upper right."""
    shown = max(1, min(card.draw or 2, 4))
    wild: list[str | None] = ["B", "G", "R", "Y"]
    colors = [card.color] * shown if card.color else wild[:shown]
    w, h = size * 0.42, size * 0.6
    step = size * 0.16
    cx, cy = center
    x0 = cx - (w + step * (shown - 1)) / 2
    y0 = cy - (h - step * (shown - 1)) / 2
    for i, color in enumerate(colors):
        x, y = x0 + i * step, y0 - i * step
        _mini_card(canvas, (x, y, x + w, y + h), color, line)


def card_image(card: Card, height: int, *, dim: bool = False) -> Any:
    """The card alone (its rounded corners transparent), `height` px high, ASPECT wide."""
    from PIL import ImageDraw, ImageEnhance  # type: ignore[import-not-found,unused-ignore]

    Image = _image()
    h = height * SUPERSAMPLE
    w = round(height * ASPECT) * SUPERSAMPLE
    canvas = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(canvas)
    line = h * 0.008
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=h * 0.07, fill=(150, 150, 155, 255))  # seen on white too
    edge = round(line)
    draw.rounded_rectangle((edge, edge, w - 1 - edge, h - 1 - edge), radius=h * 0.066, fill=WHITE + (255,))
    m = round(h * 0.045)
    draw.rounded_rectangle((m, m, w - 1 - m, h - 1 - m), radius=h * 0.045, fill=FILL[card.color] + (255,))

    # The tilted oval: white, or the four colours on a wild (drawn as polygons:
    # rotating a picture of it costs more than the rest of the card).
    ra, rb = w * 0.36, h * 0.4
    tilt = math.radians(32)

    def on_oval(t: float) -> tuple[float, float]:
        x, y = ra * math.cos(t), rb * math.sin(t)
        return w / 2 + x * math.cos(tilt) - y * math.sin(tilt), h / 2 + x * math.sin(tilt) + y * math.cos(tilt)

    steps = 180
    if card.is_wild:  # a quarter each, red at the upper right, then blue, green, yellow clockwise
        for i, color in enumerate(("R", "B", "G", "Y")):
            arc = [on_oval(2 * math.pi * (k / steps + (i - 1) / 4)) for k in range(steps // 4 + 1)]
            draw.polygon([(w / 2, h / 2), *arc], fill=FILL[color] + (255,))
    else:
        draw.polygon([on_oval(2 * math.pi * k / steps) for k in range(steps)], fill=WHITE + (255,))

    parts = signs(card)
    underline = parts in (["6"], ["9"])
    center = (w / 2, h / 2)
    fill = WHITE if card.is_wild else FILL[card.color]
    big_line = h * 0.014
    if card.is_wild and not parts:  # the plain wild: its oval, each colour marked
        for i, color in enumerate(("R", "B", "G", "Y")):
            x, y = on_oval(2 * math.pi * (i - 0.5) / 4)
            at = (w / 2 + (x - w / 2) * 0.58, h / 2 + (y - h / 2) * 0.58)
            _paint(canvas, _mark_mask(color, round(h * 0.07)), at, WHITE, line)
    elif len(parts) == 1 and _DRAW_ONLY.fullmatch(parts[0]):
        _draw_stack(canvas, card, (w * 0.45, h * 0.43), w * 0.58, line * 1.2)
        label = _fit(_row_mask(parts, round(h * 0.22)), w * 0.56, h * 0.17)
        _paint(canvas, label, (w * 0.54, h * 0.6), WHITE if card.is_wild else fill, big_line)
    else:
        face = _fit(_row_mask(parts, round(h * 0.36), underline), w * 0.64, h * 0.34)
        _paint(canvas, face, center, fill, big_line)

    # The corners: the face small, the colour's mark under it; the lower corner upside down.
    corner = Image.new("RGBA", (round(w * 0.24), round(h * 0.25)), (0, 0, 0, 0))
    cw = corner.width
    if parts:
        index = _fit(_row_mask(parts, round(h * 0.1), underline), cw * 0.92, h * 0.1)
        _paint(corner, index, (cw / 2, h * 0.065), WHITE, line * 1.4)
    else:  # the plain wild: a small four-colour oval
        mini = Image.new("RGBA", (round(cw * 0.7), round(h * 0.09)), (0, 0, 0, 0))
        mdraw = ImageDraw.Draw(mini)
        mdraw.ellipse((0, 0, mini.width - 1, mini.height - 1), fill=WHITE + (255,))
        inset = line * 1.2
        for i, color in enumerate(("R", "B", "G", "Y")):
            mdraw.pieslice((inset, inset, mini.width - 1 - inset, mini.height - 1 - inset),
                           270 + 90 * i, 360 + 90 * i, fill=FILL[color] + (255,))
        corner.alpha_composite(mini, ((cw - mini.width) // 2, round(h * 0.02)))
    if card.color is not None:
        _paint(corner, _mark_mask(card.color, round(h * 0.065)), (cw / 2, h * 0.165), WHITE, line * 1.2)
    canvas.alpha_composite(corner, (m, m))
    canvas.alpha_composite(corner.transpose(Image.Transpose.ROTATE_180), (w - m - corner.width, h - m - corner.height))

    image = canvas.reduce(SUPERSAMPLE)
    if dim:
        alpha = image.getchannel("A")
        grey = ImageEnhance.Brightness(ImageEnhance.Color(image.convert("RGB")).enhance(0.12)).enhance(0.72)
        image = grey.convert("RGBA")
        image.putalpha(alpha)
    del draw
    return image


def sticker_image(card: Card, *, dim: bool = False) -> Any:
    """The card as a Telegram sticker: a STICKER x STICKER RGBA picture, the card
    in the middle (Telegram wants one side exactly 512 px; the rest transparent)."""
    Image = _image()
    image = Image.new("RGBA", (STICKER, STICKER), (0, 0, 0, 0))
    card_only = card_image(card, STICKER - 8, dim=dim)
    image.alpha_composite(card_only, ((STICKER - card_only.width) // 2, 4))
    return image


def contact_sheet(cards: list[Card], captions: list[str], title: str, *, height: int = 200,
                  columns: int = 10) -> Any:
    """Every card of `cards` in a grid, each with its caption, under `title`, with the
    colour-blind marks' legend and one card greyed as a hand shows a card not playable now."""
    from PIL import ImageDraw  # type: ignore[import-not-found,unused-ignore]

    Image = _image()
    cw, gap, text_h = round(height * ASPECT), 14, 26
    columns = max(1, min(columns, len(cards) + 1))
    rows = (len(cards) + 1 + columns - 1) // columns
    top = 96
    sheet = Image.new("RGB", (gap + columns * (cw + gap), top + rows * (height + text_h + gap) + gap), (238, 238, 240))
    draw = ImageDraw.Draw(sheet)
    draw.text((gap, 16), title, font=font(26), fill=INK)
    x = gap
    for color, word in zip(COLORS, ("red", "yellow", "green", "blue"), strict=True):
        mark = _fit(_mark_mask(color, 64), 24, 24)
        sheet.paste(FILL[color], (x, 58), mark)
        draw.text((x + 30, 58), f"{word}", font=font(20), fill=INK)
        x += 130
    draw.text((x + 10, 58), "(the colour-blind marks, under each corner index)", font=font(18), fill=(90, 90, 96))
    shown = [(card, caption, False) for card, caption in zip(cards, captions, strict=True)]
    if cards:
        shown.append((cards[0], f"{cards[0].text} not playable", True))
    for i, (card, caption, dim) in enumerate(shown):
        cx = gap + (i % columns) * (cw + gap)
        cy = top + (i // columns) * (height + text_h + gap)
        image = card_image(card, height, dim=dim)
        sheet.paste(image, (cx, cy), image)
        draw.text((cx + cw / 2, cy + height + 4), caption, font=font(17), fill=INK, anchor="ma")
    return sheet


# -- pictures a chat sends (Discord's status and hand) ---------------------------------------

#: How many card pictures are kept as PNG (about 4 KB each at a chat's height): every
#: card of every variant, plain and greyed, fits, so a busy bot stops drawing.
PNG_CACHE = 512
#: A hand picture's height per row, its cards' overlap step, and how many cards a row holds.
HAND_HEIGHT, HAND_STEP, HAND_ROW = 96, 42, 12


def png(image: Any) -> bytes:
    import io

    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


@functools.lru_cache(maxsize=PNG_CACHE)
def card_png(card: Card, height: int, dim: bool = False) -> bytes:
    """One card's picture as PNG bytes, drawn once per (card, height, greyed)
    (drawing costs about 12 ms; cards are interned, so the key is cheap)."""
    return png(card_image(card, height, dim=dim))


def hand_png(cards: list[tuple[Card, bool]], height: int = HAND_HEIGHT) -> bytes:
    """A hand in one picture: the cards overlapping left to right, `HAND_ROW`
    a row (a No Mercy hand of 40 takes four rows, never a cut), each
    `(card, playable)`; a card not playable now is greyed, as in the web table."""
    import io

    Image = _image()
    width = round(height * ASPECT)
    rows = [cards[i:i + HAND_ROW] for i in range(0, len(cards), HAND_ROW)] or [[]]
    longest = max(len(r) for r in rows)
    step = round(height * HAND_STEP / HAND_HEIGHT)
    gap = max(2, height // 16)
    sheet = Image.new("RGBA", (max(width + (longest - 1) * step, 1), len(rows) * (height + gap) - gap),
                      (0, 0, 0, 0))
    for r, row in enumerate(rows):
        for i, (card, playable) in enumerate(row):
            picture = Image.open(io.BytesIO(card_png(card, height, not playable)))
            sheet.alpha_composite(picture.convert("RGBA"), (i * step, r * (height + gap)))
    return png(sheet)
