"""Variants: shipped ones resolve; broken ones are refused with the file,
the line and the fix, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from unobot.engine import new_game
from unobot.variants import VariantError, parse_variant, resolve, rules_for, variant_names

SHIPPED = ["official", "reglas-de-uno", "party", "fast"]


def test_shipped_variants_exist() -> None:
    assert set(SHIPPED) <= set(variant_names())


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_variant_resolves_and_deals(name: str) -> None:
    rules = rules_for(name)
    state, _ = new_game(name, ["a", "b", "c", "d"], seed=2)
    assert len(state.all_cards()) == 108
    assert rules.fingerprint == state.fingerprint


def test_reglas_decisions() -> None:
    r = resolve("reglas-de-uno").rules
    assert "challenge" not in r and "no-bluffing" in r and "color-first" in r
    assert r["starter"]["reverse_first"] == "other_side"
    assert r["stacking"] == {"draw_two_on_draw_two": True, "draw_four_on_draw_four": False,
                             "draw_four_on_draw_two": False, "draw_two_on_draw_four": False,
                             "optional": True}


def test_extends_merges_options() -> None:
    r = resolve("fast").rules
    assert r["turn-timer"]["seconds"] == 15 and r["scoring"]["target"] == 200
    assert r["uno-call"] == {"penalty": 2}  # inherited from official


def write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "broken.yaml"
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("name: x\nrules:\n  stackng: {}\n", 3, ["unknown rule 'stackng'", "did you mean 'stacking'"]),
        ("name: x\nrules:\n  stacking:\n    optional: maybe\n", 4, ["must be true or false", "options of 'stacking'"]),
        ("name: x\nrules:\n  stacking:\n    colour: 1\n", 4, ["has no option 'colour'"]),
        ("name: x\nrules: [a, b]\n", 2, ["must map rule names"]),
        ("name: x\nrules:\n  stacking: {optional: true\n", 4, ["not valid YAML"]),
        ("name: x\nextends: official\nrules:\n  no-bluffing: {}\n", 4, ["conflicts with 'challenge'", "challenge: false"]),
        ("name: x\nflavour: 2\n", 2, ["unknown key 'flavour'"]),
        ("name: x\nextends: nope\n", None, ["unknown variant 'nope'"]),
        ("name: x\nrules:\n  deck: {hand_size: seven}\n", 3, ["must be a whole number"]),
    ],
)
def test_broken_variant_names_file_line_and_fix(tmp_path: Path, text: str, line: int | None, words: list[str]) -> None:
    path = write(tmp_path, text)
    with pytest.raises(VariantError) as info:
        resolve(path)
    message = str(info.value)
    if line is not None:
        assert f"broken.yaml:{line}:" in message, message
    for w in words:
        assert w in message, message
    if "unknown variant" not in message:
        assert "fix:" in message


def test_parse_variant_title_languages() -> None:
    v = parse_variant("name: t\ntitle: {en: Tee, es: Te}\n", "t.yaml")
    assert v.label("es") == "Te" and v.label("fr") == "Tee"


def test_cli_reports_broken_variant_without_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nrules:\n  stacking: {optional: 3}\n")
    proc = subprocess.run([sys.executable, "-m", "unobot.cli", "variants", path],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "broken.yaml:3" in proc.stderr and "Traceback" not in proc.stderr


def test_third_party_rule_by_name_in_a_variant(tmp_path: Path) -> None:
    path = write(tmp_path, "name: skippy\nextends: official\nrules:\n  double-skip: {players: 2}\n")
    rules = rules_for(path)
    assert rules.enabled("double-skip")
    assert rules.options["double-skip"].players == 2


def test_a_rule_that_requires_another_is_refused_without_it(tmp_path: Path) -> None:
    from tests.rulekit import extra_rule
    from unobot.rule import Rule

    class NeedsStacking(Rule):
        """Needs stacking: only meaningful where draw cards stack."""

        name = "needs-stacking"
        requires = ("stacking",)

    with extra_rule(NeedsStacking):
        path = write(tmp_path, "name: x\nextends: official\nrules:\n  needs-stacking: {}\n")
        with pytest.raises(VariantError) as info:
            resolve(path)
        assert "broken.yaml:4" in str(info.value) and "needs rule 'stacking'" in str(info.value)
        assert "fix: turn it on: `stacking: {}`" in str(info.value)
        ok = write(tmp_path, "name: x\nextends: official\nrules:\n  needs-stacking: {}\n  stacking: {}\n")
        assert "needs-stacking" in resolve(ok).rules


def test_a_game_keeps_its_rules_when_the_variant_file_changes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A game plays to its end under the rules it started with (issue: a log
    determines a game); a new game takes today's file."""
    import os

    from unobot.engine import legal_moves, new_game, rules_of
    from unobot.state import GameState
    from unobot.variants import clear_caches

    path = tmp_path / "mine.yaml"
    path.write_text("extends: official\nrules: {stacking: {}, seven-o: {}}\n")
    state, _ = new_game(str(path), ["a", "b", "c"], seed=9)
    saved = state.encode()
    path.write_text("extends: official\nrules: {must-play: {}}\n")
    os.utime(path, (1, 1))  # a different mtime, whatever the clock
    clear_caches()
    again = GameState.decode(saved)
    rules = rules_of(again)
    assert rules.enabled("stacking") and rules.enabled("seven-o") and not rules.enabled("must-play")
    assert legal_moves(again, again.turn) == legal_moves(state, state.turn)
    fresh, _ = new_game(str(path), ["a", "b", "c"], seed=9)
    assert rules_of(fresh).enabled("must-play") and not rules_of(fresh).enabled("stacking")
