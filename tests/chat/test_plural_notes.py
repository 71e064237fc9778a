"""A plugin author translating their catalogue is told which numbers each
plural form is for, and `unobot i18n check` warns of forms in the wrong slots.

Spanish has three forms (CLDR): msgstr[0] for 1, msgstr[1] for millions,
msgstr[2] for every other count. An author filled msgstr[1] as "the plural"
and msgstr[2] as the millions' "de cartas": the page said "roba 3 de cartas".
Run as the author does: `unobot i18n extract` and `unobot i18n check` on
their package, in a subprocess.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

RULE = '''
from unobot import NP_, Rule


class Big(Rule):
    """Deal more cards."""

    name = "big"
    title = {"en": "Big hands"}
    event_texts = {"big_draw": NP_("draws {n} card", "draws {n} cards")}
'''


def unobot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unobot.cli", "i18n", *args], capture_output=True, text=True,
                          timeout=120)


def package(tmp_path: Path) -> Path:
    pkg = tmp_path / "unobot_big"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(RULE, encoding="utf-8")
    done = unobot("extract", str(pkg), "--lang", "es", "--lang", "ru", "--lang", "en")
    assert done.returncode == 0, done.stderr
    return pkg


def test_each_plural_entry_says_which_numbers_each_form_is_for(tmp_path: Path) -> None:
    pkg = package(tmp_path)
    es = (pkg / "locale" / "es" / "LC_MESSAGES" / "unobot_big.po").read_text(encoding="utf-8")
    with (pkg / "locale" / "es" / "LC_MESSAGES" / "unobot_big.po").open("rb") as f:
        entry = next(m for m in read_po(f, locale="es") if isinstance(m.id, tuple))
    note = " ".join(entry.auto_comments)
    assert "msgstr[0] (one): 1;" in note and "msgstr[1] (many): 1000000, 2000000" in note, es
    assert "msgstr[2] (other): 0, 2, 3, 4" in note, es
    with (pkg / "locale" / "ru" / "LC_MESSAGES" / "unobot_big.po").open("rb") as f:
        ru = next(m for m in read_po(f, locale="ru") if isinstance(m.id, tuple))
    assert "msgstr[1] (few): 2, 3, 4, 22, 23, 24" in " ".join(ru.auto_comments)
    # A second extract writes the same note once (not one more each time).
    assert unobot("extract", str(pkg), "--lang", "es").returncode == 0
    assert (pkg / "locale" / "es" / "LC_MESSAGES" / "unobot_big.po").read_text(encoding="utf-8").count(
        "plural forms:") == 1


def fill(pkg: Path, forms: tuple[str, str, str]) -> None:
    po = pkg / "locale" / "es" / "LC_MESSAGES" / "unobot_big.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale="es")
    for message in catalog:
        if isinstance(message.id, tuple):
            message.string = forms
        elif message.id:
            message.string = "Manos grandes"
    with po.open("wb") as f:
        write_po(f, catalog)


def test_check_warns_of_the_millions_form_taken_for_the_plural(tmp_path: Path) -> None:
    pkg = package(tmp_path)
    fill(pkg, ("roba {n} carta", "roba {n} cartas", "roba {n} de cartas"))
    out = unobot("check", str(pkg), "--lang", "es").stdout
    assert "swapped?" in out and "draws {n} card: msgstr[2] (used for 2, 3…)" in out, out
    fill(pkg, ("roba {n} carta", "roba {n} de cartas", "roba {n} cartas"))  # as CLDR means them
    out = unobot("check", str(pkg), "--lang", "es").stdout
    assert "swapped?" not in out and "warning" not in out, out
