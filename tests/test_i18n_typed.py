"""What players type, in every language: colour words and their short
forms, the short forms of the game's commands, `/top`'s periods and a
timer switched off, all read from the catalogues (core/chat/typed.py).

Why per language: each catalogue lists its own forms (`rojo, roja`, `j` for
jaune, `к` for красный, `Woche`), and a slip in one (two colours sharing a
short form, a form the grammar cannot read back) shows only there."""

from __future__ import annotations

import pytest

from unobot.cards import COLOR_NAMES, Card
from unobot.chat import commands as c
from unobot.chat import records_text, typed
from unobot.chat.grammar import SHORT, WORDS, command_word, numbered_hand, parse_hand
from unobot.chat.i18n import LANGUAGES, gettext_for
from unobot.chat.render import COLOR_WORDS

COLORS = ("R", "Y", "G", "B")


def colour_forms(lang: str, color: str) -> list[str]:
    """Every full form of a colour in `lang`: the name shown and the typed forms."""
    _ = gettext_for(lang)
    return [_(COLOR_WORDS[color]), *typed.forms(lang, typed.COLOR_FORMS[color])]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_colour_word_names_its_colour(lang: str) -> None:
    """Every form of each colour, alone, after a wild and after `colour`, is that colour."""
    hand = numbered_hand([Card.get(None, "+4"), Card.get("R", "5")])
    _ = gettext_for(lang)
    for color in COLORS:
        for form in colour_forms(lang, color):
            assert typed.color_of(form, lang) == color, (lang, color, form)
            got = parse_hand(f"W+4 {form}", hand, lang)
            assert got == c.Play(card="W+4", color=COLOR_NAMES[color]), (lang, form, got)
            named = parse_hand(f"{_(WORDS['color'])} {form}", hand, lang)
            assert named == c.NameColor(color=COLOR_NAMES[color]), (lang, form, named)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_short_colour_form_names_its_colour(lang: str) -> None:
    """The short forms are distinct between colours and read, in that
    language, after a wild (`W+4 j`) and before a rank (`j7`, `к+2`)."""
    shorts = {color: typed.forms(lang, typed.COLOR_SHORT[color]) for color in COLORS}
    assert all(shorts.values()), (lang, shorts)
    every = [form for forms in shorts.values() for form in forms]
    assert len(every) == len(set(every)), (lang, shorts)
    # a card's code (`G7`, shown on every screen) is never another colour's short form
    assert all(form not in "rygb" or form == color.lower() for color, forms in shorts.items() for form in forms)
    hand = numbered_hand([Card.get(None, "+4"), *(Card.get(col, "7") for col in COLORS),
                          *(Card.get(col, "+2") for col in COLORS)])
    for color, forms in shorts.items():
        for form in forms:
            assert typed.color_of(form, lang) == color, (lang, color, form)
            assert parse_hand(f"W+4 {form}", hand, lang) == c.Play(card="W+4", color=COLOR_NAMES[color])
            for rank in ("7", "+2"):
                got = parse_hand(f"{form}{rank}", hand, lang)
                assert got == c.Play(card=f"{color}{rank}"), (lang, form + rank, got)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_english_colours_are_read_in_every_language(lang: str) -> None:
    """`W+4 green` works for everyone (English is read after the reader's own words)."""
    hand = numbered_hand([Card.get(None, "+4")])
    for word in COLOR_NAMES.values():
        assert parse_hand(f"W+4 {word}", hand, lang) == c.Play(card="W+4", color=word), (lang, word)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_command_short_form_is_that_command(lang: str) -> None:
    """The short forms the help shows in `lang` (`d`, `r` in Spanish) are read
    as their commands, and so are the full words."""
    _ = gettext_for(lang)
    for table in (SHORT, WORDS):
        for name, text in table.items():
            assert command_word(_(text), lang) == name, (lang, name, _(text))
    assert parse_hand(_(SHORT["draw"]), [], lang) == c.Draw()
    assert parse_hand(_(SHORT["pass"]), [], lang) == c.Pass()
    assert parse_hand(_(SHORT["challenge"]), [], lang) == c.Challenge()
    assert parse_hand(_(SHORT["drawplay"]), [], lang) == c.Draw(then_play=True)
    assert parse_hand(f"{_(SHORT['catch'])} Ada", [], lang) == c.Catch(target="Ada")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_english_short_forms_are_read_unless_the_language_claims_them(lang: str) -> None:
    _ = gettext_for(lang)
    own = {typed.fold(_(text)) for table in (SHORT, WORDS) for text in table.values()}
    for name, text in SHORT.items():
        if text not in own:
            assert command_word(text, lang) == name, (lang, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_top_reads_the_period_words_of_every_language(lang: str) -> None:
    for period, message in typed.PERIODS.items():
        forms = typed.forms(lang, message)
        assert forms, (lang, period)
        for form in forms:
            assert records_text.period_of(form) == period, (lang, period, form)
            assert records_text.period_of(form.upper()) == period, (lang, period, form)
    assert records_text.period_of("") == "all"
    assert records_text.period_of("fortnight") is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_timer_is_switched_off_in_every_language(lang: str) -> None:
    forms = typed.forms(lang, typed.OFF)
    assert forms
    assert all(typed.is_off(form) for form in forms), (lang, forms)
    assert not typed.is_off("60")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_ai_level_is_named_in_every_language(lang: str) -> None:
    """`/ai 2 schwer`: each level's name as the language shows it is that level."""
    from unobot.chat.actions import LEVEL_NAMES

    _ = gettext_for(lang)
    for level in ("easy", "normal", "hard", "expert"):
        assert typed.level_of(_(LEVEL_NAMES[level])) == level, (lang, level, _(LEVEL_NAMES[level]))
        assert typed.level_of(level) == level
    assert typed.level_of("impossible") is None


def test_the_reader_s_language_comes_first() -> None:
    """`v` is verde (green) to a Spanish reader and vàng (yellow) to a
    Vietnamese one; `rot` is red to anyone."""
    assert typed.color_of("v", "es") == "G"
    assert typed.color_of("v", "vi") == "Y"
    assert typed.color_of("rot", "en") == typed.color_of("rot", "fr") == "R"
    hand = numbered_hand([Card.get("G", "5"), Card.get("Y", "5")])
    assert parse_hand("v5", hand, "es") == c.Play(card="G5")
    assert parse_hand("v5", hand, "vi") == c.Play(card="Y5")


@pytest.mark.parametrize(("line", "lang", "expected"), [
    ("W+4 grün", "de", c.Play(card="W+4", color="green")), ("j7", "fr", c.Play(card="Y7")),
    ("к+2", "ru", c.Play(card="R+2")), ("红5", "zh_CN", c.Play(card="R5")),
    ("3 xanh lá", "vi", c.Play(card="W", color="green")), ("piocher", "fr", c.Draw()), ("r", "es", c.Draw()),
])
def test_the_readme_examples_read_as_it_says(line: str, lang: str, expected: c.Command) -> None:
    hand = numbered_hand([Card.get("R", "5"), Card.get("Y", "7"), Card.get(None, "")])
    if line.startswith(("W+4", "к")):
        hand = numbered_hand([*hand, Card.get("R", "+2"), Card.get(None, "+4")])
    assert hand[2].text == "W" or not line.startswith("3")  # `3 xanh lá`: card 3 is the wild
    assert parse_hand(line, hand, lang) == expected
