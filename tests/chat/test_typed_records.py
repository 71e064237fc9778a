"""The records commands as typed words (`answers.typed_reading`), in the reader's language.

Before, only the English names were read: a Spanish console player had
`robar` and `historial` but no word of theirs for the standings.
"""

from __future__ import annotations

from unobot.chat.answers import typed_reading


def test_the_readers_words_and_the_english_names_are_read() -> None:
    assert typed_reading("clasificación mes", "es") == ("top", "mes")
    assert typed_reading("CLASIFICACION", "es") == ("top", None)  # any case, accents or not
    assert typed_reading("/top week", "es") == ("top", "week")  # the chats' names, everywhere
    assert typed_reading("yo", "es") == ("me", None) and typed_reading("ich", "de") == ("me", None)
    assert typed_reading("última", "es") == ("last", None)
    assert typed_reading("olvídame sí", "es") == ("forgetme", "sí")
    assert typed_reading("xếp hạng tháng", "vi") == ("top", "tháng")  # a word of two words
    assert typed_reading("vergissmich ja", "de") == ("forgetme", "ja")


def test_another_languages_short_word_is_not_read() -> None:
    """Polish `ja` is "me"; to a German it is yes (to "Play again?")."""
    assert typed_reading("ja", "pl") == ("me", None)
    assert typed_reading("ja", "de") is None
    assert typed_reading("yo", "en") is None and typed_reading("robar", "es") is None
