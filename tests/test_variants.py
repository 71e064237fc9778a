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
        ("name: x\nextends: nope\n", 2, ["unknown variant 'nope'"]),  # said where `extends` names it
        ("name: x\ntitle: {en: X}\nextends: offical\n", 3, ["unknown variant 'offical'", "did you mean 'official'"]),
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
        # and in Spanish, in the file's spelling and in --rule's
        assert_translated(info.value, f"{path}:4", ["la regla 'needs-stacking' necesita la regla 'stacking'",
                                                    "solución: actívala: `stacking: {}`"])
        with pytest.raises(VariantError) as flag:
            resolve("official", {"needs-stacking": {}}, "--rule")
        assert "solución: actívala: `--rule stacking`" in flag.value.text("es")
        assert "fix: turn it on: `stacking: {}`" in str(info.value)
        ok = write(tmp_path, "name: x\nextends: official\nrules:\n  needs-stacking: {}\n  stacking: {}\n")
        assert "needs-stacking" in resolve(ok).rules


def test_a_rule_that_requires_a_rule_nobody_installed_is_not_told_to_turn_it_on(tmp_path: Path) -> None:
    """Turning on a rule that is not installed only gives "unknown rule": the
    fix is the plugin (a `requires` typo, or the plugin that has it missing)."""
    from tests.rulekit import extra_rule
    from unobot.rule import Rule

    class NeedsGhost(Rule):
        """Needs a rule nobody installed."""

        name = "needs-ghost"
        requires = ("ghost-rule",)

    with extra_rule(NeedsGhost):
        path = write(tmp_path, "name: x\nextends: official\nrules:\n  needs-ghost: {}\n")
        with pytest.raises(VariantError) as info:
            resolve(path)
        message = str(info.value)
        assert "broken.yaml:4" in message and "needs rule 'ghost-rule'" in message
        assert "fix: reinstall or fix the plugin, or turn the rule off" in message
        assert "turn it on" not in message


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


# -- the errors in the reader's language ------------------------------------------------

def _msgids(msg: object) -> list[str]:
    """Every msgid of a Msg and of the Msgs among its parameters."""
    from unobot.chat.i18n import Joined, Msg

    if isinstance(msg, Joined):
        return [m for part in msg.parts for m in _msgids(part)]
    if not isinstance(msg, Msg):
        return []
    return [msg.msgid, *(m for value in msg.params.values() for m in _msgids(value))]


def assert_translated(exc: VariantError, where: str, spanish: list[str]) -> None:
    """English as str() and text("en"); Spanish from text("es"): the same place, every
    part of the message and the fix translated, the fix on its own line."""
    from unobot.chat.i18n import translations

    english, es = str(exc), exc.text("es")
    assert exc.text() == english == exc.text("en")
    assert english.startswith(where + ": ") and es.startswith(where + ": "), (english, es)
    assert es != english
    for part in spanish:
        assert part in es, (part, es)
    if exc.fix:
        assert "\n  fix: " in english and "\n  solución: " in es and "fix:" not in es, es
    catalogue = translations("es")
    for msgid in _msgids(exc.msg) + _msgids(exc.fix_msg):
        if msgid != "{text}":  # a library's own words (PyYAML's), shown as they are
            assert catalogue.gettext(msgid) != msgid, f"not translated: {msgid!r}"


