"""The console at set moments of a game, in English and in Spanish, through a pty.

A deal seldom gives the moment a test needs (a wild that is the last card, a
line that reads two ways, a Wild Draw Four to challenge), so each test lays
the table out card by card (`helpers.stage_game`: a game the console dealt
and saved, its cards rearranged in the store) and the real console takes it
up with `--resume`, as a person would after quitting. The AI seats play by
the cards they are given, so every run goes the same way.
"""

from __future__ import annotations

import re

import pexpect
import pytest

from tests.support.redis_server import RedisServer
from unobot.cards import parse_card
from unobot.chat.i18n import gettext_for, ngettext_for
from unobot.chat.render import card_name, color_name

from .helpers import PROMPT, Stage, clean, spawn, stage_game
from .test_play import _no_english

LANGS = ("en", "es")


class Screen:
    """The console in a pty: what it printed up to each prompt, and the prompt's label."""

    def __init__(self, url: str, lang: str) -> None:
        self.lang = lang
        self._ = gettext_for(lang)
        self.child = spawn("--store", url, "--resume", "--delay", "0", "--name", "Tess")
        self.transcript: list[str] = []

    def prompt(self) -> tuple[str, str | None]:
        """What was printed up to the next prompt, and its label (None: the program ended)."""
        ended = self.child.expect([PROMPT, pexpect.EOF], timeout=60) == 1
        text = clean(self.child.before)
        self.transcript.append(text)
        return text, None if ended else text.rsplit("\n", 1)[-1].strip()

    def type(self, line: str) -> tuple[str, str | None]:
        self.child.sendline(line)
        return self.prompt()

    def until_move(self, text: str = "", label: str | None = "") -> str:
        """Let the AI seats move (Enter at every pause) up to my move prompt;
        everything printed on the way. `text`/`label`: a prompt already read."""
        seen = [text]
        if label == "":
            text, label = self.prompt()
            seen.append(text)
        while label is not None and not label.startswith(self._("Your move")):
            assert label.startswith(self._("Enter")), (label, "".join(seen)[-2000:])
            text, label = self.type("")
            seen.append(text)
        assert label is not None, "".join(seen)[-2000:]
        return "".join(seen)

    def close(self, line: str = "q") -> int:
        self.child.sendline(line)
        self.child.expect(pexpect.EOF, timeout=60)
        self.transcript.append(clean(self.child.before))
        self.child.close()
        status = self.child.exitstatus
        assert status is not None
        return status

    @property
    def output(self) -> str:
        return "".join(self.transcript)


def _name(text: str, lang: str) -> str:
    return card_name(parse_card(text), lang)


def _played(lang: str, card: str) -> str:
    return gettext_for(lang)("{player} played {card}.").format(player="Tess", card=_name(card, lang))


def _chose(lang: str, color: str) -> str:
    return gettext_for(lang)("{player} chose {color}.").format(player="Tess", color=color_name(color, lang))


@pytest.mark.parametrize("pick", [1, 2])
@pytest.mark.parametrize("lang", LANGS)
def test_a_line_that_reads_two_ways_is_asked(lang: str, pick: int, server: RedisServer) -> None:
    """`5 yellow` with a Wild as card 5 and a Yellow 5 in the hand: the console
    asks which is meant (Enter cancels, `²` is no answer) and plays that one."""
    _ = gettext_for(lang)
    stage_game(server.url, Stage(hands=("R1 Y5 G2 B3 W", "R7 G8 B9"), top="Y9"), lang=lang)
    screen = Screen(server.url, lang)
    hand = screen.until_move()
    assert re.search(rf"\b5 ● +W +{_name('W', lang)}", hand) and _name("Y5", lang) in hand
    line = f"5 {_('yellow')}"  # "5 yellow", "5 amarillo"
    text, label = screen.type(line)
    assert label == _("Which")
    assert _("Which did you mean?") in text
    options = text.rsplit(_("Which did you mean?"), 1)[1]
    assert _("card {n} of your hand").format(n=5) in options
    assert f"{_name('W', lang)} {_('in')} {color_name('Y', lang)}" in options
    assert re.search(rf"2 +5 +{_name('Y5', lang)}", options)
    text, label = screen.type("")  # Enter: nothing is played
    assert _("Cancelled.") in text and label == _("Your move")
    screen.type(line)
    text, label = screen.type("²")  # not a number int() reads: said so, asked again
    assert _("Type 1 or 2 (Enter cancels).") in text and label == _("Which") and "Traceback" not in text
    played = screen.until_move(*screen.type(str(pick)))
    if pick == 1:
        assert _played(lang, "W") in played and _chose(lang, "Y") in played
        assert _played(lang, "Y5") not in played
    else:
        assert _played(lang, "Y5") in played
        assert _played(lang, "W") not in played and _chose(lang, "Y") not in played
    assert screen.close() == 0
    if lang == "es":
        _no_english(screen.output)


