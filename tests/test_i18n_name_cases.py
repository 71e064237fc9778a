"""A player's name cannot be declined: in Polish, Russian and Ukrainian a
name right after a preposition that governs a case ("z {other}", "с {other}")
reads wrong for nearly every name ("z Ada" for "z Adą"). Such a sentence is
said another way (the two as the subject: "{player} i {other} zamieniają się
rękami"), or with a noun that takes the case ("na gracza {other}")."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from unobot.chat.i18n import LOCALE_DIR, Msg

#: Prepositions that govern a case other than the nominative, as separate words.
PREPOSITIONS = {"pl": {"z", "ze", "od", "do", "dla", "u", "przez"},
                "ru": {"с", "со", "у", "к", "ко", "от", "для", "до", "без"},
                "uk": {"з", "із", "зі", "у", "в", "до", "від", "для", "без"}}
NAMES = re.compile(r"(\S+) \{(player|other|target|victim|catcher|name|winner)\}")


@pytest.mark.parametrize("lang", sorted(PREPOSITIONS))
def test_no_name_follows_a_preposition_that_needs_a_case(lang: str) -> None:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "unobot.po", "rb") as f:
        catalog = read_po(f)
    wrong = []
    for message in catalog:
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        for text in forms:
            for word, _field in NAMES.findall(text or ""):
                if word.lower() in PREPOSITIONS[lang]:
                    wrong.append(text)
    assert not wrong, wrong


def test_a_swap_of_hands_reads_right_with_any_name() -> None:
    swap = "{player} swapped hands with {other}."
    assert Msg(swap, player="Ola", other="Ada").text("pl") == "Ola i Ada zamieniają się rękami."
    assert Msg(swap, player="Оля", other="Ада").text("ru") == "Оля и Ада поменялись руками."
