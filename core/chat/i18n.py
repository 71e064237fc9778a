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
from typing import Any

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "unobot"
LANGUAGES = ("en", "es")
DEFAULT = "en"
LANGUAGE_NAMES = {"en": "English", "es": "Español"}


def N_(message: str) -> str:
    """Mark a string for translation without translating it yet."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a text with a plural form (chosen later by a number) for translation."""
    return (singular, plural)


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


class Msg:
    """A text for a person, kept as its English msgid and its parameters and
    rendered in the reader's language only when shown.

    Why: an error is raised where nobody knows who will read it (a log, an
    admin's terminal, a Spanish player); `text(lang)` renders it for one
    reader, `str()` is the English text. A parameter may itself be a `Msg`
    (rendered in the same language); mark the msgid with `N_` so that it is
    extracted: `Msg(N_("unknown rule '{name}'"), name=name)`.
    """

    __slots__ = ("msgid", "params")

    def __init__(self, msgid: str, /, **params: Any) -> None:
        self.msgid = msgid
        self.params = params

    @classmethod
    def plain(cls, text: str) -> Msg:
        """A text shown as it is in every language (a library's own message)."""
        return cls("{text}", text=text)

    def text(self, lang: str | None = None) -> str:
        """The text in `lang`; None: the English source text."""
        template = translations(normalize(lang)).gettext(self.msgid) if lang else self.msgid
        return template.format(**{k: render(v, lang) for k, v in self.params.items()})

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Msg({self.text()!r})"

    def __bool__(self) -> bool:
        return bool(self.msgid)


class Joined(Msg):
    """Texts joined by a separator, each rendered in the reader's language."""

    __slots__ = ("parts", "sep")

    def __init__(self, parts: list[Any], sep: str = ", ") -> None:
        super().__init__(sep)
        self.parts = parts
        self.sep = sep

    def text(self, lang: str | None = None) -> str:
        return self.sep.join(render(p, lang) for p in self.parts)

    def __bool__(self) -> bool:
        return bool(self.parts)


def render(value: Any, lang: str | None) -> Any:
    """A `Msg` in `lang`; anything else as it is."""
    return value.text(lang) if isinstance(value, Msg) else value


# -- a plugin's own catalogues ------------------------------------------------------

def rule_translations(rule: Any, lang: str | None) -> gettext.NullTranslations:
    """The translations of a rule's own texts (`Rule.locale = (domain,
    folder)`), read from `<folder>/<lang>/LC_MESSAGES/<domain>.po`; English
    text as written when the rule ships none for that language."""
    locale = getattr(rule, "locale", None)
    if not locale:
        # unobot's own rules (plugins/) have their texts in unobot's catalogue.
        if str(getattr(rule, "__module__", "")).startswith(("unobot.plugins.", "plugins.")):
            return translations(normalize(lang))
        return gettext.NullTranslations()
    domain, folder = locale
    return _plugin_catalogue(str(domain), str(folder), normalize(lang))


@cache
def _plugin_catalogue(domain: str, folder: str, lang: str) -> gettext.NullTranslations:
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    base = Path(folder) / lang / "LC_MESSAGES"
    mo, po = base / f"{domain}.mo", base / f"{domain}.po"
    try:
        if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
            with mo.open("rb") as f:
                return gettext.GNUTranslations(f)
        if po.exists():  # compiled in memory: an installed plugin's folder may be read-only
            with po.open("rb") as f:
                catalog = read_po(f, locale=lang)
            buffer = io.BytesIO()
            write_mo(buffer, catalog)
            buffer.seek(0)
            return gettext.GNUTranslations(buffer)
    except (OSError, ValueError) as exc:  # a broken catalogue must not break a game
        import logging

        logging.getLogger(__name__).warning("catalogue %s (%s) unreadable: %r", domain, lang, exc)
    return gettext.NullTranslations()


def rule_text(rule: Any, text: str | tuple[str, str], lang: str | None, n: int = 1) -> str:
    """One of a rule's texts (an event line, a refusal, a card or move
    name) in a language."""
    t = rule_translations(rule, lang)
    if isinstance(text, tuple):
        return t.ngettext(text[0], text[1], n)
    return t.gettext(text)


# -- maintenance: extract and merge ------------------------------------------------

SOURCES = ("core", "adapters", "plugins")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "ngettext_": (1, 2), "NP_": (1, 2)}


def extract() -> None:
    """Refresh unobot's own catalogues from its sources."""
    root = LOCALE_DIR.parent.parent
    extract_catalogues([(root / s, s) for s in SOURCES], LOCALE_DIR, DOMAIN, LANGUAGES, "unobot")
    print("catalogues updated:", ", ".join(LANGUAGES))


def extract_catalogues(sources: list[tuple[Path, str]], locale_dir: Path, domain: str,
                       languages: tuple[str, ...] | list[str], project: str) -> list[Path]:
    """Extract every marked string (`_()`, `N_()`, `ngettext()`) from the
    sources into `<locale_dir>/<domain>.pot` and merge it into each
    language's `.po` (English filled with the source text). A plugin runs
    this through `unobot i18n extract`."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.pofile import read_po, write_po

    template = Catalog(project=project, domain=domain)
    for source, label in sources:
        for filename, lineno, text, comments, _ctx in extract_from_dir(
            source, method_map=[("**.py", "python")], keywords=KEYWORDS,
        ):
            template.add(text, locations=[(f"{label}/{filename}", lineno)], auto_comments=comments)
        for filename, lineno, text in option_texts(source):
            template.add(text, locations=[(f"{label}/{filename}", lineno)])
    locale_dir.mkdir(parents=True, exist_ok=True)
    with (locale_dir / f"{domain}.pot").open("wb") as f:
        write_po(f, template, omit_header=False, sort_output=True, include_lineno=False)
    written = []  # locations without line numbers: an edit elsewhere in a file changes no catalogue
    for lang in languages:
        po = locale_dir / lang / "LC_MESSAGES" / f"{domain}.po"
        po.parent.mkdir(parents=True, exist_ok=True)
        if po.exists():
            with po.open("rb") as f:
                catalog = read_po(f, locale=lang)
        else:
            catalog = Catalog(locale=lang, project=project, domain=domain)
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
            write_po(f, catalog, sort_output=True, ignore_obsolete=True, include_lineno=False)
        written.append(po)
    return written


def option_texts(source: Path) -> list[tuple[str, int, str]]:
    """The `help=` and `title=` texts of every `option(...)` under `source`
    ((file, line, text)): msgids of the rule's catalogue that need no `N_`,
    so that an option's help is translated like any other text of its rule."""
    import ast

    found = []
    for path in sorted(source.rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, OSError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name != "option":
                continue
            for kw in node.keywords:
                if kw.arg in ("help", "title") and isinstance(kw.value, ast.Constant) \
                        and isinstance(kw.value.value, str) and kw.value.value:
                    found.append((str(path.relative_to(source)), kw.value.lineno, kw.value.value))
    return found


def compile_catalogues(locale_dir: Path, domain: str) -> list[Path]:
    """Compile every `<lang>/LC_MESSAGES/<domain>.po` under `locale_dir` to `.mo`."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    done = []
    for po in sorted(locale_dir.glob(f"*/LC_MESSAGES/{domain}.po")):
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name)
        with po.with_suffix(".mo").open("wb") as f:
            write_mo(f, catalog)
        done.append(po.with_suffix(".mo"))
    return done


if __name__ == "__main__":
    if sys.argv[1:] == ["extract"]:
        extract()
    else:
        print(__doc__)
