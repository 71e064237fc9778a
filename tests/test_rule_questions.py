"""Core asks rules what they do, never which rule they are (issues #10/#22).

Why: a third party's rule that does what a built-in does must be asked the
same questions and get the same treatment. These tests give a renamed copy
of a built-in rule (a plugin author's own UNO call, challenge) and check that
every front-end's model treats it as the built-in, and that no module of core
looks a rule up by its name.
"""

from __future__ import annotations

import re
from pathlib import Path

from unobot import engine
from unobot.cards import parse_card
from unobot.chat import actions, play
from unobot.chat import commands as c
from unobot.chat.outcome import Outcome
from unobot.chat.table import PLAYING, Seat, Table
from unobot.moves import UNO
from unobot.plugins.card_effects import CardEffects
from unobot.plugins.challenge import Challenge
from unobot.plugins.uno_call import UnoCall

from .rulekit import extra_rule, table

CORE = Path(__file__).resolve().parent.parent / "core"

def _by_name() -> re.Pattern[str]:
    """A rule looked up by its name: `options["card-effects"]`, `rules.get("challenge")`,
    `"uno-call" in rules`, `enabled("stacking")`, for every rule installed."""
    from unobot.registry import available_rules

    names = "|".join(re.escape(n) for n in sorted(available_rules(), key=len, reverse=True))
    quoted = rf"""["']({names})["']"""
    return re.compile(rf"""(rules|options)\s*(\[|\.get\()\s*{quoted}|(enabled|get_plugin)\(\s*{quoted}"""
                      rf"""|{quoted}\s+(not\s+)?in\s+[\w.]*(rules|options)\b""")


def test_no_core_module_asks_a_rule_by_its_name() -> None:
    pattern = _by_name()
    found = []
    for path in sorted(CORE.rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(CORE)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


class MyUno(UnoCall):
    """A plugin author's own UNO call, taking uno-call's place."""

    name = "my-uno"
    base = False
    replaces = ("uno-call",)


class MyChallenge(Challenge):
    """A plugin author's own challenge rule, taking challenge's place."""

    name = "my-challenge"
    base = False
    replaces = ("challenge",)


def test_a_third_party_uno_rule_is_offered_uno_on_the_fast_path() -> None:
    with extra_rule(MyUno):
        game = table(hands={"ana": "R5 G7", "ben": "B+2 G3 Y9", "cat": "Y7 G9 B1"}, overrides={"my-uno": {}})
        assert "uno-call" not in game.rules.rules and game.rules.plain_turn
        assert any(m.kind == UNO for m in engine.legal_moves(game, 0))
        after, _ = engine.apply(game, engine.legal_moves(game, 0)[0].__class__("play", 0, parse_card("R5")))
        assert after.exposed == 0, "a play down to one card unsaid opens the catch, as uno-call's does"


def test_a_third_party_challenge_rule_keeps_draw_and_play_from_bluffing() -> None:
    """`dp` never plays a drawn Wild Draw Four that would be a bluff: the judge is
    whichever rule answers `would_bluff`, not the rule named "challenge"."""
    with extra_rule(MyChallenge):
        game = table(hands={"ana": "R5 G7", "ben": "B+2 G3 Y9", "cat": "Y7 G9 B1"}, draw="W+4 G2 G4",
                     overrides={"my-challenge": {}})
        assert "challenge" not in game.rules.rules
        t = Table(chat_id="c", creator="ana", overrides={"my-challenge": {}}, phase=PLAYING,
                  seats=[Seat(p, p.title()) for p in ("ana", "ben", "cat")], game=game)
        play.step(t, c.Person("ana", "Ana", None, False), c.Draw(then_play=True, version=t.version),
                  Outcome(table=t), 0.0)
        assert t.game is not None and parse_card("W+4") in t.game.hands[0], "a bluff was played for the player"


def test_reverse_with_two_is_asked_of_the_rules() -> None:
    two = table(players=("ana", "ben"), hands={"ana": "RR G7 B1", "ben": "B2 G3 Y9"},
                overrides={"card-effects": {"two_player_reverse_skips": False}})
    assert two.rules.reverse_skips_two is False
    after, _ = engine.apply(two, engine.legal_moves(two, 0)[0].__class__("play", 0, parse_card("RR")))
    assert after.turn == 1 and after.direction == -1
    assert CardEffects.reverse_skips_with_two is not None
    assert actions  # the model imports cleanly with the rules asked this way
