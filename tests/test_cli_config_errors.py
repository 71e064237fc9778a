"""The operator commands' configuration errors are said in the reader's
language (`--lang`, else the locale), with the file, line and key as they are.

Before, `unobot replay` with no store ("no games are kept here ..."), a
config.yaml that does not parse, a misspelt key and a `--store` that names no
Redis were English to an operator whose `unobot replay --help` and argparse
errors were already Spanish. Run as the operator does: the command in a
process, with only LANG set (or `--lang` where the command takes it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from unobot.chat.i18n import gettext_for


def unobot(cwd: Path, *args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE") and not k.startswith("UNOBOT_")}
    env.update({"LANG": lang, "XDG_DATA_HOME": str(cwd / "xdg"), "XDG_CONFIG_HOME": str(cwd / "xdgc")})
    return subprocess.run([sys.executable, "-m", "unobot.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_no_store_kept_here_in_spanish(tmp_path: Path) -> None:
    done = unobot(tmp_path, "replay", "--last", "--data-dir", str(tmp_path / "none"), lang="es_ES.UTF-8")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == (f"{gettext_for('es')('error:')} {tmp_path / 'none'}: aquí no se guarda ninguna "
                                   "partida: no hay almacén integrado en esta carpeta (--data-dir indica otra, "
                                   "--store un servidor Redis)"), done.stderr
    english = unobot(tmp_path, "replay", "--last", "--data-dir", str(tmp_path / "none"))
    assert english.stderr.startswith(f"error: {tmp_path / 'none'}: no games are kept here"), english.stderr


def test_a_config_file_that_does_not_parse_says_where_in_german(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("redis:\n  url: [1\n", encoding="utf-8")
    done = unobot(tmp_path, "audit", lang="de_DE.UTF-8")
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert line.startswith("Fehler: config.yaml:3: das ist kein gültiges YAML: "), line
    assert "prüfe die Einrückung" in line, line  # the fix, in German too


def test_a_misspelt_key_names_the_close_one_in_french(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("redsi:\n  url: x\n", encoding="utf-8")
    done = unobot(tmp_path, "replay", "--last", "--lang", "fr")
    assert done.stderr.strip().startswith(
        "erreur : config.yaml:1: redsi: clé inconnue ; voulais-tu dire 'redis' ? connues : redis, store"), done.stderr


def test_a_store_url_that_names_no_redis_in_russian_and_spanish(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("redis:\n  url: foo\n", encoding="utf-8")
    done = unobot(tmp_path, "audit", lang="ru_RU.UTF-8")
    assert done.stderr.strip().startswith("ошибка: config.yaml:2: redis.url: 'foo' — не URL Redis; "), done.stderr
    (tmp_path / "config.yaml").unlink()
    done = unobot(tmp_path, "replay", "--last", "--store", "foo", lang="es_ES.UTF-8")
    assert done.returncode == 2
    assert done.stderr.strip().startswith("error: la dirección del almacén: 'foo' no es una URL de Redis: "), done.stderr
