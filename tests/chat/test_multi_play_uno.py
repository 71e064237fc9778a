"""A multi-play that leaves one card carries UNO as a single play does.

Why: a player with R5 G5 B3 who puts down R5 G5 goes from three cards to
one. Before, no front-end offered "multi R5 G5 · UNO!": under the UNO call
they were open to a catch until they said UNO after, and under strict UNO
(UNO only before the play that leaves one card, offered only with two cards
in hand) they were never offered UNO first at all.
"""

from __future__ import annotations

import pytest

from unobot.cards import parse_card
from unobot.chat import actions, play
from unobot.chat import commands as c
from unobot.chat.grammar import parse_hand
from unobot.chat.outcome import Outcome
from unobot.chat.table import PLAYING, Seat, Table
from unobot.chat.typed_offers import turn_offers
from unobot.chat.views import hand_view, table_view
from unobot.engine import setup_round

RULES = {"uno-call": {"multi-play": {}}, "strict-uno": {"multi-play": {}, "strict-uno": {}}}


def _table(overrides: dict[str, dict[str, object]], hand: str = "R5 G5 B3") -> Table:
    ids = ["ana", "ben", "cat"]
    hands = [[parse_card(x) for x in h.split()] for h in (hand, "Y4 R6 G6", "B7 Y8 R9")]
    game = setup_round("official", ids, hands, [parse_card("R9")],
                       [parse_card(x) for x in ["R1", "R2", "R3", "R4", "G1", "G2", "G3"]], turn=0, overrides=overrides)
    return Table(chat_id="c", creator="ana", overrides=overrides, phase=PLAYING,
                 seats=[Seat(i, i.title()) for i in ids], game=game)


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_the_model_offers_multi_play_with_uno_and_nobody_can_catch(rules: str) -> None:
    t = _table(RULES[rules])
    menu = actions.menu(t, "ana", "en")
    with_uno = [a for a in menu.actions if a.kind == "multi" and a.uno]
    assert [a.command for a in with_uno] == [c.PluginMove(text="multi R5 G5", uno=True, version=t.version)]
    assert with_uno[0].label.endswith(actions.UNO_MARK) and with_uno[0].hint == "Say UNO and play these cards"
    # its id goes round the codec (Telegram's result ids, Discord's and the web's presses)
    assert actions.decode(with_uno[0].id, t.version) == c.PluginMove(text="multi R5 G5", uno=True, version=t.version)
    play.step(t, c.Person("ana", "Ana", None, False), with_uno[0].command, Outcome(table=t), 0.0)
    assert t.game is not None and len(t.game.hands[0]) == 1
    assert t.game.exposed == -1 and t.game.uno & 1, "said UNO with the multi-play: nobody may catch"
    ben = actions.menu(t, "ben", "en")
    assert not [a for a in ben.actions if a.kind == "catch"]


def test_no_uno_offered_with_a_multi_play_that_leaves_more() -> None:
    menu = actions.menu(_table(RULES["uno-call"], "R5 G5 B3 Y1"), "ana", "en")
    assert [a for a in menu.actions if a.kind == "multi"] and not [a for a in menu.actions if a.kind == "multi" and a.uno]


def test_typed_multi_play_with_uno_first_or_last_and_offered_on_the_console() -> None:
    hand = [parse_card(x) for x in ["R5", "G5", "B3"]]
    for line in ("multi R5 G5 uno", "uno multi R5 G5", "multi R5 G5 UNO!"):
        assert parse_hand(line, hand, "en") == c.PluginMove(text="multi R5 G5", uno=True), line
    assert parse_hand("uno jugar varias cartas R5 V5", hand, "es") == c.PluginMove(text="multi R5 G5", uno=True)
    t = _table(RULES["strict-uno"])
    hv = hand_view(t, "ana")
    assert hv is not None
    words = [o.word for o in turn_offers(hv, table_view(t, "en"), "en")]
    assert "multi R5 G5 uno" in words, words


def test_a_long_multi_play_with_uno_fits_a_digest_of_its_own() -> None:
    long = c.PluginMove(text="multi R1 R2 R3 R4 R5 R6 R7 R8 R9 G1 G2 G3 G4", uno=True)
    plain = c.PluginMove(text=long.text)
    assert actions.encode(long).startswith("M") and actions.encode(long) != actions.encode(plain)
    assert len(actions.encode(long)) <= 17


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_the_next_players_multi_play_closes_the_window_to_catch(rules: str) -> None:
    """A player down to one card unsaid may be caught until the next player plays
    or draws (RULES.md §6): a multi-play is a play, though its kind is a plugin's."""
    from unobot import engine
    from unobot.moves import Move

    from ..rulekit import table

    g = table(hands={"ana": "R5 G7", "ben": "R6 G6 B3 Y2", "cat": "Y7 G9 B1"}, overrides=RULES[rules])
    g, _ = engine.apply(g, Move("play", 0, parse_card("R5")))
    assert g.exposed == 0
    g, _ = engine.apply(g, next(m for m in engine.legal_moves(g, 1) if m.kind == "multi"))
    assert g.exposed == -1 and not [m for m in engine.legal_moves(g, 2) if m.kind == "catch"]
