"""What a typed line means: numbers, card names, colours, targets, `uno`, short forms."""

from __future__ import annotations

from unobot.adapters.console.input import (
    ENTER,
    HELP,
    QUIT,
    TABLE,
    Invalid,
    Local,
    PlayIntent,
    Send,
    parse_line,
)
from unobot.cards import parse_card
from unobot.chat import commands as c

HAND = [parse_card(t) for t in ("R5", "G+2", "W", "W+4", "B7")]


def test_card_by_number_and_by_text() -> None:
    assert parse_line("1", HAND, "en") == PlayIntent(parse_card("R5"))
    assert parse_line("play 2", HAND, "en") == PlayIntent(parse_card("G+2"))
    assert parse_line("r5", HAND, "en") == PlayIntent(parse_card("R5"))
    assert parse_line("play Y9", HAND, "en") == PlayIntent(parse_card("Y9"))  # not held: the engine says so


def test_wild_with_colour_and_target() -> None:
    assert parse_line("3 red", HAND, "en") == PlayIntent(parse_card("W"), "R")
    assert parse_line("play W+4 green", HAND, "en") == PlayIntent(parse_card("W+4"), "G")
    assert parse_line("4 azul", HAND, "en") == PlayIntent(parse_card("W+4"), "B")
    assert parse_line("play R7 ben", HAND, "en") == PlayIntent(parse_card("R7"), None, "ben")
    assert parse_line("5 ada (ai)", HAND, "en") == PlayIntent(parse_card("B7"), None, "ada (ai)")
    # a one-letter word on a coloured card is a name, not a colour
    assert parse_line("5 b", HAND, "en") == PlayIntent(parse_card("B7"), None, "b")


def test_uno_with_a_card() -> None:
    assert parse_line("3 uno", HAND, "en") == PlayIntent(parse_card("W"), uno=True)
    assert parse_line("uno 3 red", HAND, "en") == PlayIntent(parse_card("W"), "R", uno=True)
    assert parse_line("uno", HAND, "en") == Send((c.SayUno(),))


def test_commands_and_short_forms() -> None:
    assert parse_line("d", HAND, "en") == Send((c.Draw(),))
    assert parse_line("DRAW", HAND, "en") == Send((c.Draw(),))
    assert parse_line("p", HAND, "en") == Send((c.Pass(),))
    assert parse_line("challenge", HAND, "en") == Send((c.Challenge(),))
    assert parse_line("catch", HAND, "en") == Send((c.Catch(),))
    assert parse_line("catch Ada", HAND, "en") == Send((c.Catch(target="Ada"),))
    assert parse_line("?", HAND, "en") == Local(HELP)
    assert parse_line("q", HAND, "en") == Local(QUIT)
    assert parse_line("t", HAND, "en") == Local(TABLE)
    assert parse_line("   ", HAND, "en") == Local(ENTER)


def test_bad_input_says_why() -> None:
    unknown = parse_line("fly away", HAND, "en")
    assert isinstance(unknown, Invalid) and "fly" in unknown.message and "help" in unknown.message
    beyond = parse_line("9", HAND, "en")
    assert isinstance(beyond, Invalid) and "1 to 5" in beyond.message
    assert isinstance(parse_line("play X9", HAND, "en"), Invalid)
    assert isinstance(parse_line("play", HAND, "en"), Invalid)
