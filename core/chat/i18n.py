"""Translations: gettext catalogues (Babel .po files) for English and Spanish.

Every user-facing string is written in English in the source, wrapped in
`_()` (translated at once for a language) or `N_()` (marked, translated
later). The catalogues live in core/locale/<lang>/LC_MESSAGES/unobot.po and
are compiled to .mo on first use (and again when the .po is newer), so a
fresh checkout needs no build step.

    python -m unobot.chat.i18n extract   # refresh the .pot and merge into each .po
"""

from __future__ import annotations

import copy
import gettext
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "unobot"
LANGUAGES = ("en", "es")
DEFAULT = "en"
LANGUAGE_NAMES = {"en": "English", "es": "Español"}


def N_(message: str) -> str:
    """Mark a string for translation without translating it yet."""
    return message


def known(lang: str | None) -> str | None:
    """`es-MX`, `es_ES`, `ES` -> `es`; None for a language not spoken here."""
    if not lang:
        return None
    short = lang.replace("_", "-").split("-")[0].lower()
    return short if short in LANGUAGES else None


def normalize(lang: str | None) -> str:
    """`es-MX`, `es_ES`, `ES` -> `es`; anything unknown -> English."""
    return known(lang) or DEFAULT


def _compile(lang: str) -> Path | None:
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    po = folder / f"{DOMAIN}.po"
    mo = folder / f"{DOMAIN}.mo"
    if not po.exists():
        return None
    if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        with po.open("rb") as f:
            catalog = read_po(f, locale=lang)
        tmp = mo.with_suffix(".mo.tmp")
        with tmp.open("wb") as f:
            write_mo(f, catalog)
        tmp.replace(mo)
    return mo


@cache
def translations(lang: str) -> gettext.NullTranslations:
    lang = normalize(lang)
    mo = _compile(lang)
    if mo is None:
        return gettext.NullTranslations()
    with mo.open("rb") as f:
        return gettext.GNUTranslations(f)


def gettext_for(lang: str | None) -> Callable[[str], str]:
    """The `_` function for a language."""
    return translations(normalize(lang)).gettext


def ngettext_for(lang: str | None) -> Callable[[str, str, int], str]:
    """The `ngettext` function for a language."""
    return translations(normalize(lang)).ngettext


# -- maintenance: extract and merge ------------------------------------------------

SOURCES = ("core", "adapters", "plugins")


def extract() -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.pofile import read_po, write_po

    root = LOCALE_DIR.parent.parent
    template = Catalog(project="unobot", domain=DOMAIN)
    for source in SOURCES:
        for filename, lineno, text, comments, _ctx in extract_from_dir(
            root / source,
            method_map=[("**.py", "python")],
            keywords={"_": None, "N_": None, "ngettext": (1, 2), "ngettext_": (1, 2)},
        ):
            template.add(text, locations=[(f"{source}/{filename}", lineno)], auto_comments=comments)
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("wb") as f:
        write_po(f, template, omit_header=False, sort_output=True)
    for lang in LANGUAGES:
        po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        po.parent.mkdir(parents=True, exist_ok=True)
        if po.exists():
            with po.open("rb") as f:
                catalog = read_po(f, locale=lang)
        else:
            catalog = Catalog(locale=lang, project="unobot", domain=DOMAIN)
        catalog.update(copy.deepcopy(template), no_fuzzy_matching=True)
        if lang == "en":  # English is the source language: msgstr = msgid
            for message in catalog:
                if not message.id:
                    continue
                if isinstance(message.id, (tuple, list)):
                    singular, plural = message.id[0], message.id[1]
                    forms = message.string if isinstance(message.string, (tuple, list)) else ()
                    if not all(forms):
                        message.string = (singular, plural)
                elif not message.string:
                    message.string = message.id
        with po.open("wb") as f:
            write_po(f, catalog, sort_output=True, ignore_obsolete=True)
    print("catalogues updated:", ", ".join(LANGUAGES))


if __name__ == "__main__":
    if sys.argv[1:] == ["extract"]:
        extract()
    else:
        print(__doc__)
