"""What the `unobot` commands say to the operator who ran them is in their
language (`--lang`, else the locale), failures included: a folder that cannot
be written (`unobot cards`) and the report of `unobot simulate --store`,
which were English (or a traceback) whatever the operator read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def unobot(*args: str, lang: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k not in ("LANG", "LANGUAGE")}
    env["LANG"] = lang
    return subprocess.run([sys.executable, "-m", "unobot.cli", *args], capture_output=True, text=True,
                          timeout=120, env=env, cwd=cwd)


@pytest.mark.parametrize(("lang", "said"), [
    ("de_DE.UTF-8", "Fehler: die Bilder können nicht nach {path} geschrieben werden: dort liegt eine Datei dieses "
                    "Namens, kein Ordner"),
    ("ru_RU.UTF-8", "ошибка: не удаётся записать картинки в {path}: там файл с таким именем, а не папка"),
    ("C.UTF-8", "error: cannot write the pictures to {path}: a file of that name is there, not a folder"),
])
def test_cards_to_a_folder_that_cannot_be_made_is_said_not_a_traceback(tmp_path: Path, lang: str, said: str) -> None:
    pytest.importorskip("PIL")
    taken = tmp_path / "pictures"
    taken.write_text("not a folder")
    done = unobot("cards", "--out", str(taken), lang=lang, cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == said.format(path=taken), done.stderr
    assert taken.read_text() == "not a folder"  # nothing changed


def test_a_store_simulation_reports_in_the_operators_language(tmp_path: Path) -> None:
    done = unobot("simulate", "--store", "memory", "--games", "3", "--players", "3", "--seed", "1",
                  lang="es_ES.UTF-8", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first, audit = done.stdout.strip().splitlines()
    assert first.startswith("3 partidas, ") and " jugadas guardadas en " in first and "(1 proceso, almacén memory)" \
        in first, first
    assert audit.startswith("auditadas 3/3: cada registro se reproduce hasta su estado guardado, cartas "
                            "conservadas; 0 conflictos al guardar; victorias por asiento: "), audit


def test_a_command_that_fails_to_load_is_warned_of_in_the_operators_language(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A third party's command whose package is broken: the other commands still work, and
    the warning was English whatever the operator read."""
    from unobot import cli

    class Broken:
        name = "broken"

        def load(self) -> None:
            raise ImportError("no module named 'broken_pkg'")

    monkeypatch.setattr(cli, "command_entry_points", lambda argv, core: [Broken()])
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "argv", ["unobot", "--help"])
    parser = cli.build_parser(["--help"])
    assert "simulate" in parser.format_help()
    said = capsys.readouterr().err.strip()
    assert said == "advertencia: no se pudo cargar el comando broken: ImportError(\"no module named 'broken_pkg'\")", said
