"""The privacy check the chat adapters' end-to-end drivers share: does a
public message name a card only a hand holds?"""

from __future__ import annotations

import re

from unobot.cards import Card
from unobot.chat.render import card_name


def mentions(text: str, card: Card) -> bool:
    """Does a text name this card (short form, English or Spanish name)?"""
    for word in (card.text, card_name(card, "en"), card_name(card, "es")):
        pattern = r"(?<![A-Za-z0-9+])" + re.escape(word) + r"(?![A-Za-z0-9+])"
        if word in ("Wild", "Comodín"):
            pattern += r"(?! Draw| \+)"
        if re.search(pattern, text):
            return True
    return False
