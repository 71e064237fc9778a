"""The Chinese (Simplified, Traditional), Vietnamese, Hindi and Arabic
catalogues in use: a whole console match read in each language shows no
English UI word left over, and every card of the official and No Mercy decks,
typed by its name in that language, reads back as that card.

Why a whole match and not the catalogue alone: `unobot i18n check` proves
every entry is translated, not that the console takes every text it shows
from the catalogue, nor that a translated card name is one the grammar reads.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from unobot.chat.grammar import numbered_hand, parse_hand
from unobot.chat.i18n import LANGUAGES, gettext_for
from unobot.chat.render import card_name
from unobot.variants import rules_for

from .console.helpers import ROOT, env

#: Distinctive words of the English console (from the English catalogue): the
#: event lines, the score table, the card names and colours. Player names
#: (Ada, Alan, Grace), card codes (W+4) and "UNO" are the same in every language.
ENGLISH = ("played", "drew", "draws", "takes", "Your move", "Round", "round", "wins", "match", "colour",
           "color", "Draw", "Wild", "Skip", "Reverse", "Red", "Green", "Blue", "Yellow", "red", "green",
           "blue", "yellow", "Player", "Points", "Cards left", "Final scores", "Scores", "begins",
           "first card", "chose", "passes", "skipped", "direction", "demo game", "challenged", "caught",
           "joined", "out of cards", "hand", "After")

LOCALES = ("zh_CN", "zh_TW", "vi", "hi", "ar")


def shipped(code: str) -> bool:
    return code in LANGUAGES


def params(codes: tuple[str, ...]) -> list[object]:
    """The codes whose catalogue has landed (each lands on its own)."""
    return [pytest.param(code, id=code) for code in codes if shipped(code)]


def english_left(text: str) -> list[str]:
    return [word for word in ENGLISH if re.search(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", text)]


def test_the_english_word_list_catches_english() -> None:
    """The list would catch an untranslated match (so an empty finding means something)."""
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "play", "--auto", "--store", "memory", "--seed", "3",
                           "--rounds", "1", "--players", "3", "--delay", "0", "--lang", "en"],
                          cwd=ROOT, env=env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(english_left(done.stdout)) >= 10


@pytest.mark.parametrize("code", params(LOCALES))
def test_a_whole_console_match_shows_no_english(code: str) -> None:
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "play", "--auto", "--store", "memory", "--seed", "3",
                           "--rounds", "1", "--players", "3", "--delay", "0", "--lang", code],
                          cwd=ROOT, env=env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    _ = gettext_for(code)
    assert _("Round {n} begins.").format(n=1) in done.stdout
    assert _("Final scores") in done.stdout or _("Scores after round {n}").format(n=1) in done.stdout
    assert english_left(done.stdout) == [], done.stdout


def deck(variant: str) -> list:  # type: ignore[type-arg]
    rules = rules_for(variant)
    cards = list(rules.build_deck(4))
    for extra in rules.more_cards(4):
        cards += extra
    return numbered_hand(cards)


@pytest.mark.parametrize("variant", ["official", "no-mercy"])
@pytest.mark.parametrize("code", params(LOCALES))
def test_every_card_typed_by_its_name_reads_back(code: str, variant: str) -> None:
    """Holding the whole deck (any second reading of a name would be held too)."""
    cards = deck(variant)
    in_deck = set(cards)
    failures = []
    for card in cards:
        name = card_name(card, code)
        got = parse_hand(name, cards, code, in_deck)
        if getattr(got, "card", None) != card.text or getattr(got, "color", None) is not None:
            failures.append((card.text, name, got))
    assert not failures, failures[:10]
    names = {card_name(card, code) for card in cards}
    assert english_left(" · ".join(sorted(names))) == [], names
