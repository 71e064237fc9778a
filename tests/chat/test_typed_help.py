"""The typed grammar's help (`typed_help`) shows the words the grammar reads."""

from __future__ import annotations

import pytest

from unobot.chat import answers, grammar, typed
from unobot.chat.i18n import LANGUAGES
from unobot.chat.typed_help import move_rows, records_rows, top_usage


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_command_word_shown_is_read_as_that_command(lang: str) -> None:
    """`draw · d` (`robar · r`): each form shown reads as the same command."""
    seen = set()
    for word, what in move_rows(lang):
        forms = [w.strip() for w in word.split("·")]
        named = grammar.command_word(forms[0], lang)
        if named in ("draw", "pass", "challenge"):
            seen.add(named)
            assert all(grammar.command_word(f, lang) == named for f in forms), (lang, forms)
        assert what
    assert seen == {"draw", "pass", "challenge"}


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_the_records_rows_name_what_is_read(lang: str) -> None:
    rows = records_rows(lang)
    assert [answers.typed_reading(word.split(" [")[0]) for word, _what in rows] == \
        [(name, None) for name in answers.RECORDS]
    periods = top_usage(lang).removeprefix("top [").removesuffix("]").split("|")
    assert [typed.period_of(p) for p in periods] == ["week", "month", "all"]