@pytest.mark.parametrize(
    "text, line, spanish",
    [
        ("name: x\nrules:\n  stackng: {}\n", 3,
         ["regla desconocida: 'stackng'", "solución: ¿querías decir 'stacking'? reglas conocidas: "]),
        ("name: x\nrules:\n  stacking:\n    optional: maybe\n", 4,
         ["la opción 'optional' de la regla 'stacking' debe ser true o false, no 'maybe'",
          "solución: opciones de 'stacking': draw_two_on_draw_two: true o false (por defecto true); "]),
        ("name: x\nrules:\n  stacking:\n    colour: 1\n", 4,
         ["la regla 'stacking' no tiene la opción 'colour' (sus opciones: draw_two_on_draw_two,"]),
        ("name: x\nrules:\n  deck: {hand_size: 31}\n", 3,
         ["la opción 'hand_size' de la regla 'deck' debe ser un número entero del 1 al 30, no 31"]),
        ("name: x\nrules:\n  deck: {hand_size: seven}\n", 3, ["debe ser un número entero del 1 al 30, no 'seven'"]),
        ("name: x\nrules:\n  stacking: 3\n", 3,
         ["la regla 'stacking' lleva un mapa de opciones, true o false",
          "escribe `stacking: {}` para activarla, `stacking: false` para desactivarla"]),
        ("name: x\nrules: [a, b]\n", 2, ["`rules` debe asociar nombres de reglas con sus opciones",
                                         "escribe `rules: {stacking: {optional: true}}`"]),
        ("name: x\nrules:\n  stacking: {optional: true\n", 4,
         ["esto no es YAML válido: ", "revisa la sangría"]),
        ("name: x\nextends: official\nrules:\n  no-bluffing: {}\n", 4,
         ["la regla 'no-bluffing' es incompatible con 'challenge': no pueden estar activas a la vez",
          "solución: desactiva una, p. ej. `challenge: false`"]),  # YAML's spelling in a YAML file
        ("name: x\nflavour: 2\n", 2, ["clave desconocida: 'flavour'", "claves permitidas: description, extends"]),
        ("name: x\ntitle: [a]\n", 2, ["`title` debe ser un texto o un mapa de idioma a texto",
                                      "escribe `title: {en: ..., es: ...}`"]),
        ("name: x\norder: [stacking, nope]\n", 2, ["regla desconocida en `order`: 'nope'"]),
        ("name: x\norder: 3\n", 2, ["`order` es una lista de nombres de reglas"]),
        ("name: [x]\n", 1, ["`name` debe ser un texto", "escribe `name: mi-variante`"]),
        ("name: x\nextends: [a]\n", 2, ["`extends` nombra una variante", "escribe `extends: official`"]),
        ("- a\n- b\n", 1, ["una variante es un mapa con `name`, `extends` y `rules`"]),
    ],
)
def test_a_broken_variant_file_in_spanish_names_file_line_and_fix(
        tmp_path: Path, text: str, line: int, spanish: list[str]) -> None:
    """A YAML file's error read by a Spanish reader: still the file and the
    line, the message and the fix in Spanish; str() stays English (logs, admins)."""
    path = write(tmp_path, text)
    with pytest.raises(VariantError) as info:
        resolve(path)
    assert_translated(info.value, f"{path}:{line}", spanish)
    assert info.value.fix  # every one of these says how to fix it


def test_variant_errors_without_a_line_in_spanish(tmp_path: Path) -> None:
    from unobot.variants import (
        clear_caches,
        find_variant,
        known_variant,
        load_variant,
        rules_from_spec,
    )

    with pytest.raises(VariantError) as info:
        resolve("officail")
    assert_translated(info.value, "officail", ["variante desconocida: 'officail'",
                                               "solución: ¿querías decir 'official'? variantes conocidas: "])
    with pytest.raises(VariantError) as info:
        known_variant("../etc")
    assert_translated(info.value, "../etc", ["variante desconocida: '../etc'", "variantes conocidas: "])
    with pytest.raises(VariantError) as info:
        find_variant("Not A Name")
    assert_translated(info.value, "Not A Name", ["'Not A Name' no es un nombre de variante",
                                                 "un nombre de variante lleva letras minúsculas"])
    with pytest.raises(VariantError) as info:
        find_variant(str(tmp_path / "gone.yaml"))
    assert_translated(info.value, str(tmp_path / "gone.yaml"), ["no existe ese archivo de variante"])
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"name: latin\ntitle: {en: Espa\xf1a}\n")
    with pytest.raises(VariantError) as info:
        load_variant(str(latin))
    assert_translated(info.value, f"{latin}:2", ["el archivo no es texto UTF-8", "guárdalo como UTF-8"])
    huge = tmp_path / "huge.yaml"
    huge.write_text("name: huge\n" + "# padding\n" * 20_000)
    with pytest.raises(VariantError) as info:
        load_variant(str(huge))
    assert_translated(info.value, str(huge), ["el archivo ocupa más de 64 KB"])
    (tmp_path / "a.yaml").write_text("extends: " + str(tmp_path / "b.yaml") + "\n")
    (tmp_path / "b.yaml").write_text("extends: " + str(tmp_path / "a.yaml") + "\n")
    with pytest.raises(VariantError) as info:
        resolve(str(tmp_path / "a.yaml"))
    assert_translated(info.value, info.value.source, ["`extends` vuelve sobre sí mismo"])
    clear_caches()
    with pytest.raises(VariantError) as info:
        rules_from_spec("official", [["gone-rule", {}]])
    assert_translated(info.value, "official", ["la regla 'gone-rule' de esta partida no está disponible",
                                               "vuelve a instalar el plugin, o termina la partida"])


