"""Maintenance of the catalogues: extract the marked texts, merge them into
each language's `.po`, compile plugins' catalogues.

    python -m unobot.chat.catalogue extract   # refresh the .pot and merge into each .po

Why apart from `i18n`: everything imports `i18n` to translate, and
extraction reads the rules and the variants (to catalogue their titles), so
keeping it there made `i18n` import half of core back.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any

from .i18n import DOMAIN, LANGUAGES, LOCALE_DIR

SOURCES = ("core", "adapters", "plugins")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "ngettext_": (1, 2), "NP_": (1, 2), "Plural": (1, 2), "NC_": ((1, "c"), 2),
            "pgettext": ((1, "c"), 2)}


def extract() -> None:
    """Refresh unobot's own catalogues from its sources."""
    root = LOCALE_DIR.parent.parent
    extract_catalogues([(root / s, s) for s in SOURCES], LOCALE_DIR, DOMAIN, LANGUAGES, "unobot",
                       extra=data_texts())
    print("catalogues updated:", ", ".join(LANGUAGES))


def data_texts() -> list[tuple[str, str, dict[str, str]]]:
    """Texts that live in data, not in `_()` calls: the built-in rules' titles
    and the shipped variants' titles and descriptions, as (English text,
    where, translations the data already holds). Extraction puts them in the
    catalogue, seeded with those translations, so every language translates
    them like any other text."""
    from ..registry import available_rules
    from ..variants import VariantError, _shipped_dir, load_variant, variant_names

    out: list[tuple[str, str, dict[str, str]]] = []
    for rule in available_rules().values():
        if rule.__module__.startswith("unobot.plugins.") and rule.title.get("en"):
            out.append((rule.title["en"], rule.__module__.replace("unobot.", "").replace(".", "/") + ".py",
                        dict(rule.title)))
    for name in variant_names():
        try:
            variant = load_variant(name)
        except VariantError:
            continue
        if Path(variant.source).resolve().parent != _shipped_dir():
            continue  # a plugin's variant: its own package translates it
        for texts in (variant.title, variant.description):
            if texts.get("en"):
                out.append((texts["en"], f"variants/{name}.yaml", dict(texts)))
    return out


def extract_catalogues(sources: list[tuple[Path, str]], locale_dir: Path, domain: str,
                       languages: tuple[str, ...] | list[str], project: str,
                       extra: list[tuple[str, str, dict[str, str]]] | None = None,
                       skip: Collection[str] = ()) -> list[Path]:
    """Extract every marked string (`_()`, `N_()`, `ngettext()`) from the
    sources into `<locale_dir>/<domain>.pot` and merge it into each
    language's `.po` (English filled with the source text). A plugin runs
    this through `unobot i18n extract`. `skip`: files (relative to their
    source, with "/") that are another catalogue's (`catalogue_domains`)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.pofile import read_po, write_po

    template = Catalog(project=project, domain=domain)
    for source, label in sources:
        method_map = [*((name, "ignore") for name in skip), ("**.py", "python")]
        for filename, lineno, text, comments, context in extract_from_dir(
            source, method_map=method_map, keywords=KEYWORDS,
        ):
            template.add(text, locations=[(f"{label}/{filename}", lineno)], auto_comments=comments,
                         context=context)
        # Every source's option texts (they were read only when `extra` was
        # given, and then only the last source's: a plugin's never).
        for filename, lineno, text in option_texts(source, skip):
            template.add(text, locations=[(f"{label}/{filename}", lineno)])
    seeds: dict[str, dict[str, str]] = {}
    for text, where, known_texts in extra or ():
        template.add(text, locations=[(where, 0)])  # no line: a data file's entry
        seeds.setdefault(text, {}).update(known_texts)
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
        for message in catalog:  # a data text's translation that the data holds
            if isinstance(message.id, str) and not message.string and lang in seeds.get(message.id, {}):
                message.string = seeds[message.id][lang]
        note_plurals(catalog, lang)
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


def note_plurals(catalog: Any, lang: str) -> None:
    """Put on each plural entry which numbers each msgstr[i] is used for
    (see plural_notes: Spanish's msgstr[1] is for millions, not "the
    plural"). An extracted comment (`#.`), so every merge writes it afresh
    from the catalogue's own Plural-Forms and a translator's `#` stays theirs."""
    from .plural_notes import plural_note

    note = plural_note(catalog.plural_expr, catalog.num_plurals, lang)
    for message in catalog:
        if message.id and isinstance(message.id, (tuple, list)):
            message.auto_comments = [c for c in message.auto_comments if not c.startswith("plural forms: ")]
            message.auto_comments.append(note)


def option_texts(source: Path, skip: Collection[str] = ()) -> list[tuple[str, int, str]]:
    """The `help=`, `title=` and `words=` texts of every `option(...)` under `source`
    ((file, line, text)): msgids of the rule's catalogue that need no `N_`,
    so that an option's help is translated like any other text of its rule.
    `skip`: files (relative, with "/") left to another catalogue."""
    import ast

    found = []
    for path in sorted(source.rglob("*.py")):
        if path.relative_to(source).as_posix() in skip:
            continue
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
                elif kw.arg == "words" and isinstance(kw.value, ast.Dict):  # what each value is called
                    found += [(str(path.relative_to(source)), v.lineno, v.value) for v in kw.value.values
                              if isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value]
    return found


def package_data_texts(package: Path, skip: Collection[str] = (),
                       *, variants: bool = True) -> list[tuple[str, str, dict[str, str]]]:
    """A plugin's texts that live in data, as `data_texts` gives unobot's own:
    each rule's `title = {"en": ..., ...}` (a class attribute written as a
    dict) and each variant file's `title` and `description` under `package`,
    as (English text, where, translations the data already holds). `skip`:
    files left to another catalogue (`catalogue_domains`); `variants` False
    for a catalogue that is not the package's own (variant files are read
    in the catalogue named after the package: `variants.package_catalogue`).

    Why: `Rule.label` and a variant's label translate the English title
    through the plugin's catalogue, but extraction read only `N_()` calls,
    so re-extracting a catalogue dropped the titles' translations."""
    import ast

    from ..variants import VariantError, variant_texts

    out: list[tuple[str, str, dict[str, str]]] = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).as_posix() in skip:
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, OSError):
            continue
        where = str(path.relative_to(package.parent))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for item in node.body:
                if isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "title"
                                                        for t in item.targets):
                    texts = _literal_texts(item.value)
                    if texts.get("en"):
                        out.append((texts["en"], where, texts))
    for path in sorted(package.rglob("*.yaml")) if variants else ():
        try:
            both = variant_texts(path)  # not load_variant: the plugin's rules may not be installed yet
        except VariantError:
            continue
        for texts in both:
            if texts.get("en"):
                out.append((texts["en"], str(path.relative_to(package.parent)), dict(texts)))
    return out


def _literal_texts(node: object) -> dict[str, str]:
    """`{"en": "Knocking", "es": "Golpear"}` written in the source, as a dict ({} for anything else)."""
    import ast

    if not isinstance(node, ast.Dict):
        return {}
    out = {}
    for key, value in zip(node.keys, node.values):
        if isinstance(key, ast.Constant) and isinstance(key.value, str) \
                and isinstance(value, ast.Constant) and isinstance(value.value, str):
            out[key.value] = value.value
    return out


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
