"""French and Catalan elide "de" (and French "que") before a vowel: "d'Alan",
"qu'Ana". A name put into "de {player}" gave "de Alan", wrong to any reader.

The gettext way, which these catalogues follow: the translation is worded
so that no elidable word stands before a placeholder that holds a name, a
variant or a rule title ("joué par {other}", "Bilan — {player}", "Options :
{rule}"), rather than code guessing at a name's first sound. This keeps
every catalogue so.
"""

from __future__ import annotations

import re

import pytest

from unobot.chat.i18n import translations

NAMES = r"\{(player|other|name|variant|rule|players|winner|creator|names|who|person|seat)\}"
ELIDED = {
    "fr": re.compile(r"\b(de|que|le|la|ce|ne|jusque|lorsque|puisque|si) " + NAMES),
    "ca": re.compile(r"\b(de|la|el) " + NAMES),
}


@pytest.mark.parametrize("lang", sorted(ELIDED))
def test_no_elidable_word_stands_before_a_name(lang: str) -> None:
    catalogue = translations(lang)._catalog  # type: ignore[attr-defined]
    wrong = [text for text in catalogue.values() if isinstance(text, str) and ELIDED[lang].search(text)]
    assert not wrong, wrong


def test_the_french_challenge_line_reads_with_a_vowel_name() -> None:
    from unobot.chat.i18n import gettext_for

    line = gettext_for("fr")("{player} challenged {other}'s Wild Draw Four and lost.").format(
        player="Bea", other="Alan")
    assert line == "Bea a contesté le Joker +4 joué par Alan et a perdu."
