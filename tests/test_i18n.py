"""Translations: complete English and Spanish catalogues, placeholders kept,
and every marked string in the source is in the catalogues."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from unobot.chat.i18n import LANGUAGES, LOCALE_DIR, gettext_for, normalize

PLACEHOLDER = re.compile(r"\{[a-z_]*\}")


def catalog(lang: str):  # type: ignore[no-untyped-def]
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "unobot.po").open("rb") as f:
        return read_po(f, locale=lang)


def strings(message) -> list[str]:  # type: ignore[no-untyped-def]
    return list(message.string) if isinstance(message.string, (tuple, list)) else [message.string]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_is_complete_and_keeps_placeholders(lang: str) -> None:
    missing, broken = [], []
    for message in catalog(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        for text in strings(message):
            if not text:
                missing.append(ids[0])
            elif set(PLACEHOLDER.findall(text)) - set(PLACEHOLDER.findall(" ".join(ids))):
                broken.append((ids[0], text))
    assert not missing, f"{lang}: {len(missing)} untranslated, e.g. {missing[:5]}"
    assert not broken, f"{lang}: placeholders changed: {broken[:5]}"


def test_every_marked_string_is_in_the_catalogue() -> None:
    from babel.messages.extract import extract_from_dir

    root = Path(__file__).resolve().parent.parent
    known = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog("es") if m.id}
    absent = []
    for source in ("core", "adapters", "plugins"):
        for _f, _l, message, _c, context in extract_from_dir(
            root / source, method_map=[("**.py", "python")],
            keywords={"_": None, "N_": None, "ngettext": (1, 2), "NC_": ((1, "c"), 2)},
        ):
            text = message if isinstance(message, str) else message[0]
            if (text, context) not in known:
                absent.append(text)
    assert not absent, f"run `python -m unobot.chat.catalogue extract`: not in the catalogue: {absent[:5]}"


def test_no_string_is_translated_without_being_marked() -> None:
    """`gettext_for(lang)("text")` translates at run time but hides the text
    from extraction, so it is never in a catalogue: bind `_` first."""
    root = Path(__file__).resolve().parent.parent
    hidden = [f"{path.relative_to(root)}:{n}"
              for source in ("core", "adapters", "plugins") for path in (root / source).rglob("*.py")
              for n, line in enumerate(path.read_text().splitlines(), 1)
              if re.search(r"gettext_for\([^()]*\)\(\s*[\"']", line)]
    assert not hidden, f"bind `_ = gettext_for(lang)` and call `_(...)`: {hidden}"


def test_spanish_is_spanish() -> None:
    _ = gettext_for("es")
    assert _("It is not your turn.") != "It is not your turn."
    assert _("red") == "rojo"
    assert normalize("es-MX") == "es" and normalize("tlh") == "en" and normalize(None) == "en"


# -- every catalogue complete and sound (issue 26) ---------------------------------------

def test_every_catalogue_is_complete_and_sound() -> None:
    """No entry missing, fuzzy or empty in any language; the same {fields} as
    the English; as many plural forms as the language has (and the header says so)."""
    from unobot.chat.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
    from unobot.chat.i18n_check import check_folder

    reports = check_folder(LOCALE_DIR, DOMAIN)
    assert [r.lang for r in reports] == list(LANGUAGES)
    plugin = Path(__file__).resolve().parent / "example_plugin" / "unobot_example_rule" / "locale"
    reports += check_folder(plugin, "unobot_example_rule") + check_folder(plugin, "unobot_example_cheer")
    bad = {f"{r.path}": (r.missing[:3], r.fuzzy[:3], r.fields[:3], r.plurals[:3], r.header) for r in reports if not r.ok}
    assert not bad, bad


def test_the_check_finds_each_fault(tmp_path: Path) -> None:
    from unobot.chat.i18n_check import check_po

    po = tmp_path / "ru.po"
    po.write_text('''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "{player} drew a card."
msgstr "{игрок} взял карту."

msgid "Pass"
msgstr ""

msgid "invalid %(type)s value: %(value)r"
msgstr "неверное значение: %(value)r"

#, fuzzy
msgid "Draw"
msgstr "Взять"

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n} карта"
msgstr[1] "{n} карты"
''', encoding="utf-8")
    report = check_po(po, "ru")
    assert report.fields == ["{player} drew a card.", "invalid %(type)s value: %(value)r"]
    assert report.missing == ["Pass"] and report.fuzzy == ["Draw"]
    assert report.plurals == ["{n} card"]  # Russian has three forms (and more in CLDR's count)
    assert "ru has" in report.header and not report.ok
    # the report's line counts in English words: one fault, two faults
    assert "2 placeholder faults" in report.line() and "1 plural-form fault;" in report.line(), report.line()
    merged = check_po(po, "ru", template={("{player} drew a card.", None), ("Pass", None), ("A text added since", None),
                                          ("Pass", "typed")})
    assert "A text added since" in merged.missing  # never merged in: missing all the same
    assert "typed|Pass" in merged.missing  # an entry with a context is its own entry


def test_a_term_the_glossary_translates_is_not_left_in_english(tmp_path: Path) -> None:
    from unobot.chat.i18n_check import check_po, glossary_terms

    glossary = tmp_path / "de.md"
    glossary.write_text("| English | de |\n|---|---|\n| Skip | Aussetzen (Ereignis: „muss aussetzen“) |\n"
                        "| red / blue | Rot / Blau |\n| lobby | Lobby |\n| UNO | UNO |\n", encoding="utf-8")
    terms = glossary_terms(glossary)
    assert terms == {"skip": "Aussetzen", "red": "Rot", "blue": "Blau", "lobby": "Lobby", "uno": "UNO"}
    po = tmp_path / "de.po"
    po.write_text('''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Skip"
msgstr "Skip"

msgid "red"
msgstr "rot"

msgid "UNO"
msgstr "UNO"

msgid "Lobby"
msgstr "Lobby"
''', encoding="utf-8")
    report = check_po(po, "de", glossary=terms)
    assert report.english == ["Skip"] and not report.ok  # UNO and Lobby are the same words in German


def test_every_glossary_names_its_terms() -> None:
    """The glossary check is not empty: each locale's glossary lines up its terms."""
    from unobot.chat.i18n_check import glossary_terms

    root = Path(__file__).resolve().parent.parent / "docs" / "glossary"
    found = sorted(root.glob("*.md"))
    assert len(found) == 15
    for path in found:
        terms = glossary_terms(path)
        assert len(terms) >= 25 and {"red", "skip", "reverse"} <= set(terms), (path.name, sorted(terms))


