"""Cards as pictures: which cards need one, and `unobot cards` that writes them.

The drawing is `adapters/card_art.py`, shared with the web table: symbols
for the action cards (⊘ skip, ⇄ reverse, a stack of cards under +2 / +4),
the face small in two corners with the colour's colour-blind mark (▲ red,
● yellow, ✚ green, ◆ blue) under it, no letter of any language. This module
says which cards are drawn (`card_kinds`: every card of every variant's
deck, and every registered kind) and draws them for Telegram
(`render_card`: a 512x512 sticker, the card in the middle).

`unobot cards --out DIR` writes one PNG per card kind (512x512, a
sticker's size) so they can be looked at; `--sheets DIR` writes one
contact sheet per variant (`docs/cards/<variant>.png`). Pillow is
optional for the bot: `pip install unobot[cards]`.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from unobot.cards import COLORS, KINDS, Card, load_installed_rules, official_deck

SIZE = 512


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


def render_card(card: Card, *, dim: bool = False) -> Any:
    """The card's sticker: a 512x512 RGBA image (transparent around the card)."""
    from unobot.adapters.card_art import sticker_image

    return sticker_image(card, dim=dim)


def _deck(rules: Any, players: int) -> list[Card]:
    """A round's deck for `players` under `rules`: `build_deck` and every `more_cards`."""
    cards = list(rules.build_deck(players))
    for extra in rules.more_cards(players):
        cards += extra
    return cards


def variant_decks() -> dict[str, Counter[str]]:
    """Each shipped variant's cards (those of `variants/`, not a plugin's) and how
    many of each a 4-player deck holds (with the cards a rule adds only to its
    deck; a card only a bigger or smaller deck holds counts 0)."""
    from unobot.variants import VARIANTS_DIR, VariantError, rules_for

    decks: dict[str, Counter[str]] = {}
    for name in sorted(path.stem for path in VARIANTS_DIR.glob("*.yaml")):
        try:
            rules = rules_for(name)
        except (VariantError, OSError, UnicodeDecodeError):
            continue
        counts = Counter(card.text for card in _deck(rules, 4))
        for players in DECK_PLAYERS:
            for card in _deck(rules, players):
                counts.setdefault(card.text, 0)  # only in a bigger (or smaller) deck
        decks[name] = counts
    return decks


def write_sheets(out: Path) -> list[Path]:
    """One contact sheet per shipped variant: every card of its deck, with how many
    it holds (kept in docs/cards; a palette PNG: a tenth of the size, no visible loss)."""
    from unobot.adapters.card_art import contact_sheet
    from unobot.cards import parse_card, sort_key
    from unobot.variants import load_variant

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, counts in variant_decks().items():
        cards = sorted((parse_card(text) for text in counts), key=sort_key)
        captions = [f"{card.text} ×{counts[card.text]}" if counts[card.text] else f"{card.text} (more players)"
                    for card in cards]
        title = f"{name}: {load_variant(name).label('en')} ({len(cards)} cards, {sum(counts.values())} in a 4-player deck)"
        path = out / f"{name}.png"
        contact_sheet(cards, captions, title).quantize(256).save(path, optimize=True)
        written.append(path)
    return written


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
    p.add_argument("--out", metavar="DIR", help="folder to write the PNG files to")
    p.add_argument("--dim", action="store_true", help="also write the greyed-out versions")
    p.add_argument("--sheets", metavar="DIR", help="write a contact sheet per variant (docs/cards)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import PIL  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        print("error: drawing cards needs Pillow: pip install 'unobot[cards]'", file=sys.stderr)
        return 2
    if not args.out and not args.sheets:
        print("error: say where: --out DIR (a picture per card) and/or --sheets DIR (a sheet per variant)",
              file=sys.stderr)
        return 2
    if args.out:
        written = write_cards(Path(args.out))
        if args.dim:
            written += write_cards(Path(args.out), dim=True)
        print(f"{len(written)} card pictures in {args.out}")
    if args.sheets:
        sheets = write_sheets(Path(args.sheets))
        print(f"{len(sheets)} contact sheets in {args.sheets}")
    return 0