@pytest.mark.parametrize("last", ["W", "W+4"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_last_card_that_is_a_wild_asks_no_colour(lang: str, last: str, server: RedisServer) -> None:
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    ai = stage_game(server.url, Stage(hands=(last, "R1 R2 G3"), top="Y9"), lang=lang)
    screen = Screen(server.url, lang)
    hand = screen.until_move()
    assert re.search(rf"\b1 ● +\S+ +{re.escape(_name(last, lang))}", hand)
    text, label = screen.type("1")
    assert label is not None and label.startswith(_("Play again?")), text  # no colour asked: the round is over
    assert _("Choose a colour:") not in text and _("Colour") + " " not in text
    assert _played(lang, last) in text
    assert _("{player} chose {color}.").split(" {color}")[0].format(player="Tess") not in text  # nobody chose
    if last == "W+4":  # the last Wild Draw Four still makes the next player draw (and it is scored)
        assert ngettext("{player} takes {n} card.", "{player} takes {n} cards.", 4).format(player=ai, n=4) in text
    assert ngettext_for(lang)("{player} wins the round and scores {n} point!",
                           "{player} wins the round and scores {n} points!", 2).split(" {n}")[0].format(player="Tess") in text
    assert ngettext("After {n} round, {player} wins with {points} points!",
                    "After {n} rounds, {player} wins with {points} points!", 1).split(" {points}")[0].format(
        n=1, player="Tess") in text
    assert screen.close("n") == 0
    if lang == "es":
        _no_english(screen.output)


@pytest.mark.parametrize("lang", LANGS)
def test_a_last_wild_asks_its_colour_when_the_others_play_on(lang: str, server: RedisServer) -> None:
    """Playing for places (`one-winner.places`), the round goes on after the last
    card: its colour matters to the others, so it is asked."""
    _ = gettext_for(lang)
    stage_game(server.url, Stage(hands=("W", "R1 R2 G3", "R4 R5 G6"), top="Y9"), lang=lang,
               rules=("one-winner.places=true",))
    screen = Screen(server.url, lang)
    screen.until_move()
    text, label = screen.type("1")
    assert _("Choose a colour:") in text and label == _("Colour")
    text, label = screen.type("²")  # not a number int() reads: said so, asked again
    assert _("Type a number from 1 to {n}, or a colour name (Enter cancels).").format(n=4) in text
    assert label == _("Colour") and "Traceback" not in text
    text, label = screen.type(_("blue"))
    assert _played(lang, "W") in text and _chose(lang, "B") in text
    while label is not None:  # the others play on for places; then the match is over (--rounds 1)
        assert label.startswith((_("Enter"), _("Play again?"))), (label, text[-2000:])
        text, label = screen.type("n" if label.startswith(_("Play again?")) else "")
    screen.child.close()
    assert screen.child.exitstatus == 0
    assert ngettext_for(lang)("{player} wins the round and scores {n} point!",
                           "{player} wins the round and scores {n} points!", 2).split(" {n}")[0].format(player="Tess") \
        in screen.output
    if lang == "es":
        _no_english(screen.output)


@pytest.mark.parametrize("bluff", [False, True])
@pytest.mark.parametrize("lang", LANGS)
def test_the_challenger_sees_the_challenged_hand(lang: str, bluff: bool, server: RedisServer) -> None:
    """The AI plays a Wild Draw Four on me (its only play, or, against my two
    cards, a bluff that holds red); I challenge and am shown its hand as it was."""
    _ = gettext_for(lang)
    hands = ("G2 Y6", "W+4 R9 B2 B3") if bluff else ("R1 Y5 G2 Y6 G7", "W+4 B8 B9")
    # Only `easy` gambles a Wild Draw Four while holding the colour (a person's slip).
    ai = stage_game(server.url, Stage(hands=hands, top="R5", turn=1), lang=lang, ai="easy" if bluff else "strong")
    screen = Screen(server.url, lang)
    before = screen.until_move()
    assert _("{player} played {card}.").format(player=ai, card=_name("W+4", lang)) in before
    assert _("You must draw {n}.").format(n=4) in before  # addressed as "you"
    assert f"{_('challenge')} ({_('was the Wild Draw Four a bluff?')})" in before
    text = screen.until_move(*screen.type(_("challenge")))
    if bluff:
        said = _("{player} challenged {other}'s Wild Draw Four: a bluff!")  # the draw: its own line
    else:
        said = _("{player} challenged {other}'s Wild Draw Four and lost.")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if said.format(player="Tess", other=ai) in line)
    shown = lines[at + 1]  # right under the challenge, before what follows it
    assert _("{player}'s hand:").format(player=ai) in shown
    held = ("R9", "B2", "B3") if bluff else ("B8", "B9")
    faces = shown.split(":", 1)[1].split(",")  # each card: its chip, then its name
    assert [_name(card, lang) for card in held] == [re.sub(r"^\s*\S+\s+", "", face).strip() for face in faces]
    assert screen.close() == 0
    if lang == "es":
        _no_english(screen.output)


@pytest.mark.parametrize("drawn", ["Y4", "W", "B7"])
@pytest.mark.parametrize("lang", LANGS)
def test_draw_and_play_it_if_it_fits(lang: str, drawn: str, server: RedisServer) -> None:
    """`dp` (`rj`): one command draws, and plays the card if it fits (a wild in the
    colour the hand holds most of), else keeps it and the turn is over."""
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    stage_game(server.url, Stage(hands=("R1 G2 G3", "R7 R8 B9"), top="Y9", next_draw=(drawn, "R3", "G8")),
               lang=lang)
    screen = Screen(server.url, lang)
    hand = screen.until_move()
    assert f"{_('dp')} ({_('draw, and play it if it fits')})" in hand
    text = screen.until_move(*screen.type(_("dp")))
    assert ngettext("{player} drew a card.", "{player} drew {n} cards.", 1).format(player="Tess", n=1) in text
    assert re.search(rf"{_('You drew:')} +\S+ +{re.escape(_name(drawn, lang))}", text)
    if drawn == "B7":
        assert _("{player} played {card}.").split(" {card}")[0].format(player="Tess") not in text
        assert _name(drawn, lang) in text.rsplit(ngettext("Your hand ({n} card):", "Your hand ({n} cards):", 4)
                                                 .format(n=4), 1)[1]  # kept
    else:
        assert _played(lang, drawn) in text
        if drawn == "W":
            assert _chose(lang, "G") in text
    assert screen.close() == 0
    if lang == "es":
        _no_english(screen.output)


@pytest.mark.parametrize("lang", LANGS)
def test_cards_typed_in_every_form_across_turns(lang: str, server: RedisServer) -> None:
    """`1 2` is one card too many (never a player), the numbering holds while the
    hand does, and the forms a player types play what they name: a wild and
    its colour in a word each (`w yel`, `comodín ama`), `play`/`jugar` and a
    name as shown, a Wild Draw Four and its colour (`w+4 blu`, `+4 azul`), and a
    name that does not fit is the engine's refusal, not an unknown command."""
    _ = gettext_for(lang)
    stage_game(server.url, Stage(hands=("Y5 R+2 W W+4 G1 G2", "R4 G6 B7"), top="Y9",
                                 next_draw=("R3", "G8", "B2", "G3", "B4", "R7")), lang=lang)
    screen = Screen(server.url, lang)
    first = screen.until_move()
    title = ngettext_for(lang)("Your hand ({n} card):", "Your hand ({n} cards):", 6).format(n=6)
    hand = first.rsplit(title, 1)[1]
    text, label = screen.type("1 2")
    assert _("One card at a time: its number (3) or its name (Red 5, R5).") in text and label == _("Your move")
    text, label = screen.type(_("table"))
    assert text.rsplit(title, 1)[1] == hand  # the same hand, numbered the same
    forms = {"en": ("w yel", "play Yellow 5", "w+4 blu", "+2 red"),
             "es": ("comodín ama", "jugar amarillo 5", "+4 azul", "+2 rojo")}[lang]
    text = screen.until_move(*screen.type(forms[0]))
    assert _played(lang, "W") in text and _chose(lang, "Y") in text
    text = screen.until_move(*screen.type(forms[1]))
    assert _played(lang, "Y5") in text
    text = screen.until_move(*screen.type(forms[2]))
    assert _played(lang, "W+4") in text and _chose(lang, "B") in text
    text, label = screen.type(forms[3])
    assert "✗ " + _("That card does not fit the top card.") in text and label == _("Your move")
    assert screen.close(_("quit")) == 0
    assert "Traceback" not in screen.output
    if lang == "es":
        _no_english(screen.output)


@pytest.mark.parametrize("lang", LANGS)
def test_every_kind_of_card_is_named_as_players_say_it(lang: str, server: RedisServer) -> None:
    """Skip, Reverse, Draw Two, Wild, Wild Draw Four by the names players use
    (in Spanish "Salta", "Cambio de sentido", "Roba dos", "Comodín", "Comodín
    roba cuatro"), the Wild Draw Four once, not "+4  +4"; and typed short, with
    the language's letters (`yr`; in Spanish `ac`: amarillo, cambio de sentido)."""
    _ = gettext_for(lang)
    stage_game(server.url, Stage(hands=("RS YR G+2 B5 W W+4", "R7 G8 B9"), top="Y9"), lang=lang)
    screen = Screen(server.url, lang)
    hand = screen.until_move()
    names = {"en": ("Red Skip", "Yellow Reverse", "Green Draw Two", "Blue 5", "Wild", "Wild Draw Four"),
             "es": ("Salta rojo", "Cambio de sentido amarillo", "Roba dos verde", "5 azul", "Comodín",
                    "Comodín roba cuatro")}[lang]
    shown = re.findall(r"\d+ [●○] +\S+ +(.+?)(?= {2,}|\n|$)", hand.rsplit(_("Your hand ({n} card):").split(" (")[0], 1)[1])
    assert tuple(shown[:6]) == names, shown
    assert not re.search(r"\+4 +\+4", hand)
    text = screen.until_move(*screen.type({"en": "yr", "es": "ac"}[lang]))
    assert _played(lang, "YR") in text
    assert screen.close() == 0
    if lang == "es":
        _no_english(screen.output)


@pytest.mark.parametrize("lang", LANGS)
def test_a_pending_draw_is_said_to_me(lang: str, server: RedisServer) -> None:
    """Stacking (party): "You must draw 2, or answer with Green Draw Two", to me."""
    _ = gettext_for(lang)
    ai = stage_game(server.url, Stage(hands=("G+2 R1 B3", "R+2 Y4 G5"), top="R9", turn=1), lang=lang,
                    variant="party")
    screen = Screen(server.url, lang)
    text = screen.until_move()
    assert _("{player} played {card}.").format(player=ai, card=_name("R+2", lang)) in text
    assert _("You must draw {n}, or answer with {cards}.").format(n=2, cards=_name("G+2", lang)) in text
    assert _("You must draw {n}, or answer it.").format(n=2) in text  # the log line too
    assert f"{_('draw')} ({_('take {n}').format(n=2)})" in text
    assert screen.close() == 0
    if lang == "es":
        _no_english(screen.output)


@pytest.mark.parametrize("lang", LANGS)
def test_whom_to_swap_with_is_asked_and_read_as_int_reads(lang: str, server: RedisServer) -> None:
    """Seven-O (party): a 7 asks whom to swap hands with; `²` is no answer
    (said so, asked again), a name's start is one."""
    _ = gettext_for(lang)
    ai = stage_game(server.url, Stage(hands=("R7 G1 B2", "Y3 Y4", "G5 G6 G8"), top="R9"), lang=lang,
                    variant="party")
    screen = Screen(server.url, lang)
    screen.until_move()
    text, label = screen.type("1")
    assert _("Choose a player:") in text and label == _("Player")
    text, label = screen.type("²")
    assert _("Type a number from 1 to {n}, or the start of a name (Enter cancels).").format(n=2) in text
    assert label == _("Player") and "Traceback" not in text
    other = ai.split(", ")[1]
    text, label = screen.type(other[:2])
    assert _("{player} swapped hands with {other}.").format(player="Tess", other=other) in text
    assert screen.close() == 0
    if lang == "es":
        _no_english(screen.output)


@pytest.mark.parametrize("lang", LANGS)
def test_quit_at_a_question_saves_and_leaves(lang: str, server: RedisServer) -> None:
    """`quit` (`salir`, `q`) at the colour question leaves as at the move prompt:
    the game saved, the card not played; resumed, the hand is as it was."""
    _ = gettext_for(lang)
    stage_game(server.url, Stage(hands=("R1 W", "R7 G8 B9"), top="Y9"), lang=lang)
    screen = Screen(server.url, lang)
    hand = screen.until_move()
    text, label = screen.type("2")
    assert label == _("Colour")
    assert screen.close(_("quit")) == 0
    assert _("Game saved. Continue it with: {command} --resume").format(command="unobot play") in screen.output
    assert _played(lang, "W") not in screen.output
    again = Screen(server.url, lang)
    title = ngettext_for(lang)("Your hand ({n} card):", "Your hand ({n} cards):", 2).format(n=2)
    assert again.until_move().rsplit(title, 1)[1] == hand.rsplit(title, 1)[1]
    assert again.close("q") == 0
