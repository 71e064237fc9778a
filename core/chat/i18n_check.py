"""How complete and how sound each catalogue is: `unobot i18n check`.

Why a check of our own and not only `msgfmt -c`: our texts use named
`str.format` fields (`{player}`), which msgfmt does not know, and a
translation that drops or adds one breaks at run time for that language
only. So each catalogue is read with Babel and every entry is held to:
translated (not empty, not fuzzy), the same `{fields}` as the English, and
as many plural forms as the language's own plural rule has (Babel's CLDR
data), with the catalogue's `Plural-Forms` header saying the same.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Report:
    """One catalogue (a language of one domain)."""

    lang: str
    path: Path
    total: int = 0
    translated: int = 0
    missing: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)
    plurals: list[str] = field(default_factory=list)
    #: Entries left in English where the locale's glossary translates the term.
    english: list[str] = field(default_factory=list)
    header: str = ""
    #: The forms the catalogue's Plural-Forms header says and the language has, when
    #: they differ (`header` says it in English; `line` in its reader's language).
    forms: tuple[int, int] | None = None
    #: Plural entries whose forms look filled in the wrong slots (plural_notes.
    #: swapped_forms): a warning, as a language's grammar may mean it.
    swapped: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.missing or self.fuzzy or self.fields or self.plurals or self.english or self.header)

    def line(self, lang: str | None = None) -> str:
        """The catalogue's line of `unobot i18n check`, its faults said in `lang` (the
        reader's; English without). The columns (language code, translated/total, the
        share with `%`) read the same in every language: scripts may take them."""
        from .i18n import NP_, gettext_for, ngettext_for

        _ = gettext_for(lang)
        ngettext = ngettext_for(lang)
        share = 100.0 * self.translated / self.total if self.total else 100.0
        counts = (
            (NP_("{n} missing", "{n} missing"), self.missing), (NP_("{n} fuzzy", "{n} fuzzy"), self.fuzzy),
            (NP_("{n} placeholder fault", "{n} placeholder faults"), self.fields),
            (NP_("{n} plural-form fault", "{n} plural-form faults"), self.plurals),
            (NP_("{n} left in English against the glossary", "{n} left in English against the glossary"),
             self.english))
        faults = [ngettext(*words, len(v)).format(n=len(v)) for words, v in counts if v]
        if self.forms is not None:
            said, want = self.forms
            faults.append(ngettext("Plural-Forms says {n} form, {lang} has {want}",
                                   "Plural-Forms says {n} forms, {lang} has {want}", said).format(
                n=said, lang=self.lang, want=want))
        elif self.header:
            faults.append(self.header)
        if self.swapped:
            faults.append(ngettext("warning: {n} plural entry with forms in the wrong slots?",
                                   "warning: {n} plural entries with forms in the wrong slots?",
                                   len(self.swapped)).format(n=len(self.swapped)))
        return f"{self.lang:6} {self.translated:5}/{self.total:<5} {share:5.1f}%  " + (
            "; ".join(faults) or _("ok"))


def names(text: str) -> set[str]:
    """The fields of a format string: `{n}`, `{player}` (str.format) and
    `%(type)s` (argparse's texts, `%`-formatted); broken braces count as a field `?`."""
    percent = {f"%{m}" for m in re.findall(r"%\((\w+)\)", text)}
    try:
        return percent | {f.split(".")[0].split("[")[0] for _lit, f, _spec, _conv in string.Formatter().parse(text)
                          if f is not None}
    except ValueError:
        return percent | {"?"}


def expected_plurals(lang: str) -> int:
    """How many plural forms the language has (CLDR, through Babel)."""
    from babel.messages.plurals import get_plural

    return int(get_plural(lang).num_plurals)


def _key(message: Any) -> tuple[str, str | None]:
    """An entry's identity: its msgid with its context (`typed` `r` is not the plain `r`)."""
    ident = message.id if isinstance(message.id, str) else message.id[0]
    return ident, message.context


def _shown(key: tuple[str, str | None]) -> str:
    return key[0] if key[1] is None else f"{key[1]}|{key[0]}"


def glossary_terms(path: Path) -> dict[str, str]:
    """The terms a locale's glossary (docs/glossary/<lang>.md) translates: its
    tables' rows (but the typed words' section's) `| English | translation |`, each side split at ` / ` and
    lined up (`red / yellow` with `Rot / Gelb`), asides in brackets left out;
    lower-cased English -> the translation. A row whose sides do not line up
    is passed over; one translation for several English forms stands for each."""
    terms: dict[str, str] = {}
    # The typed words' own section (it says it lists the entries of context `typed`) is not these.
    sections = re.split(r"(?m)^## ", path.read_text(encoding="utf-8"))
    rows = [row for section in sections if "context `typed`" not in section for row in section.splitlines()]
    for row in rows:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) < 2 or not row.lstrip().startswith("|") or set(cells[0]) <= set("-: ") \
                or cells[0] == "English":  # the table's head
            continue
        english, local = (re.sub(r"\s*[(（][^)）]*[)）]", "", c).strip() for c in cells[:2])
        left, right = english.split(" / "), local.split(" / ")
        if len(right) == 1:  # `Red / red | أحمر`: every form of the term, one translation
            right = right * len(left)
        if len(left) != len(right):
            continue
        for e, t in zip(left, right, strict=True):
            e, t = e.strip().strip('"'), t.strip().strip('"„“«»')
            if e and t and "," not in e:
                terms[e.lower()] = t
    return terms


