"""What a typed line means: numbers, card names, colours, targets, `uno`, short forms."""

from __future__ import annotations

import re

from unobot.adapters.console.input import (
    ENTER,
    HELP,
    LOG,
    QUIT,
    RULES,
    TABLE,
    Local,
    parse_line,
)
from unobot.cards import COLOR_NAMES, Card, parse_card
from unobot.chat import commands as c
from unobot.chat.grammar import Ambiguous as Choice
from unobot.chat.grammar import Refusal as Invalid


def PlayIntent(card: Card, color: str | None = None, target: str | None = None, uno: bool = False) -> c.Play:
    """The command the console sends for a card (the grammar's reading of it)."""
    return c.Play(card=card.text, color=COLOR_NAMES[color] if color else None, target=target, uno=uno)


def Send(commands: tuple[c.Command, ...]) -> c.Command:
    (command,) = commands
    return command

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


def test_cards_as_shown_and_short_forms_in_both_languages() -> None:
    hand = [parse_card(t) for t in ("Y5", "W", "B7", "R+2", "G1", "W+4")]
    for line, card, color in (
        ("Yellow 5", "Y5", None), ("play Yellow 5", "Y5", None), ("5 amarillo", "Y5", None),
        ("amarillo 5", "Y5", None), ("y5", "Y5", None), ("a5", "Y5", None), ("+2 rojo", "R+2", None),
        ("Roba dos rojo", "R+2", None), ("Red Draw Two", "R+2", None), ("w yel", "W", "Y"), ("comodín verde", "W", "G"),
        ("w+4 blu", "W+4", "B"), ("+4 azul", "W+4", "B"), ("Comodín roba cuatro rojo", "W+4", "R"),
        ("Wild Draw Four green", "W+4", "G"), ("az7", "B7", None), ("AzC", "BR", None), ("vs", "GS", None),
    ):
        for lang in ("en", "es"):
            assert parse_line(line, hand, lang) == PlayIntent(parse_card(card), color), (line, lang)


def test_a_number_that_reads_two_ways_is_asked() -> None:
    hand = [parse_card(t) for t in ("Y2", "W", "B7")]
    # `2 amarillo`: card 2 (a wild) in yellow, or the Yellow 2 held: ask
    both = parse_line("2 amarillo", hand, "es")
    assert both == Choice((PlayIntent(parse_card("W"), "Y"), PlayIntent(parse_card("Y2"))), 2)
    assert parse_line("2 yellow", [parse_card("W"), parse_card("W")], "en") == PlayIntent(parse_card("W"), "Y")
    assert parse_line("2 yellow", hand[:1] + [parse_card("B7")], "en") == PlayIntent(parse_card("Y2"))
    assert isinstance(parse_line("3 red", hand, "en"), Invalid)  # card 3 is no wild, no Red 3 held
    assert isinstance(parse_line("1 2", hand, "en"), Invalid)  # never a player's name


def test_numbers_are_what_int_reads() -> None:
    for lang in ("en", "es"):
        for odd in ("²", "٣x", "1²"):
            assert isinstance(parse_line(odd, HAND, lang), Invalid)
    assert parse_line(" 2 ", HAND, "en") == PlayIntent(parse_card("G+2"))


def test_spanish_words_and_draw_and_play() -> None:
    for line, command in (("r", c.Draw()), ("robar", c.Draw()), ("p", c.Pass()), ("pasar", c.Pass()),
                          ("atrapar", c.Catch()), ("desafiar", c.Challenge()), ("uno", c.SayUno()),
                          ("rj", c.Draw(then_play=True)), ("robar jugar", c.Draw(then_play=True))):
        assert parse_line(line, HAND, "es") == Send((command,)), line
    assert parse_line("dp", HAND, "en") == Send((c.Draw(then_play=True),))
    assert parse_line("historial", HAND, "es") == Local(LOG) and parse_line("log", HAND, "en") == Local(LOG)
    assert parse_line("reglas", HAND, "es") == Local(RULES) and parse_line("rules", HAND, "en") == Local(RULES)


def _readme_paragraph(title: str) -> str:
    from tests.console.helpers import ROOT

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Playing in the console", 1)[1].split("\n## ", 1)[0]
    return " ".join(section.split(title, 1)[1].split("\n\n", 1)[0].split())


