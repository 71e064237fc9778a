"""An AI seat says UNO with any move that leaves it one card.

Why: a person is offered "multi R5 G5 · UNO!" (the table model's
`carries_uno`), one action nobody can catch in between. An AI seat with
R5 G5 B3 that multi-played down to one card under strict UNO (UNO offered
only with two cards) or under the UNO call (UNO said only with two cards,
or one once exposed) never said it: the next seat caught it, two cards.
The same held for a Discard All from three cards.
"""

from __future__ import annotations

import pytest

from unobot.ai import LEVELS
from unobot.cards import parse_card
from unobot.chat import play
from unobot.chat.outcome import Outcome
from unobot.chat.table import PLAYING, Seat, Table
from unobot.engine import setup_round

RULES = {
    "uno-call": {"multi-play": {}},
    "strict-uno": {"multi-play": {}, "strict-uno": {}},
    "false-uno": {"multi-play": {}, "false-uno": {}},
}


def _table(level: str, overrides: dict[str, dict[str, object]], hand: str, variant: str = "official",
           top: str = "R9") -> Table:
    ids = ["ai", "ben", "cat"]
    hands = [[parse_card(x) for x in h.split()] for h in (hand, "Y4 Y6 G6", "B7 Y8 B9")]
    game = setup_round(variant, ids, hands, [parse_card(top)],
                       [parse_card(x) for x in ["R1", "R2", "R3", "R4", "G1", "G2", "G3"]], turn=0,
                       overrides=overrides)
    return Table(chat_id="c", creator="ben", overrides=overrides, phase=PLAYING, variant=variant,
                 seats=[Seat("ai", "Ai", level=level), Seat("ben", "Ben"), Seat("cat", "Cat")], game=game)


def _ai_turn(t: Table) -> list[str]:
    out = Outcome(table=t)
    return play._ai(t, out, 0.0, pause=False)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules", RULES, ids=str)
def test_an_ai_multi_play_down_to_one_card_says_uno_with_it(level: str, rules: str) -> None:
    t = _table(level, RULES[rules], "R5 G5 B3")
    entries = _ai_turn(t)
    game = t.game
    assert game is not None
    assert [x.text for x in game.hands[0]] == ["B3"], entries  # it multi-played (its best move)
    assert "0 uno" in entries, entries
    assert game.uno & 1 and game.exposed != 0, "said UNO with the move: nobody may catch it"


@pytest.mark.parametrize("level", LEVELS)
def test_an_ai_discard_all_down_to_one_card_says_uno_with_it(level: str) -> None:
    t = _table(level, {}, "RDA R5 G1", variant="no-mercy")
    entries = _ai_turn(t)
    game = t.game
    assert game is not None
    assert [x.text for x in game.hands[0]] == ["G1"], entries
    assert game.uno & 1 and game.exposed != 0, entries


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules", RULES, ids=str)
def test_in_unobot_simulate_too(level: str, rules: str) -> None:
    """`unobot simulate` (and the benchmarks) play the levels as policies:
    the same UNO goes with the move there."""
    import random

    from unobot.ai import new_player
    from unobot.simulate import play_round

    t = _table(level, RULES[rules], "R5 G5 B3")
    assert t.game is not None
    players = [new_player(level, rollouts=8) for _ in range(3)]
    state, moves = play_round(t.game, players, random.Random(1), max_moves=1)  # type: ignore[arg-type]
    assert moves == 1 and [x.text for x in state.hands[0]] == ["B3"]
    assert state.uno & 1 and state.exposed != 0


def test_strict_and_false_uno_agree_that_uno_before_a_multi_play_down_to_one_is_owed() -> None:
    """Strict UNO takes UNO before a multi-play from three cards to one; false
    UNO used to punish it (it counted only two cards as owed), so the two
    rules on together left no way to say it. False UNO now asks the rule
    owning the UNO calls (`uno_owed`): the table model offers "multi · UNO!"
    and an AI seat says it, at no cost and out of reach of a catch."""
    from unobot.chat import actions

    rules = {"multi-play": {}, "strict-uno": {}, "false-uno": {}}
    t = _table("normal", rules, "R5 G5 B3")
    t.seats[0] = Seat("ai", "Ai")
    assert [a for a in actions.menu(t, "ai", "en").actions if a.uno and a.kind == "multi"]
    t = _table("hard", rules, "R5 G5 B3")
    entries = _ai_turn(t)
    game = t.game
    assert game is not None and [x.text for x in game.hands[0]] == ["B3"], entries
    assert "0 uno" in entries and game.uno & 1 and game.exposed != 0, entries
