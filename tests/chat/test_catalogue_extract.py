"""`unobot i18n extract` on a plugin's package catalogues its options' texts.

docs/plugins.md step 4 promises that extraction takes "every `option(help=...,
title=..., words=...)`" with the rule's other texts; before, they were read
only when unobot's own extraction passed its data texts (`extra`), so a
plugin's option help never reached its catalogue and stayed English. Nor
were its rules' and variants' titles, which `Rule.label` translates through
the same catalogue: re-extracting dropped their translations.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from unobot.cli import cmd_i18n

RULE = '''
from unobot import N_, Rule, dataclass, option


class Big(Rule):
    """Deal more cards."""

    name = "big"
    title = {"en": "Big hands", "es": "Manos grandes"}
    move_kinds = {"shout": N_("Shout at the table")}

    @dataclass(frozen=True)
    class Options:
        cards: int = option(10, min=3, max=15, help="cards dealt to each player", title="Cards dealt")
        who: str = option("dealer", help="who deals", words={"dealer": "the dealer"})
'''


def test_a_plugins_option_texts_are_extracted_with_its_other_texts(tmp_path: Path) -> None:
    package = tmp_path / "unobot_big"
    package.mkdir()
    (package / "__init__.py").write_text(RULE, encoding="utf-8")
    args = argparse.Namespace(action="extract", package=str(package), domain=None, lang=["en", "es"],
                              verbose=False)
    assert cmd_i18n(args) == 0
    pot = (package / "locale" / "unobot_big.pot").read_text(encoding="utf-8")
    es = (package / "locale" / "es" / "LC_MESSAGES" / "unobot_big.po").read_text(encoding="utf-8")
    for text in ("Shout at the table", "cards dealt to each player", "Cards dealt", "who deals", "the dealer"):
        assert f'msgid "{text}"' in pot, text
        assert f'msgid "{text}"' in es, text


def test_a_plugins_titles_are_extracted_and_seeded_with_their_translations(tmp_path: Path) -> None:
    package = tmp_path / "unobot_big"
    (package / "variants").mkdir(parents=True)
    (package / "__init__.py").write_text(RULE, encoding="utf-8")
    (package / "variants" / "big-party.yaml").write_text(
        "name: big-party\ntitle: {en: Big party, es: Gran fiesta}\nextends: official\n", encoding="utf-8")
    args = argparse.Namespace(action="extract", package=str(package), domain=None, lang=["es"], verbose=False)
    assert cmd_i18n(args) == 0
    es = (package / "locale" / "es" / "LC_MESSAGES" / "unobot_big.po").read_text(encoding="utf-8")
    assert 'msgid "Big hands"\nmsgstr "Manos grandes"' in es
    assert 'msgid "Big party"\nmsgstr "Gran fiesta"' in es


def test_a_plugin_gets_a_catalogue_for_every_language_and_check_names_the_absent(tmp_path: Path,
                                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """`unobot i18n extract` without --lang made English and Spanish
    catalogues only, and `check` judged only the catalogues there were: a
    plugin passed while its moves and events stayed English at a Russian or
    Arabic table. Now extraction makes one for every language unobot speaks,
    and `check` fails for a language with none (English, the source, aside)."""
    import shutil

    from unobot.chat.i18n import LANGUAGES

    package = tmp_path / "unobot_big"
    package.mkdir()
    (package / "__init__.py").write_text(RULE, encoding="utf-8")
    extract = argparse.Namespace(action="extract", package=str(package), domain=None, lang=None, verbose=False)
    assert cmd_i18n(extract) == 0
    made = sorted(p.parent.parent.name for p in (package / "locale").glob("*/LC_MESSAGES/unobot_big.po"))
    assert made == sorted(LANGUAGES)
    shutil.rmtree(package / "locale" / "ru")
    check = argparse.Namespace(action="check", package=str(package), domain=None, lang=None, verbose=False)
    assert cmd_i18n(check) == 1  # untranslated entries, and no Russian catalogue at all
    out = capsys.readouterr().out
    assert "  ru     no catalogue" in out and "  en     no catalogue" not in out


def test_a_plugins_variant_title_is_shown_from_its_catalogue(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The title and description extracted to the package's catalogue are the
    ones shown in a language the file does not spell out (before: English)."""
    from babel.messages.pofile import read_po, write_po

    from unobot.chat.views import variant_title
    from unobot.variants import clear_caches, load_variant

    package = tmp_path / "unobot_big"
    (package / "variants").mkdir(parents=True)
    (package / "__init__.py").write_text(RULE, encoding="utf-8")
    (package / "variants" / "big-night.yaml").write_text(
        "name: big-night\ntitle: {en: Big night, es: Gran noche}\ndescription: Big hands all night.\n"
        "extends: official\n", encoding="utf-8")
    args = argparse.Namespace(action="extract", package=str(package), domain=None, lang=["de"], verbose=False)
    assert cmd_i18n(args) == 0
    po = package / "locale" / "de" / "LC_MESSAGES" / "unobot_big.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale="de")
    catalog["Big night"].string = "Große Nacht"
    catalog["Big hands all night."].string = "Große Hände die ganze Nacht."
    with po.open("wb") as f:
        write_po(f, catalog)
    monkeypatch.setenv("UNOBOT_VARIANTS_PATH", str(package / "variants"))
    clear_caches()
    try:
        variant = load_variant("big-night")
        assert variant.label("de") == "Große Nacht" == variant_title("big-night", "de")
        assert variant.describe("de") == "Große Hände die ganze Nacht."
        assert variant.label("es") == "Gran noche" and variant.label("fr") == "Big night"
    finally:
        monkeypatch.delenv("UNOBOT_VARIANTS_PATH")
        clear_caches()


