"""`unobot cards`: the card pictures, to look at and for the docs.

`--out DIR` writes one PNG per card kind, plugin cards included, as the
Telegram stickers show them (512x512); `--sheets DIR` writes one contact
sheet per shipped variant (`docs/cards/<variant>.png`: every card of its
deck, with how many a 4-player deck holds). The drawing is
`adapters/card_art.py` (shared by the stickers and the web table); which
cards exist is core's `unobot.decks`. Pillow is optional for the bot:
`pip install unobot[cards]`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from unobot.chat.i18n import N_


def write_sheets(out: Path) -> list[Path]:
    """One contact sheet per shipped variant: every card of its deck, with how many
    it holds (kept in docs/cards; a palette PNG: a tenth of the size, no visible loss)."""
    from unobot.adapters.card_art import contact_sheet
    from unobot.cards import parse_card, sort_key
    from unobot.decks import variant_decks
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
    from unobot.adapters.card_art import sticker_image
    from unobot.decks import card_kinds

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for card in card_kinds():
        name = card.text.replace("+", "plus")
        path = out / f"{name}{'-dim' if dim else ''}.png"
        sticker_image(card, dim=dim).save(path)
        written.append(path)
    return written


def register(subparsers: Any) -> None:
    """The `cards` command. Why the drawing and the decks are imported only when it
    runs: every `unobot --help` (and every other command's parser) calls this, and
    they cost about as much as the rest of the help (issue 13: under 0.2 s)."""
    p = subparsers.add_parser("cards", help=N_("write a picture of every card kind (PNG, 512x512)"),
                              description=N_("Write a picture of every card kind, plugin cards included."))
    p.add_argument("--out", metavar="DIR", help=N_("folder to write the PNG files to"))
    p.add_argument("--dim", action="store_true", help=N_("also write the greyed-out versions"))
    p.add_argument("--sheets", metavar="DIR", help=N_("write a contact sheet per variant (docs/cards)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from unobot.chat.i18n import gettext_for, ngettext_for
    from unobot.cli_text import os_problem, reader_of

    lang = reader_of(sys.argv[1:])  # the reader's locale, else English
    _, ngettext = gettext_for(lang), ngettext_for(lang)
    try:
        import PIL  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        print(_("error:"), _("drawing cards needs Pillow: pip install 'unobot[cards]'"), file=sys.stderr)
        return 2
    if not args.out and not args.sheets:
        print(_("error:"), _("say where: --out DIR (a picture per card) and/or --sheets DIR (a sheet per variant)"),
              file=sys.stderr)
        return 2
    # A folder that cannot be made or written (a file of that name, no permission, a full
    # disk): said in the reader's words with the system's reason, not a traceback.
    folder = args.out
    try:
        if args.out:
            written = write_cards(Path(args.out))
            if args.dim:
                written += write_cards(Path(args.out), dim=True)
            print(ngettext("{n} card picture in {folder}", "{n} card pictures in {folder}", len(written)).format(
                n=len(written), folder=args.out))
        folder = args.sheets
        if args.sheets:
            sheets = write_sheets(Path(args.sheets))
            print(ngettext("{n} contact sheet in {folder}", "{n} contact sheets in {folder}", len(sheets)).format(
                n=len(sheets), folder=args.sheets))
    except OSError as exc:
        problem = os_problem(exc).text(lang)
        print(_("error:"), _("cannot write the pictures to {folder}: {problem}").format(
            folder=exc.filename or folder, problem=problem), file=sys.stderr)
        return 1
    return 0
