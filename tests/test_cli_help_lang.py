"""Every `unobot` command's help, and argparse's words around it, in the reader's language.

Before, only `unobot play --help` was translated: `unobot --help`,
`unobot telegram --help` (whose texts were in the catalogues, looked up in
English), `replay`, `audit`, `simulate`, `variants`, ... spoke English to
an operator whose locale or `--lang` asked for another language. Now the
commands register English msgids and every parser's formatter says them in
the reader's language (core/cli_text.py). Through `unobot.cli.main`, as
the command runs, and once as a process with only LANG set.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from unobot.chat.i18n import LANGUAGES, LOCALE_DIR, gettext_for
from unobot.cli import build_parser, main

#: The commands of unobot's own, each of whose help texts the catalogue must hold.
OURS = ("variants", "rules", "i18n", "scenario", "simulate", "replay", "audit", "cards", "discord", "play",
        "telegram", "web")


def _msgids() -> set[str]:
    with (Path(LOCALE_DIR) / "unobot.pot").open("rb") as f:
        return {m.id for m in read_po(f) if isinstance(m.id, str)}


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue() + err.getvalue()


def _flat(text: str) -> str:
    return " ".join(text.split())


def _helps(parser: argparse.ArgumentParser) -> list[str]:
    return [a.help for a in parser._actions if a.help and a.help != argparse.SUPPRESS]  # noqa: SLF001


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "2000")  # one line a text: no text is cut where it wraps
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_commands_help_is_in_the_readers_language(lang: str) -> None:
    _ = gettext_for(lang)
    msgids = _msgids()
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    code, text = _run(["--help", "--lang", lang])
    flat = _flat(text)
    assert text.startswith(_("usage: ")) and _flat(_("UNO, with rules as plugins.")) in flat, text
    for choice in commands._choices_actions:  # noqa: SLF001 - each command's line in the list
        if choice.dest in OURS:
            assert choice.help in msgids, choice.help
            assert _flat(_(choice.help)) in flat, (choice.dest, _(choice.help), text)
    for name in OURS:
        code, text = _run([name, "--help", "--lang", lang])
        assert code == 0, text
        flat = _flat(text)
        assert text.startswith(_("usage: ") + f"unobot {name}"), text
        assert _flat(_("show this help message and exit")) in flat or name == "play", text
        for help_text in _helps(commands.choices[name]):
            assert help_text in msgids, (name, help_text)
            assert _flat(_(help_text)) in flat, (name, _(help_text), text)


def test_argparses_refusals_and_the_commands_own_are_in_the_readers_language() -> None:
    _ = gettext_for("es")
    code, text = _run(["web", "--port", "99999", "--lang", "es"])
    assert code == 2 and "unobot web: error: argumento --port: 99999 no es un puerto TCP (0-65535)" in text, text
    code, text = _run(["telegram", "--port", "0", "--lang", "es"])
    assert code == 2 and "0 (cualquier puerto libre) no sirve aquí" in text, text
    code, text = _run(["variants", "--lang", "xx"])  # no language asked that it knows: English
    assert code == 2 and "unknown language 'xx'" in text
    code, text = _run(["simulate", "--players", "x", "--lang", "de"])
    assert code == 2 and text.startswith("Aufruf: unobot simulate") and "usage" not in text, text
    code, text = _run(["no-such-command", "--lang", "es"])
    assert code == 2 and _("invalid choice: %(value)r (choose from %(choices)s)").split("%")[0] in text, text


def test_the_locale_alone_chooses_the_language() -> None:
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "replay", "--help"], capture_output=True, text=True,
                          env={"LANG": "ru_RU.UTF-8", "COLUMNS": "2000", "PATH": "/usr/bin:/bin"}, timeout=60)
    _ = gettext_for("ru")
    assert done.returncode == 0 and done.stdout.startswith(_("usage: ")), done.stdout + done.stderr
    assert _("replay every stored game; exit 1 on any mismatch") not in done.stdout  # another command's
    assert _("a kept finished game: N-th newest (1 = last) or its id") in done.stdout, done.stdout


def test_replay_and_variants_refuse_in_the_readers_language(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    """`unobot replay` told a game in the reader's language and refused in
    English ("error: name a chat ..."); `unobot variants NAME` said a
    translated reason after an English "error:"."""
    monkeypatch.chdir(tmp_path)  # no config.yaml here: the defaults
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, text = _run(["replay"])
    assert code == 2 and text.strip() == "Fehler: nenne einen Chat (oder nur --last für das letzte beendete Spiel " \
                                         "jedes Chats)", text
    code, text = _run(["variants", "nope", "--lang", "fr"])
    assert code == 2 and text.startswith("erreur : nope: variante inconnue 'nope'"), text