def test_overrides_errors_in_spanish_with_the_command_lines_spelling() -> None:
    """`--rule` errors: the hint is spelled as the command line takes it, in either language."""
    from unobot.cli import parse_rule_overrides

    with pytest.raises(VariantError) as info:
        resolve("official", parse_rule_overrides(["no-bluffing"]), "--rule")
    assert_translated(info.value, "--rule", ["la regla 'no-bluffing' es incompatible con 'challenge'",
                                             "solución: desactiva una, p. ej. `--rule challenge=false`"])
    with pytest.raises(VariantError) as info:  # the rule from the variant's file is the one offered to turn off
        resolve("reglas-de-uno", parse_rule_overrides(["challenge"]), "--rule")
    assert info.value.source == "--rule" and "`--rule no-bluffing=false`" in info.value.text("es")
    with pytest.raises(VariantError) as info:
        parse_rule_overrides(["jump-in=maybe"])
    assert_translated(info.value, "--rule jump-in=maybe",
                      ["una regla se activa o desactiva con true o false, no con 'maybe'",
                       "solución: `--rule jump-in` la activa, `--rule jump-in=false` la desactiva"])
    with pytest.raises(VariantError) as info:  # unknown before not on/off
        parse_rule_overrides(["nonsense=1"])
    assert_translated(info.value, "--rule", ["regla desconocida: 'nonsense'", "reglas conocidas: "])
    # a value YAML cannot read is a text the option's check refuses, not a parser's error
    assert parse_rule_overrides(["deck.hand_size=[1"]) == {"deck": {"hand_size": "[1"}}
    with pytest.raises(VariantError) as info:
        resolve("official", {"deck": {"hand_size": "[1"}}, "--rule")
    assert_translated(info.value, "--rule", ["debe ser un número entero del 1 al 30, no '[1'"])


def test_option_errors_and_option_descriptions_in_spanish() -> None:
    from typing import Literal

    from unobot.registry import available_rules
    from unobot.rule import OptionError, build_options, describe_type, option_specs

    deck = available_rules()["deck"]
    with pytest.raises(OptionError) as info:
        build_options(deck, {"hand_size": 200})
    assert str(info.value) == info.value.message == info.value.text() == \
        "option 'hand_size' of rule 'deck' must be a whole number from 1 to 30, not 200"
    assert info.value.text("es") == "la opción 'hand_size' de la regla 'deck' debe ser un número entero " \
                                    "del 1 al 30, no 200"
    spec = option_specs(deck)[0]
    assert spec.describe() == "a whole number from 1 to 30" and spec.describe("es") == "un número entero del 1 al 30"
    assert describe_type(Literal["a", "b"], "es") == "uno de estos: 'a', 'b'"
    assert describe_type(int | None) == "a whole number (or null)"
    assert describe_type(int | str | None, "es") == "un número entero o un texto (o null)"
