"""A typed play's missing pieces (`play_picks`): what is still asked, in
which order, how a typed answer picks, and what is said when it picks nothing."""

from __future__ import annotations

from tests.chat.test_actions import _dealt
from unobot.chat import commands as c
from unobot.chat.play_picks import (
    PlayNeeds,
    ordered_colors,
    pick_color,
    pick_name,
    pick_number,
    play_needs,
    retry_text,
)
from unobot.chat.render import error_text
from unobot.chat.table import Table
from unobot.chat.views import hand_view, table_view


def needs(table: Table, play: c.Play) -> PlayNeeds | str:
    hv = hand_view(table, "1")
    assert hv is not None
    return play_needs(table, "1", play, table_view(table, "en"), hv, "en")


def test_a_bare_wild_asks_its_colour_and_a_named_one_does_not() -> None:
    table = _dealt(["W G1", "R5 R6"], "G9")
    bare = needs(table, c.Play(card="W"))
    assert isinstance(bare, PlayNeeds) and bare.colors() == (None, ["R", "Y", "G", "B"])
    assert bare.seats("Y") == ([], False)
    assert bare.command("Y", None) == c.Play(card="W", color="yellow")
    named = needs(table, c.Play(card="W", color="blue"))
    assert isinstance(named, PlayNeeds) and named.colors() == ("B", [])


def test_a_last_wild_takes_a_colour_without_asking() -> None:
    last = needs(_dealt(["W", "R5 R6"], "G9"), c.Play(card="W"))
    assert isinstance(last, PlayNeeds)
    color, ask = last.colors()
    assert color in ("R", "Y", "G", "B") and ask == []


def test_uno_that_cannot_be_said_plays_nothing() -> None:
    refused = needs(_dealt(["G1 G2 G3 G4", "R5 R6"], "G9"), c.Play(card="G1", uno=True))
    assert isinstance(refused, str) and "Nothing was played: type the card without uno." in refused
    said = needs(_dealt(["G1 G2", "R5 R6"], "G9"), c.Play(card="G1", uno=True))
    assert isinstance(said, PlayNeeds) and said.uno and said.colors() == (None, [])
    assert said.command(None, None) == c.Play(card="G1", uno=True)


def test_a_typed_answer_picks_by_number_word_or_name() -> None:
    colors = ["R", "G"]
    assert pick_color("2", colors, "en") == "G" and pick_color("rojo", colors, "es") == "R"
    assert pick_color("yellow", colors, "en") is None and pick_color("3", colors, "en") is None
    assert pick_number("1", 2) == 0 and pick_number("0", 2) is None and pick_number("x", 2) is None
    names = ["Ben", "Bob", "Cat"]
    assert pick_name("2", names) == 1 and pick_name("be", names) == 0 and pick_name("CA", names) == 2
    assert pick_name("b", names) is None  # two names start so: ask again


def test_what_is_said_when_an_answer_picks_nothing() -> None:
    assert retry_text("color", 4, "en") == "Type a number from 1 to 4, or a colour name (Enter cancels)."
    assert retry_text("player", 3, "en") == "Type a number from 1 to 3, or the start of a name (Enter cancels)."
    assert retry_text("reading", 2, "en") == "Type 1 or 2 (Enter cancels)."
    assert retry_text("reading", 3, "es") != retry_text("reading", 3, "en")


def test_colours_come_in_the_deck_s_order() -> None:
    class Move:
        def __init__(self, color: str | None) -> None:
            self.color = color

    assert ordered_colors([Move("B"), Move(None), Move("R"), Move("B")]) == ["R", "B"]  # type: ignore[list-item]


def test_a_refused_uno_is_two_sentences_joined_as_the_language_joins_them() -> None:
    """Chinese writes two sentences with no space between them ("…。什么都没出：…")."""
    table = _dealt(["G1 G2 G3 G4", "R5 R6"], "G9")
    hv = hand_view(table, "1")
    assert hv is not None
    refused = play_needs(table, "1", c.Play(card="G1", uno=True), table_view(table, "zh_CN"), hv, "zh_CN")
    assert isinstance(refused, str)
    first = error_text("uno_not_now", "zh_CN")
    assert refused.startswith(first) and not refused[len(first):].startswith(" "), refused
