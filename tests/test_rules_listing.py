"""`unobot rules` and `unobot variants NAME` speak the reader's language, as
the console picks it (`--lang`, else the locale, else the configured
`game.default_language`), and keep the keys a variant file and `--rule`
write beside the translated words.

Why: both printed English descriptions, "[shared]", "turned off" and raw
option keys alone to a German or Chinese reader, although core translates
every rule title, option title and help.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from unobot.chat.i18n import gettext_for
from unobot.registry import available_rules

ENGLISH = ("(shared rule)", "(house rule)", "default", "[shared]", "[house]", "turned off", "Extends",
           "a whole number", "Cards dealt")


def unobot(*args: str, tmp_path: Path, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    config = tmp_path / "config.yaml"
    if not config.exists():
        config.write_text("{}\n")
    done = subprocess.run([sys.executable, "-m", "unobot.cli", *args], capture_output=True, text=True,
                          env={**clean, "UNOBOT_CONFIG": str(config), **env}, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_rules_in_the_locales_language_with_the_keys_to_type(tmp_path: Path) -> None:
    said = unobot("rules", tmp_path=tmp_path, LC_ALL="de_DE.UTF-8")
    rules = available_rules()
    assert f"deck: {rules['deck'].label('de')} (gemeinsame Regel)" in said
    assert f"stacking: {rules['stacking'].label('de')} (Hausregel)" in said
    assert "    - hand_size: eine ganze Zahl von 1 bis 30 (Standard 7)" in said  # the key as YAML writes it
    assert "Ausgeteilte Karten: Karten, die jeder Spieler bekommt" in said  # its title and help
    assert not [w for w in ENGLISH if w in said], [w for w in ENGLISH if w in said]
    assert "a player hit by a draw card" not in said  # the English docstrings: pointed to, not printed
    assert said.splitlines()[-1] == gettext_for("de")("Each rule is explained in English: unobot rules --lang en")
    english = unobot("rules", "--lang", "en", tmp_path=tmp_path, LC_ALL="de_DE.UTF-8")
    assert f"deck: {rules['deck'].label('en')} (shared rule)" in english
    assert "explained in English" not in english
    assert "Stacking: a player hit by a draw card" in english


def test_variant_shown_in_the_asked_then_configured_language(tmp_path: Path) -> None:
    said = unobot("variants", "party", "--lang", "es", tmp_path=tmp_path, LANG="de_DE.UTF-8")
    es = gettext_for("es")
    assert said.splitlines()[1] == es("Extends: {variant} ({title})").format(variant="official",
                                                                            title=es("Official rules"))
    assert "      hand_size (Cartas repartidas): 7" in said, said
    assert not [w for w in ENGLISH if w in said], said
    (tmp_path / "config.yaml").write_text("game:\n  default_language: zh_CN\n")
    chinese = unobot("variants", "party", tmp_path=tmp_path)  # no locale: the configured language
    assert chinese.splitlines()[0] == "party：派对" and "（共享规则）" in chinese, chinese
    listed = unobot("variants", tmp_path=tmp_path)
    assert "官方规则" in listed
