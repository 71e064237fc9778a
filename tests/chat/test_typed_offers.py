"""What a person may type now (`typed_offers`): offered as the hand's view
says, with the grammar's words, numbered as the hand is typed."""

from __future__ import annotations

from unobot.cards import parse_card, parse_cards
from unobot.chat.typed_offers import (
    may_act,
    out_of_turn_offers,
    pending_line,
    turn_offers,
    typed_order,
)
from unobot.chat.views import HandCard, HandView, PlayerLine, TableView
from unobot.moves import CATCH, DRAW, PLAY, UNO, Move

PLAYERS = [PlayerLine(0, "1", "Ana", 2), PlayerLine(1, "2", "Ben", 1), PlayerLine(2, "3", "Cat", 4)]
VIEW = TableView("playing", "official", "Official", 3, PLAYERS, turn=2)


def hand(texts: str, playable: str = "") -> list[HandCard]:
    return [HandCard(card, card.text in playable.split()) for card in parse_cards(texts)]


def test_the_hand_is_numbered_by_colour_then_rank_wilds_last() -> None:
    hv = HandView(0, True, hand("W B2 R9 R1"))
    assert [hc.card.text for hc in typed_order(hv)] == ["R1", "R9", "B2", "W"]


def test_on_the_turn_draw_uno_and_catch_are_offered_with_their_words() -> None:
    hv = HandView(0, True, hand("W R9 R1", "R9"), draw=Move(DRAW, 0), uno=Move(UNO, 0),
                  catches=[Move(CATCH, 0, target=1)])
    offers = turn_offers(hv, VIEW, "en")
    assert [(o.word, o.note) for o in offers] == [
        ("draw", "d"), ("dp", "draw, and play it if it fits"),
        ("uno", "or 2 uno: say UNO and play card 2"),  # R9 is card 2 as typed
        ("catch Ben", "forgot to say UNO")]
    taking = turn_offers(HandView(0, True, hand("R1"), draw=Move(DRAW, 0), pending=4), VIEW, "es")
    assert [o.word for o in taking] == ["robar"] and "4" in taking[0].note


def test_out_of_turn_a_jump_in_names_its_card_by_number() -> None:
    r9 = parse_card("R9")
    hv = HandView(0, False, hand("R9 B2 R1"), uno=Move(UNO, 0), jump_ins=[Move(PLAY, 0, card=r9)])
    offers = out_of_turn_offers(hv, VIEW, "en")
    assert [(o.word, o.note, o.card) for o in offers] == [
        ("jump in with 2:", "", r9), ("uno", "say it before someone catches you", None)]
    assert out_of_turn_offers(hv, VIEW, "es")[1].note == "dilo antes de que alguien te atrape"


def test_the_person_is_waited_for_only_with_something_to_do() -> None:
    assert not may_act(VIEW, HandView(0, False, hand("R1 R2")), "1")
    assert may_act(VIEW, HandView(0, False, hand("R1"), catches=[Move(CATCH, 0, target=1)]), "1")
    # UNO alone: with one card left (exposed), not with two (it may be said any time)
    assert not may_act(VIEW, HandView(0, False, hand("R1 R2"), uno=Move(UNO, 0)), "1")
    assert may_act(VIEW, HandView(1, False, hand("R1"), uno=Move(UNO, 1)), "2")


def test_a_pending_draw_names_the_answers_to_the_player_on_turn() -> None:
    pending = TableView("playing", "official", "Official", 3, PLAYERS, turn=0, pending=4)
    mine = HandView(0, True, hand("W+4 R+2 R1", "W+4 R+2"), pending=4)
    assert pending_line(pending, mine, "en") == "You must draw 4, or answer with Red Draw Two, Wild Draw Four."
    assert pending_line(pending, HandView(0, True, hand("R1"), pending=4), "en") == "You must draw 4."
    assert pending_line(pending, HandView(1, False, hand("R1")), "en") == \
        "Ana must draw 4, or answer it."
    assert pending_line(VIEW, mine, "en") == ""