def test_platform_language_codes_find_their_catalogue() -> None:
    from unobot.chat.i18n import known

    assert known("es-MX") == "es" and known("ES") == "es" and known("es_ES") == "es"
    assert known("xx") is None and known(None) is None and known("") is None
    # Java's and older Android's legacy code for Indonesian (`in_ID`); Chinese scripts with a region
    assert known("in") == "id" and known("in_ID") == "id" and known("zh-Hant-TW") == "zh_TW"


def test_titles_of_rules_and_variants_come_from_the_catalogue() -> None:
    """A rule's or variant's title in a language its data does not name is its
    English title through the catalogue (so a language added as a catalogue
    translates them with no edit of the rule)."""
    from unobot.chat.catalogue import data_texts
    from unobot.chat.i18n import gettext_for
    from unobot.rule import Rule
    from unobot.variants import load_variant

    texts = {text for text, _where, _known in data_texts()}
    assert {"Stacking draw cards", load_variant("official").title["en"]} <= texts

    class OnlyEnglish(Rule):
        name = "only-english"
        title = {"en": "Draw a card"}  # a text unobot's catalogue has

    OnlyEnglish.__module__ = "unobot.plugins.only_english"
    assert OnlyEnglish.label("es") == gettext_for("es")("Draw a card") != "Draw a card"
    official = load_variant("official")
    assert official.label("es") == official.title["es"]
    official_en_only = type(official)(official.name, official.source, {"en": official.title["en"]})
    assert official_en_only.label("es") == official.title["es"]  # seeded from the file, in the catalogue


def test_the_help_names_seven_o_as_the_rule_is_called_in_each_language() -> None:
    """The console help's "play a card that targets a player (seven-o: swap
    hands)" kept the English "seven-o" in es, ca, de, fr, it and pt_BR, where
    the rule is Siete-Cero, Set-Zero, Sieben-Null ... (its title, and the
    glossaries' term)."""
    from unobot.chat.i18n import LANGUAGES, gettext_for
    from unobot.registry import available_rules

    rule = available_rules()["seven-o"]
    for lang in LANGUAGES:
        name = rule.label(lang).split(" (")[0].split("（")[0]
        text = gettext_for(lang)("play a card that targets a player (seven-o: swap hands)")
        assert name.lower() in text.lower(), (lang, name, text)


def test_the_rating_has_one_name_in_each_language() -> None:
    """/top and /me name each player's rating by one word, and the help of
    the records commands must use it: Spanish said "nivel 3.3" (the word
    for an AI's level, shown beside it: "Alan (IA) · normal") where the
    help promised a "puntuación" (the word for a round's score)."""
    from unobot.chat.i18n import LANGUAGES, gettext_for

    for lang in LANGUAGES:
        _ = gettext_for(lang)
        line = _("{where}: {wins} won of {games}, {points} points, rating {rating}")
        word = re.split(r"[\s，,、]+", line.split("{rating}")[0].rstrip(" :："))[-1].removeprefix("ال")
        for helped in ("your record and rating wherever you finished a match",
                       "Your record and rating wherever you played"):
            assert word.lower() in _(helped).lower(), (lang, word, _(helped))
        assert _("{rank}. {player}: {wins} won of {games}, {points} points, rating {rating}").endswith(
            line.split("{points}")[1]), lang
