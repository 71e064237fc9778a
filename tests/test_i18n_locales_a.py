"""Brazilian Portuguese, German, French, Italian and Catalan, played: a whole
console match in each reads without English left over, and every card of the
official and No Mercy decks can be typed by its name in that language.

Why a match and not only the catalogue check: the check proves every entry is
translated, not that the texts a player reads go through the catalogue, nor
that the card names a translation gives can be read back by the grammar."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from unobot.cards import Card
from unobot.chat.grammar import numbered_hand, parse_hand
from unobot.chat.i18n import LANGUAGES
from unobot.chat.render import card_name
from unobot.variants import rules_for

from .console.helpers import ROOT, env

#: The languages of this file (each one's console match is played).
LANGS = ("pt_BR", "de", "fr", "it", "ca")

#: Distinctive English words of a console match (each appears in the English
#: run below, so the test proves it looks for words that are really there).
ENGLISH = ("played", "drew", "Round", "round", "wins", "Draw", "Wild", "Skip", "Reverse", "skipped",
           "challenged", "takes", "chose", "must draw", "direction", "begins", "first card", "demo game",
           "out of cards", "Scores", "Player", "Points", "Cards left", "Green", "Blue", "Red", "Yellow",
           "match", "After")
#: English words that are the same word in a language (allowed there).
SAME = {"fr": {"Points", "Scores"}}
SEED, VARIANT = "3", "official"


def match(lang: str, variant: str = VARIANT) -> str:
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "play", "--auto", "--lang", lang, "--rounds", "1",
                           "--seed", SEED, "--players", "3", "--delay", "0", "--store", "memory",
                           "--variant", variant],
                          cwd=ROOT, env=env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (lang, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done.stdout


def english_words(text: str, lang: str) -> set[str]:
    return {w for w in ENGLISH if w not in SAME.get(lang, set()) and re.search(rf"\b{re.escape(w)}\b", text)}


def test_the_english_words_are_there_in_english() -> None:
    assert english_words(match("en"), "en") == set(ENGLISH)


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_match_reads_without_english(lang: str) -> None:
    assert lang in LANGUAGES
    for variant in (VARIANT, "no-mercy"):
        text = match(lang, variant)
        assert not english_words(text, lang), (lang, variant, english_words(text, lang), text)


def deck(variant: str) -> list[Card]:
    rules = rules_for(variant)
    cards = list(rules.build_deck(4))
    for extra in rules.more_cards(4):
        cards += extra
    return cards


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", ["official", "no-mercy"])
def test_every_card_reads_back_by_its_name(lang: str, variant: str) -> None:
    """Holding the whole deck (any second reading of a name would be held
    too), each card's name in `lang` reads back as that card."""
    assert lang in LANGUAGES
    cards = numbered_hand(deck(variant))
    failures = []
    for card in cards:
        name = card_name(card, lang)
        got = parse_hand(name, cards, lang, set(cards))
        if getattr(got, "card", None) != card.text:
            failures.append((card.text, name, got))
    assert not failures, failures[:10]


@pytest.mark.parametrize("lang", LANGS)
def test_the_translated_command_words_are_read(lang: str) -> None:
    """The words the help shows in `lang` (`piocher`, `ziehen`, `aiuto` ...)
    are the commands they name, and a card name after `play` is that card."""
    from unobot.adapters.console.input import WORDS, command_word
    from unobot.chat.i18n import gettext_for

    _ = gettext_for(lang)
    for name, word in WORDS.items():
        assert command_word(_(word), lang) == name, (lang, word, _(word))
    hand = [Card.get("R", "5"), Card.get("G", "+2")]
    play = f"{_(WORDS['play'])} {card_name(hand[1], lang)}"
    assert getattr(parse_hand(play, hand, lang), "card", None) == "G+2", play
