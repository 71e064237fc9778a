"""Which cards the shipped variants deal: every card of every deck, and how
many of each a variant's deck holds.

Why in core: a deck is built by the variant's rule set (`build_deck` and
every rule's `more_cards`: No Mercy's R+4, W+6, W+10 exist only there), so
which cards need a picture (Telegram's stickers, the web table's images,
the docs' contact sheets) is the rules' knowledge, not a front-end's.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .cards import COLORS, KINDS, Card, load_installed_rules, official_deck

#: Player counts the decks are built for (a rule may build a bigger deck for more players).
DECK_PLAYERS = (2, 4, 10)


def deck_of(rules: Any, players: int) -> list[Card]:
    """A round's deck for `players` under `rules`: `build_deck` and every `more_cards`."""
    cards = list(rules.build_deck(players))
    for extra in rules.more_cards(players):
        cards += extra
    return cards


def deck_cards() -> list[Card]:
    """Every card of every variant's deck the bot knows, at every player
    count of `DECK_PLAYERS`. A variant that cannot be loaded is passed over."""
    from .variants import VariantError, rules_for, variant_names

    cards: list[Card] = []
    for name in variant_names():
        try:
            rules = rules_for(name)
        except (VariantError, OSError, UnicodeDecodeError):
            continue
        for players in DECK_PLAYERS:
            cards += deck_of(rules, players)
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


def variant_decks() -> dict[str, Counter[str]]:
    """Each shipped variant's cards (those of `variants/`, not a plugin's) and how
    many of each a 4-player deck holds (a card only a bigger or smaller deck
    holds counts 0)."""
    from .variants import VARIANTS_DIR, VariantError, rules_for

    decks: dict[str, Counter[str]] = {}
    for name in sorted(path.stem for path in VARIANTS_DIR.glob("*.yaml")):
        try:
            rules = rules_for(name)
        except (VariantError, OSError, UnicodeDecodeError):
            continue
        counts = Counter(card.text for card in deck_of(rules, 4))
        for players in DECK_PLAYERS:
            for card in deck_of(rules, players):
                counts.setdefault(card.text, 0)
        decks[name] = counts
    return decks
