"""Translations: gettext catalogues (Babel .po files), one per language.

Every user-facing string is written in English in the source, wrapped in
`_()` (translated at once for a language) or `N_()` (marked, translated
later). The catalogues live in core/locale/<lang>/LC_MESSAGES/unobot.po and
are compiled to .mo on first use (and again when the .po is newer), so a
fresh checkout needs no build step.

    python -m unobot.chat.catalogue extract   # refresh the .pot and merge into each .po
"""

from __future__ import annotations

import gettext
import os
import sys
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "unobot"
DEFAULT = "en"
#: Every language unobot is meant to speak, by catalogue folder, with its own name.
LANGUAGE_NAMES = {
    "en": "English", "es": "Español", "pt_BR": "Português (Brasil)", "de": "Deutsch", "fr": "Français",
    "it": "Italiano", "ca": "Català", "ru": "Русский", "uk": "Українська", "pl": "Polski", "tr": "Türkçe",
    "id": "Bahasa Indonesia", "vi": "Tiếng Việt", "hi": "हिन्दी", "zh_CN": "简体中文", "zh_TW": "繁體中文",
    "ar": "العربية",
}
#: Languages written right to left (a front-end that can, says so: `dir="rtl"`).
RTL = frozenset({"ar"})


def _spoken() -> tuple[str, ...]:
    """The languages spoken here: those whose catalogue is shipped (English
    first). Why discovered: a translation lands as one folder, and is then
    offered by every front-end; nothing else to edit."""
    found = sorted(d.name for d in LOCALE_DIR.iterdir() if (d / "LC_MESSAGES" / f"{DOMAIN}.po").exists()) \
        if LOCALE_DIR.is_dir() else []
    return (DEFAULT, *(code for code in found if code != DEFAULT))


LANGUAGES: tuple[str, ...] = _spoken()
#: Regional and script codes as platforms send them -> the catalogue that serves them.
_REGIONS = {"pt": "pt_BR", "pt-br": "pt_BR", "pt-pt": "pt_BR", "zh": "zh_CN", "zh-cn": "zh_CN",
            "zh-hans": "zh_CN", "zh-sg": "zh_CN", "zh-tw": "zh_TW", "zh-hant": "zh_TW", "zh-hk": "zh_TW",
            "zh-mo": "zh_TW",
            # Java's and older Android's code for Indonesian (`in_ID`), still sent by some clients
            "in": "id"}


def N_(message: str) -> str:
    """Mark a string for translation without translating it yet."""
    return message


def NC_(context: str, message: str) -> str:
    """Mark a text with a context (`NC_("typed", "r")`: the letter a person
    types for red, not the `r` of another text) for translation later; read
    it with `pgettext_for(lang)(context, message)`."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a text with a plural form (chosen later by a number) for translation."""
    return (singular, plural)


def env_lang() -> str | None:
    """The language the environment asks programs to speak, read as gettext
    reads it, if the bot has it: the locale of messages (LC_ALL, else
    LC_MESSAGES, else LANG: `es_ES.UTF-8` -> es), and before it LANGUAGE's
    list of preferences (`ru:en`), unless messages are in the C locale
    (`C`, `POSIX` or none set: None, English).

    Why not LANG alone: `LC_ALL=es_ES.UTF-8`, the usual way to make one
    program or a whole shell speak a language, left unobot in English."""
    locale_name = next((os.environ[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(v)), "")
    base = locale_name.split(".")[0].split("@")[0]  # es_ES.UTF-8, pt_BR.UTF-8, ca_ES@valencia
    if base in ("", "C", "POSIX"):
        return None
    for wanted in (os.environ.get("LANGUAGE") or "").split(":"):
        found = known(wanted.split(".")[0]) if wanted else None
        if found is not None:
            return found
    return known(base)


def known(lang: str | None) -> str | None:
    """`es-MX`, `es_ES`, `ES` -> `es`; `pt-br` -> `pt_BR`, `zh-hant` -> `zh_TW`
    (Telegram's, Discord's and browsers' forms); None for a language not spoken here."""
    if not lang:
        return None
    code = lang.strip().replace("_", "-").lower()
    spoken = {c.lower().replace("_", "-"): c for c in LANGUAGES}  # `pt_BR` typed as `pt-br`
    if code in spoken:
        return spoken[code]
    parts = code.split("-")
    for candidate in ("-".join(parts[:2]), parts[0]):
        mapped = _REGIONS.get(candidate)
        if mapped in LANGUAGES:
            return mapped
    return parts[0] if parts[0] in LANGUAGES else None


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


def pgettext_for(lang: str | None) -> Callable[[str, str], str]:
    """The `pgettext` function (a text with a context) for a language."""
    return translations(normalize(lang)).pgettext


#: How a language sets apart the items of a list in running text, as a
#: catalogue entry: `, `, Arabic `، `, Chinese `、` (a list of names or cards
#: joined by an English comma read as a misprint in those).
LIST_SEPARATOR = NC_("list", ", ")


def joined(items: Iterable[str], lang: str | None) -> str:
    """Items as one list in running text, with the language's separator (`Ada، Alan`)."""
    in_context = pgettext_for(lang)
    return in_context("list", LIST_SEPARATOR).join(items)


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


class Plural(Msg):
    """A count's text kept for its reader: the (singular, plural) msgids,
    chosen by `n` in the reader's language's own plural forms when shown.
    The extractor reads `Plural(...)` as a plural pair (`catalogue.KEYWORDS`),
    so its msgids are written plain, without `N_`."""

    __slots__ = ("plural", "n")

    def __init__(self, singular: str, plural: str, n: int, /, **params: Any) -> None:
        super().__init__(singular, **params)
        self.plural = plural
        self.n = n

    def text(self, lang: str | None = None) -> str:
        template = ngettext_for(lang)(self.msgid, self.plural, self.n)
        return template.format(n=self.n, **{k: render(v, lang) for k, v in self.params.items()})


class Joined(Msg):
    """Texts joined by a separator, each rendered in the reader's language;
    without one, by the reader's language's own list separator (`joined`)."""

    __slots__ = ("parts", "sep")

    def __init__(self, parts: list[Any], sep: str | None = ", ") -> None:
        super().__init__(sep or "")
        self.parts = parts
        self.sep = sep

    def text(self, lang: str | None = None) -> str:
        texts = (render(p, lang) for p in self.parts)
        return self.sep.join(texts) if self.sep is not None else joined(texts, lang)

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


def catalogue_text(domain: str, folder: str, text: str, lang: str | None) -> str:
    """`text` through a plugin package's own catalogue (`domain` under the
    locale `folder`), as `rule_text` reads a rule's: a plugin's variant
    titles and descriptions are extracted there; `text` when it has none."""
    return _plugin_catalogue(str(domain), str(folder), normalize(lang)).gettext(text)


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


if __name__ == "__main__":  # the maintenance commands moved: say where, never do nothing silently
    print("run: python -m unobot.chat.catalogue extract", file=sys.stderr)
    sys.exit(2)
