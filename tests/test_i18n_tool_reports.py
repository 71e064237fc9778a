"""The developer and operator tools speak their reader's language: `unobot
scenario`, `unobot simulate`, `unobot audit` and `unobot i18n check` said
their reports in English to an operator whose locale is Polish or Arabic.
What scripts read stays the same in every language (a scenario's `PASS`/
`FAIL` and file, an audit's `MISMATCH <game id>`, the catalogue columns,
simulate's `--json`), and the counts take each language's plural forms."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from unobot.adapters.audit_cli import mismatch_line, summary_line
from unobot.chat.audit import TableAudit
from unobot.chat.i18n import N_, Msg
from unobot.scenario import summary_line as scenario_summary

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "tests" / "scenarios"


def run(*args: str, lang: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    return subprocess.run([sys.executable, "-m", "unobot.cli", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env={**env, "LANG": lang})


@pytest.mark.parametrize(("n", "games", "mismatches"), [
    (1, "1 grę", "1 niezgodność"), (2, "2 gry", "2 niezgodności"), (5, "5 gier", "5 niezgodności"),
    (21, "21 gier", "21 niezgodności"), (22, "22 gry", "22 niezgodności")])
def test_an_audit_s_summary_takes_polish_plural_forms(n: int, games: str, mismatches: str) -> None:
    assert summary_line(n, n, "pl") == f"odtworzono {games}, {mismatches}"


def test_an_audit_s_summary_in_english_russian_and_arabic() -> None:
    assert summary_line(1, 0, "en") == "1 game replayed, 0 mismatches"  # not "1 games"
    assert summary_line(2, 1, "en") == "2 games replayed, 1 mismatch"
    assert summary_line(21, 22, "ru") == "переиграна 21 игра, 22 расхождения"
    assert summary_line(2, 11, "ar") == "أُعيدت لعبتان، 11 اختلافًا"


def test_a_mismatch_line_keeps_its_head_for_scripts_and_says_the_rest_in_the_reader_s_words() -> None:
    why = Msg(N_("the log replays to a different game (moves {replayed} replayed, {stored} stored)"),
              replayed=3, stored=4)
    result = TableAudit("g1", "-100", 9, False, why.text(), True, why)
    assert mismatch_line(result, "en") == \
        "MISMATCH g1 (chat -100): the log replays to a different game (moves 3 replayed, 4 stored)"
    german = mismatch_line(result, "de")
    assert german.split()[:2] == ["MISMATCH", "g1"] and "(Chat -100): " in german and "anderes Spiel" in german
    assert mismatch_line(result, "zh_CN", finished=True).startswith("MISMATCH finished g1 （聊天 -100）：")


def test_scenario_s_summary_in_every_plural_slot() -> None:
    assert scenario_summary(6, 0, "en") == "6 passed, 0 failed"
    assert scenario_summary(1, 22, "uk") == "1 пройшов, 22 не пройшли"


def test_unobot_scenario_reports_in_the_locale_s_language(tmp_path: Path) -> None:
    missing = tmp_path / "nofile.yaml"
    done = run("scenario", str(SCENARIO / "official" / "skip.yaml"), str(missing), lang="de_DE.UTF-8")
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stderr
    assert lines[0].startswith(f"PASS {SCENARIO / 'official' / 'skip.yaml'}: ")  # what scripts read
    assert lines[1] == f"FAIL {missing}: nofile"
    assert lines[2] == f"  Szenario: {missing}: keine solche Datei"  # what is wrong too, not only where
    assert lines[-1] == "1 bestanden, 1 fehlgeschlagen"


def test_unobot_simulate_reports_in_the_locale_s_language_and_its_json_does_not_change() -> None:
    said = run("simulate", "--games", "2", "--players", "3", lang="pl_PL.UTF-8")
    assert said.returncode == 0, said.stderr
    assert said.stdout.startswith("2 gry, ") and "wygrane na miejsce: " in said.stdout, said.stdout
    polish = run("simulate", "--games", "2", "--players", "3", "--json", lang="pl_PL.UTF-8")
    english = run("simulate", "--games", "2", "--players", "3", "--json", lang="C.UTF-8")
    data = json.loads(polish.stdout)
    assert data["games"] == 2 and set(data) == set(json.loads(english.stdout))


def test_unobot_i18n_check_reports_in_the_locale_s_language() -> None:
    said = run("i18n", "check", "--lang", "de", lang="es_ES.UTF-8")
    lines = said.stdout.splitlines()
    assert said.returncode == 0, said.stdout + said.stderr
    assert lines[0].startswith("catálogo unobot (") and lines[0].endswith("idioma  traducidas/total  fallos")
    german = next(line for line in lines if line.split()[0] == "de")
    # The columns read the same in every language; the verdict is the reader's.
    assert german.split()[1].count("/") == 1 and german.split()[2] == "100.0%" and german.endswith("correcto")


def test_unobot_variants_says_a_broken_variant_in_the_list_s_language(tmp_path: Path) -> None:
    (tmp_path / "rota.yaml").write_text("name: rota\nrules: [oops\n", encoding="utf-8")  # YAML that does not parse
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "variants", "--lang", "es"], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env={**env, "UNOBOT_VARIANTS_PATH": str(tmp_path)})
    line = next(x for x in done.stdout.splitlines() if x.startswith("rota "))
    assert "no se puede cargar: " in line and "BROKEN" not in line, line


def test_lost_acknowledged_moves_are_said_in_the_reader_s_language() -> None:
    from unobot.store import Receipt, acknowledgement_lapse, acknowledgement_problem

    receipt = Receipt("g7", 3, 5, "digest")
    lost = acknowledgement_lapse(receipt, 2, ["x"] * 4)
    assert lost is not None and acknowledgement_problem(receipt, 2, ["x"] * 4) == lost.text()
    result = TableAudit("g7", "-902", 4, False, lost.text(), True, lost)
    assert mismatch_line(result, "en") == ("MISMATCH g7 (chat -902): acknowledged moves lost: version 3 "
                                           "(5 log entries) was acknowledged, the store holds version 2 with 4")
    polish = mismatch_line(result, "pl")
    assert polish.startswith("MISMATCH g7 (czat -902): utracono potwierdzone ruchy: ") and "wersję 3" in polish


def test_a_catalogue_s_faults_are_counted_in_the_reader_s_plural_forms() -> None:
    from unobot.chat.i18n_check import Report

    report = Report("ru", Path("ru.po"), total=30, translated=8, missing=["a"] * 22, fields=["b"] * 21,
                    plurals=["c"] * 5, forms=(2, 3), header="Plural-Forms says 2 forms, ru has 3")
    assert report.line() == ("ru         8/30     26.7%  22 missing; 21 placeholder faults; 5 plural-form faults; "
                             "Plural-Forms says 2 forms, ru has 3")
    # The columns read the same; the faults in Polish, each count in its own form (22, 21, 5).
    assert report.line("pl") == ("ru         8/30     26.7%  22 brakujące; 21 błędów pól; 5 błędów form liczby "
                                 "mnogiej; Plural-Forms podaje 2 formy, ru ma ich 3")


def test_unobot_cards_says_where_to_write_in_the_locale_s_language() -> None:
    done = run("cards", lang="ru_RU.UTF-8")
    assert done.returncode == 2
    assert done.stderr.strip() in ("ошибка: укажите, куда: --out DIR (картинка для каждой карты) и/или --sheets DIR "
                                   "(лист для каждого варианта)",
                                   "ошибка: для рисования карт нужен Pillow: pip install 'unobot[cards]'"), done.stderr


def test_a_failing_scenario_is_explained_in_the_locale_s_language(tmp_path: Path) -> None:
    """The failure's own sentence too, not only where it is: a German author read
    "Schritt 3 (Zeile 14): turn: expected 'ben', got 'cat'" before."""
    path = tmp_path / "skip.yaml"
    text = (SCENARIO / "official" / "skip.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("- expect: {turn: cat, top: RS}", "- expect: {turn: ben, top: RS}"), encoding="utf-8")
    said = run("scenario", str(path), lang="de_DE.UTF-8").stdout.splitlines()
    assert said[0].startswith(f"FAIL {path}: ")
    assert said[1] == "  Schritt 2 (Zeile 15): turn: erwartet 'ben', erhalten 'cat'", said
    english = run("scenario", str(path), lang="C.UTF-8").stdout.splitlines()
    assert english[1] == "  step 2 (line 15): turn: expected 'ben', got 'cat'", english