def test_check_judges_only_the_languages_it_is_told_to_require(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """`--lang` names "a language ... that check requires": a plugin translated
    into Spanish alone passes `check --lang es`, though `extract` (run first
    without --lang, as the tutorial shows) left an untranslated catalogue for
    every other language; without --lang, those still fail it."""
    from babel.messages.pofile import read_po, write_po

    package = tmp_path / "unobot_big"
    package.mkdir()
    (package / "__init__.py").write_text(RULE, encoding="utf-8")
    extract = argparse.Namespace(action="extract", package=str(package), domain=None, lang=None, verbose=False)
    assert cmd_i18n(extract) == 0
    po = package / "locale" / "es" / "LC_MESSAGES" / "unobot_big.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale="es")
    for message in catalog:
        if message.id:
            message.string = "«" + str(message.id) + "»"  # translated (the check reads completeness)
    with po.open("wb") as f:
        write_po(f, catalog)
    check = argparse.Namespace(action="check", package=str(package), domain=None, lang=["es"], verbose=False)
    assert cmd_i18n(check) == 0, capsys.readouterr().out
    assert "de " in capsys.readouterr().out  # the others are still listed
    assert cmd_i18n(argparse.Namespace(**{**vars(check), "lang": ["es", "de"]})) == 1
    assert cmd_i18n(argparse.Namespace(**{**vars(check), "lang": None})) == 1


def test_a_variant_of_rules_not_installed_yet_still_gives_its_texts(tmp_path: Path) -> None:
    """The tutorial extracts (step 4) before it installs the package (step 8):
    a variant naming the package's own rule, not yet known, was dropped from
    the catalogue without a word, since extraction loaded the whole variant."""
    package = tmp_path / "unobot_big"
    (package / "variants").mkdir(parents=True)
    (package / "__init__.py").write_text(RULE, encoding="utf-8")
    (package / "variants" / "big-party.yaml").write_text(
        "name: big-party\ntitle: {en: Big party, es: Gran fiesta}\n"
        "description: {en: Ten cards each., es: Diez cartas cada uno.}\n"
        "extends: official\nrules:\n  big: {cards: 10}\n", encoding="utf-8")
    args = argparse.Namespace(action="extract", package=str(package), domain=None, lang=["es"], verbose=False)
    assert cmd_i18n(args) == 0
    es = (package / "locale" / "es" / "LC_MESSAGES" / "unobot_big.po").read_text(encoding="utf-8")
    assert 'msgid "Big party"\nmsgstr "Gran fiesta"' in es, es
    assert 'msgid "Ten cards each."\nmsgstr "Diez cartas cada uno."' in es, es


CHEER = '''
from pathlib import Path

from unobot import N_, Rule, dataclass, option

LOCALE = ("unobot_big_cheer", Path(__file__).parent / "locale")


class Cheer(Rule):
    """A rule of the same package with a catalogue of its own."""

    name = "cheer"
    title = {"en": "Cheering"}
    locale = LOCALE
    refusals = {"again": N_("You have already cheered.")}

    @dataclass(frozen=True)
    class Options:
        times: int = option(1, min=1, max=3, help="cheers a round")
'''

KNOCK = '''
from unobot import N_, Rule

from .cheer import LOCALE


class Loud(Rule):
    """Imports its catalogue from the module that declares it."""

    name = "loud"
    locale = LOCALE
    move_kinds = {"roar": N_("Roar")}
'''


def test_a_rule_with_a_catalogue_of_its_own_keeps_its_texts_there(tmp_path: Path) -> None:
    """A package whose `cheer` module declares `locale = ("unobot_big_cheer", ...)`: extracting
    the package's own catalogue left out cheer's texts (and those of a module that imports
    its `LOCALE`), and extracting cheer's domain takes only them, no variant file's. Before,
    both catalogues got every file's texts: translators of each were asked for the other's."""
    package = tmp_path / "unobot_big"
    (package / "variants").mkdir(parents=True)
    (package / "__init__.py").write_text(RULE, encoding="utf-8")
    (package / "cheer.py").write_text(CHEER, encoding="utf-8")
    (package / "loud.py").write_text(KNOCK, encoding="utf-8")
    (package / "variants" / "big-party.yaml").write_text(
        "name: big-party\ntitle: {en: Big party}\nextends: official\n", encoding="utf-8")
    for domain in (None, "unobot_big_cheer"):
        args = argparse.Namespace(action="extract", package=str(package), domain=domain, lang=["es"],
                                  verbose=False)
        assert cmd_i18n(args) == 0
    own = (package / "locale" / "unobot_big.pot").read_text(encoding="utf-8")
    cheer = (package / "locale" / "unobot_big_cheer.pot").read_text(encoding="utf-8")
    theirs = ("You have already cheered.", "cheers a round", "Cheering", "Roar")
    ours = ("Shout at the table", "Big hands", "Big party")
    for text in theirs:
        assert f'msgid "{text}"' in cheer and f'msgid "{text}"' not in own, text
    for text in ours:
        assert f'msgid "{text}"' in own and f'msgid "{text}"' not in cheer, text
