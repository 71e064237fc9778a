"""A scenario with a card the runner cannot read says where and how to write it.

Before, `unobot scenario` said "setup: hands.ana: unknown card 'X9'" at the
line of `setup:`, and a move's card only "was refused (bad_move)": nothing
said which line, what was meant or how a card is written, unlike a broken
variant (file, line and a fix). Run through the command, as an author does.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SETUP = """\
name: a card nobody can read
variant: {variant}
players: [ana, ben]
setup:
  hands:
    ana: [R5, {card}]
    ben: [B2, G3]
  discard: [R3]
  draw: [G2, G4]
  turn: ana
steps:
  - ana: {move}
  - expect:
      hand: {{ana: [{expected}]}}
"""


def scenario(tmp_path: Path, *, variant: str = "official", card: str = "R9", move: str = "play R5",
             expected: str = "R9") -> list[str]:
    path = tmp_path / "card.yaml"
    path.write_text(SETUP.format(variant=variant, card=card, move=move, expected=expected))
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "scenario", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stdout + done.stderr
    return done.stdout.splitlines()


def test_an_unknown_card_in_a_hand_names_its_line_and_the_nearest_codes(tmp_path: Path) -> None:
    said = scenario(tmp_path, card="X9")
    assert said[1] == "  scenario (line 6): setup: hands.ana: unknown card 'X9'"
    assert said[2] == ("    fix: did you mean Y9, R9, G9 or B9? A card is its colour letter (R, G, B, Y) and its "
                       "rank (0-9, S skip, R reverse, +2), or W and W+4 for the wilds")


def test_an_unknown_card_in_a_move_or_an_expectation_says_so_with_a_fix(tmp_path: Path) -> None:
    said = scenario(tmp_path, move="play R55")
    assert said[1] == ("  step 1 (line 12): ana: play R55 was refused (bad_move: unknown card 'R55'), "
                       "expected it to be accepted")
    assert said[2].startswith("    fix: did you mean R5? A card is its colour letter")
    said = scenario(tmp_path, expected="RX")
    assert said[1] == "  step 2 (line 14): hand.ana: unknown card 'RX'"
    assert said[2].startswith("    fix: did you mean ") and "A card is its colour letter" in said[2]


def test_a_variants_own_cards_are_listed_by_their_codes(tmp_path: Path) -> None:
    said = scenario(tmp_path, variant="no-mercy", card="W+6X")
    assert said[1] == "  scenario (line 6): setup: hands.ana: unknown card 'W+6X'"
    assert said[2].startswith("    fix: did you mean W+6")
    assert "; this variant's other cards: " in said[2] and "W+10" in said[2] and "WCR" in said[2]


def test_a_scenario_file_that_is_not_there_is_one_failure_not_a_traceback(tmp_path: Path) -> None:
    """`unobot scenario nofile.yaml` printed a FileNotFoundError traceback."""
    missing = tmp_path / "nofile.yaml"
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "scenario", str(missing)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.splitlines() == [f"FAIL {missing}: nofile", f"  scenario: {missing}: no such file",
                                        "0 passed, 1 failed"]


def test_a_scenarios_faults_are_said_in_the_authors_language(tmp_path: Path) -> None:
    """Where a scenario is wrong and how to fix it were English whatever the author read
    (`unobot scenario` said only "escenario (línea 6):" in Spanish, then "unknown card
    'X9'", "unknown expectation key", "did you mean"): now every part, with `--lang` or the
    locale; the keys, codes and values the file wrote stay as written."""
    card = tmp_path / "card.yaml"
    card.write_text(SETUP.format(variant="official", card="X9", move="play R5", expected="R9"))
    key = tmp_path / "key.yaml"
    key.write_text(SETUP.format(variant="official", card="R9", move="play R5", expected="R9")
                   .replace("      hand: {ana: [R9]}", "      hnd: {ana: [R9]}"))
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: x\nplayers: [ana, ben\nsetup: {}\n")
    who = tmp_path / "who.yaml"
    who.write_text(SETUP.format(variant="official", card="R9", move="play R5", expected="R9")
                   .replace("  turn: ana", "  turn: zoe"))
    missing = tmp_path / "nofile.yaml"
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "scenario", "--lang", "es", str(card), str(key),
                           str(broken), str(who), str(missing)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    said = done.stdout.splitlines()
    assert said[1] == "  escenario (línea 6): setup: hands.ana: carta desconocida 'X9'", said
    assert said[2] == ("    solución: ¿quisiste decir Y9, R9, G9 o B9? Una carta es la letra de su color (R, G, B, Y) "
                       "y su valor (0-9, S salto, R cambio de sentido, +2), o W y W+4 para los comodines"), said
    assert said[4] == "  paso 2 (línea 14): clave de expectativa desconocida 'hnd'", said
    assert said[5] == "    solución: ¿quisiste decir 'hand'?", said
    assert said[7].startswith(f"  escenario: {broken}:3: esto no es YAML válido: "), said
    assert said[8] == "    solución: revisa la sangría y la forma `clave: valor` cerca de esa línea", said
    assert said[10] == "  escenario (línea 10): setup: turn: 'zoe' no es un jugador", said
    assert said[11] == "    solución: los jugadores son ana, ben", said
    assert said[13] == f"  escenario: {missing}: no existe ese archivo", said
    assert said[-1] == "0 superados, 5 fallidos"


def test_an_unknown_card_in_a_move_is_said_in_the_authors_language(tmp_path: Path) -> None:
    """"(bad_move: unknown card 'R55')" stayed English inside a Spanish line: the
    engine's own detail. Now the card is said as a scenario's own unknown card is;
    the refusal's code stays as written."""
    path = tmp_path / "move.yaml"
    path.write_text(SETUP.format(variant="official", card="R9", move="play R55", expected="R9"))
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "scenario", "--lang", "es", str(path)],
                          capture_output=True, text=True, timeout=60)
    said = done.stdout.splitlines()
    assert "(bad_move: carta desconocida 'R55')" in said[1] and "unknown card" not in said[1], said
    assert said[2].startswith("    solución: ¿quisiste decir R5?"), said