def test_the_readme_card_notation_is_what_the_console_reads() -> None:
    """Every form the README's "Cards" paragraph shows is read as it says, in both languages."""
    hand = [parse_card(t) for t in ("R1", "Y5", "G2", "B3", "W")]  # card 5 a wild, and a Yellow 5
    wild3 = [parse_card(t) for t in ("Y5", "B3", "W")]  # card 3 a wild
    expected: dict[str, tuple[list[Card], object]] = {
        "3": (hand, PlayIntent(parse_card("G2"))),
        "Yellow 7": (hand, PlayIntent(parse_card("Y7"))), "Red Draw Two": (hand, PlayIntent(parse_card("R+2"))),
        "Wild Draw Four green": (hand, PlayIntent(parse_card("W+4"), "G")),
        "7 amarillo": (hand, PlayIntent(parse_card("Y7"))), "Roba dos rojo": (hand, PlayIntent(parse_card("R+2"))),
        "Comodín roba cuatro verde": (hand, PlayIntent(parse_card("W+4"), "G")),
        "Y7": (hand, PlayIntent(parse_card("Y7"))), "R+2": (hand, PlayIntent(parse_card("R+2"))),
        "GS": (hand, PlayIntent(parse_card("GS"))), "BR": (hand, PlayIntent(parse_card("BR"))),
        "W": (hand, PlayIntent(parse_card("W"))), "W+4": (hand, PlayIntent(parse_card("W+4"))),
        "+4": (hand, PlayIntent(parse_card("W+4"))),
        "A7": (hand, PlayIntent(parse_card("Y7"))), "AzC": (hand, PlayIntent(parse_card("BR"))),
        "VS": (hand, PlayIntent(parse_card("GS"))),
        "3 red": (wild3, PlayIntent(parse_card("W"), "R")), "w yel": (hand, PlayIntent(parse_card("W"), "Y")),
        "+4 azul": (hand, PlayIntent(parse_card("W+4"), "B")),
        "Blue Skip Everyone": ([parse_card("BSA"), *hand], PlayIntent(parse_card("BSA"))),
        "Salta a todos azul": ([parse_card("BSA"), *hand], PlayIntent(parse_card("BSA"))),
        "R⊘": (hand, PlayIntent(parse_card("RS"))),
        "⇄+4 red": (hand, PlayIntent(parse_card("WR+4"), "R")),
        "5 amarillo": (hand, Choice((PlayIntent(parse_card("W"), "Y"), PlayIntent(parse_card("Y5"))), 5)),
    }
    paragraph = _readme_paragraph("**Cards.**")
    shown = [t for t in re.findall(r"`([^`]+)`", paragraph) if t not in ("●", "○")]
    assert sorted(shown) == sorted(expected), "the README's forms changed: say here what each one reads as"
    for form, (cards, meant) in expected.items():
        for lang in ("en", "es"):
            assert parse_line(form, cards, lang) == meant, (form, lang)


def test_the_readme_commands_are_what_the_console_reads() -> None:
    """The README's commands (Spanish in brackets) are understood, each in its language."""
    paragraph = _readme_paragraph("**Commands**") + " " + _readme_paragraph("**Stopping.**")
    spanish = [t for group in re.findall(r"\(([^)]*)\)", paragraph) for t in re.findall(r"`([^`]+)`", group)]
    english = re.findall(r"`([^`]+)`", re.sub(r"\([^)]*\)", "", paragraph))
    assert "robar" in spanish and "draw" in english and "quit" in english
    hand = [parse_card(t) for t in ("R1", "Y5", "W")]
    for words, lang in ((english, "en"), (spanish, "es")):
        for line in words:
            if line.startswith(("python3", "--")) or line == "n":  # n: an answer to "Resume it?"
                continue
            assert not isinstance(parse_line(line, hand, lang), Invalid), (line, lang)
    assert parse_line("quit", hand, "en") == Local(QUIT)


def test_the_readme_defaults_are_the_consoles() -> None:
    from unobot.adapters.console.cli import DEFAULT_DELAY

    paragraph = _readme_paragraph("deals you in against three AI")
    assert "the default AI is `normal`" in paragraph and "500 points" in paragraph and "`--rounds 1`" in paragraph
    assert f"({DEFAULT_DELAY} s a move; `--delay 0` for full speed)" in paragraph


def test_the_players_table_is_in_the_order_of_play_with_the_next_player_marked() -> None:
    """Shuffled seats: the console lists the players as the round is played, ▶ on turn, ⏭ next."""
    from rich.console import Console

    from unobot.adapters.console.render import players_table
    from unobot.chat.views import PlayerLine, TableView

    lines = [PlayerLine(0, "a", "Ana", 5), PlayerLine(1, "b", "Ben", 4, is_turn=True),
             PlayerLine(2, "c", "Cat", 3, is_next=True)]
    view = TableView("playing", "official", "Official", 1, lines, order=[1, 2, 0], turn=1, next_seat=2)
    console = Console(width=60, record=True)
    console.print(players_table(view, "en", "a"))
    text = console.export_text()
    assert text.index("Ben") < text.index("Cat") < text.index("Ana")
    assert "▶ Ben" in " ".join(text.split()) and "⏭ Cat" in " ".join(text.split())
