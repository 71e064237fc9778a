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
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog("es") if m.id}
    absent = []
    for source in ("core", "adapters", "plugins"):
        for _f, _l, message, _c, _ctx in extract_from_dir(
            root / source, method_map=[("**.py", "python")],
            keywords={"_": None, "N_": None, "ngettext": (1, 2)},
        ):
            text = message if isinstance(message, str) else message[0]
            if text not in known:
                absent.append(text)
    assert not absent, f"run `python -m unobot.chat.i18n extract`: not in the catalogue: {absent[:5]}"


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
    assert normalize("es-MX") == "es" and normalize("fr") == "en" and normalize(None) == "en"