def check_po(path: Path, lang: str, template: set[tuple[str, str | None]] | None = None,
             glossary: dict[str, str] | None = None) -> Report:
    """One catalogue; with `template` (the .pot's msgids and their
    contexts), an entry the catalogue lacks altogether counts as missing too
    (a catalogue not merged since texts were added would otherwise pass).
    With `glossary` (`glossary_terms`), an entry that is one of its terms,
    translated there into other words, must not be left in English."""
    from babel.messages.pofile import read_po

    from .plural_notes import swapped_forms

    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    report = Report(lang, path)
    if template is not None:
        have = {_key(m) for m in catalog if m.id}
        absent = sorted(template - have, key=_shown)
        report.missing.extend(_shown(k) for k in absent)
        report.total += len(absent)
    want = expected_plurals(lang)
    if catalog.num_plurals != want:
        report.header = f"Plural-Forms says {catalog.num_plurals} forms, {lang} has {want}"
        report.forms = (catalog.num_plurals, want)
    for message in catalog:
        if not message.id:
            continue
        report.total += 1
        ident = message.id if isinstance(message.id, str) else message.id[0]
        forms: tuple[Any, ...] = tuple(message.string) if isinstance(message.string, (tuple, list)) \
            else (message.string,)
        if message.fuzzy:
            report.fuzzy.append(ident)
        if not all(forms):
            report.missing.append(ident)
            continue
        if isinstance(message.id, (tuple, list)) and len(forms) != want:
            report.plurals.append(ident)
        elif isinstance(message.id, (tuple, list)):
            why = swapped_forms(catalog.plural_expr, catalog.num_plurals, [str(f) for f in forms])
            if why:
                report.swapped.append(f"{ident}: {why}")
        term = (glossary or {}).get(ident.lower())
        if term is not None and term.lower() != ident.lower() and str(forms[0]).strip() == ident.strip():
            report.english.append(ident)
        source = names(ident) | (names(message.id[1]) if isinstance(message.id, (tuple, list)) else set())
        for form in forms:
            got = names(str(form))
            # a plural form may leave out {n} ("one card" as "une carte"), never add or rename a field
            if got - source or (source - got - {"n"}):
                report.fields.append(ident)
                break
        if not message.fuzzy:
            report.translated += 1
    return report


def check_folder(locale_dir: Path, domain: str) -> list[Report]:
    """Every language's catalogue of `domain` under `locale_dir` (English first)."""
    found = sorted(locale_dir.glob(f"*/LC_MESSAGES/{domain}.po"))
    found.sort(key=lambda p: p.parent.parent.name != "en")
    pot = locale_dir / f"{domain}.pot"
    template = _msgids(pot) if pot.exists() else None
    glossaries = locale_dir.parent.parent / "docs" / "glossary"
    reports = []
    for p in found:
        lang = p.parent.parent.name
        glossary = glossaries / f"{lang}.md"
        reports.append(check_po(p, lang, template, glossary_terms(glossary) if glossary.is_file() else None))
    return reports


def _msgids(pot: Path) -> set[tuple[str, str | None]]:
    from babel.messages.pofile import read_po

    with pot.open("rb") as f:
        return {_key(m) for m in read_po(f) if m.id}
