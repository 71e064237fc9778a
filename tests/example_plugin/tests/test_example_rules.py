"""The example plugin's own tests, written as a third-party author would:
with `unobot.testing` and the public API only (no private module of
unobot), against the installed package."""

from __future__ import annotations

from pathlib import Path

import pytest

from unobot import testing

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"

SEVENS = {
    "players": ["ana", "ben", "cat"],
    "variant": "example-party",
    "rules": {"sticky-seven": {}},
    "setup": {"hands": {"ana": "R7 G1", "ben": "B7 B2", "cat": "Y1 Y2"}, "discard": "R3",
              "draw": "G2 G4 B5 Y3 Y4 Y5"},
}


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_scenarios(path: Path) -> None:
    testing.scenario(path)


def test_a_seven_puts_a_pending_draw_on_the_next_player() -> None:
    t = testing.table(SEVENS)
    t.play("ana", "play R7")
    assert t.state.pending == 2 and t.players[t.state.turn] == "ben"
    assert t.texts("en") == ["ana played Red 7.", "ben must draw 2, or answer it."]
    assert t.texts("es")[1] == "ben debe robar 2 o responder."
    t.refused("ben", "play B2", "pending_draw",
              says={"es": "Debes robar las cartas acumuladas (o responder, si alguna regla lo permite)."})
    t.play("ben", "play B7")  # answered with a 7: 4 now, on cat
    t.expect(pending_draw=4, turn="cat")
    t.play("cat", "draw")
    assert len(t.hand("cat")) == 6 and t.kinds()[0] == "penalty_taken"


def test_a_seven_is_taken_at_once_when_the_option_says_more() -> None:
    t = testing.table({**SEVENS, "rules": {"sticky-seven": {"cards": 3}}})
    t.play("ana", "play R7")
    t.play("ben", "draw")
    assert len(t.hand("ben")) == 5 and t.players[t.state.turn] == "cat"


def test_sticky_seven_conflicts_with_seven_o() -> None:
    with pytest.raises(AssertionError, match="seven-o"):
        testing.table({**SEVENS, "rules": {"sticky-seven": {}, "seven-o": {}}})


def test_its_option_help_and_title_are_translated() -> None:
    from unobot_example_rule import StickySeven

    assert StickySeven.option_help("cards", "es") == "cartas que un 7 hace robar al siguiente"
    assert StickySeven.option_title("cards", "es") == "Cartas por 7"
    assert StickySeven.option_title("cards", "en") == "Cards per 7"


REPORT = {
    "players": ["ana", "ben", "cat"],
    "variant": "example-party",
    "rules": {"match-report": {}, "scoring": {"target": 10}},
    "setup": {"hands": {"ana": "R1", "ben": "B5 B7", "cat": "Y1"}, "discard": "R3", "draw": "G2 G4 G5"},
}


def reports(t: testing.Table, lang: str) -> list[str]:
    return [line for line in t.texts(lang) if line.startswith(("Match report", "Resumen", "The match", "La partida"))]


def test_the_report_when_the_rules_name_a_winner() -> None:
    t = testing.table(REPORT)
    t.play("ana", "play R1")
    assert t.state.phase == "match_over"
    assert reports(t, "en") == ["Match report: ana won the match with 13 points.", "The match lasted 1 round."]
    assert reports(t, "es") == ["Resumen: ana ganó la partida con 13 puntos.", "La partida duró 1 mano."]


def test_the_report_when_the_chat_stops_after_its_rounds() -> None:
    t = testing.table({**REPORT, "rules": {"match-report": {}}})
    t.play("ana", "play R1")  # the round ends; the match (to 500) would go on
    assert t.state.phase == "round_over" and not reports(t, "en")
    t.stop("rounds")  # as the chat does after `--rounds 1`
    assert reports(t, "en") == ["Match report: all its rounds played, ana led with 13 points.",
                                "The match lasted 1 round."]
    assert reports(t, "es")[0] == "Resumen: jugadas todas sus manos, ana iba primero con 13 puntos."
    assert t.stop() == []  # a match over already is reported once


def test_the_report_when_an_admin_stops_the_match() -> None:
    t = testing.table({**REPORT, "rules": {"match-report": {}}})
    t.stop()
    assert reports(t, "en") == ["Match report: the match was stopped; ana led with 0 points.",
                                "The match lasted 0 rounds."]
    assert reports(t, "es")[0] == "Resumen: la partida se detuvo; ana iba primero con 0 puntos."


def test_the_report_when_the_others_leave() -> None:
    t = testing.table({**REPORT, "rules": {"match-report": {}}})
    t.leave("cat")
    assert not reports(t, "en")
    t.leave("ben")
    assert reports(t, "en") == ["Match report: the others left, so ana won the match with 0 points.",
                                "The match lasted 1 round."]
    assert reports(t, "es")[0] == "Resumen: los demás se fueron, así que ana ganó la partida con 0 puntos."
    assert t.state.phase == "match_over"


def test_the_report_when_elimination_leaves_one_player() -> None:
    t = testing.table({**REPORT, "players": ["ana", "ben"], "rules": {"match-report": {}, "elimination": {}},
                       "setup": {"hands": {"ana": "R1", "ben": "B5 B7"}, "discard": "R3", "draw": "G2 G4"}})
    t.play("ana", "play R1")  # ben is eliminated: ana is the last player standing
    assert t.state.phase == "match_over"
    assert reports(t, "es") == ["Resumen: ana ganó la partida con 0 puntos.", "La partida duró 1 mano."]


def test_rounds_are_counted_over_the_match() -> None:
    t = testing.table({**REPORT, "rules": {"match-report": {}}})
    t.play("ana", "play R1")
    assert t.match_data["rounds"] == 1
    t.next_round()
    assert t.match_data["rounds"] == 1 and t.state.round == 2  # counted when a round ends, kept
    t.stop()
    assert reports(t, "en")[-1] == "The match lasted 1 round."
