"""Players' records in the console, in English and in Spanish, through a pty.

`top`, `me`, `last` and `forgetme` print what core says on Telegram and
Discord (core/chat/answers.py), and the matches played in the console
count in its standings. Each test lays out a table whose next move ends
the match (`helpers.stage_game`), so the counts are known: Tess wins with
her last card, the AI seat's hand (R7 G8 B9) is her 24 points.
"""

from __future__ import annotations

import re

import pytest

from tests.support.redis_server import RedisServer
from unobot.chat import typed
from unobot.chat.i18n import gettext_for, ngettext_for
from unobot.chat.records import display_rating, rate
from unobot.chat.views import level_title

from .helpers import Stage, stage_game
from .test_play import _no_english
from .test_staged import Screen

LANGS = ("en", "es")
AI_HAND = "R7 G8 B9"
POINTS = 7 + 8 + 9


def _after(screen: Screen, text: str, label: str | None) -> tuple[str, str]:
    """Press Enter at any pause up to the "Play again?" question; what was printed."""
    seen = [text]
    while label is not None and "[" not in label:  # "[Y/n]", "[S/n]"
        text, label = screen.type("")
        seen.append(text)
    assert label is not None, "".join(seen)[-2000:]
    return "".join(seen), label


def _lines(text: str) -> list[str]:
    """The lines printed after a typed line (its echo left out)."""
    return [line.strip() for line in text.splitlines() if line.strip()][1:]


def rated_ai(name: str, lang: str) -> str:
    """The AI seat's name in the standings: with its level (the staged game's `strong`, i.e. hard),
    since each level is rated on its own."""
    return f"{name} · {level_title('hard', lang)}"


def _ratings() -> tuple[str, str]:
    """Tess's and the AI seat's ratings after her win (1st and 2nd of two, both new)."""
    won, lost = (display_rating(r) for r in rate([1, 2], ["", ""]))
    return f"{won:.1f}", f"{lost:.1f}"


@pytest.mark.parametrize("lang", LANGS)
def test_records_of_a_console_match(lang: str, server: RedisServer) -> None:
    _ = gettext_for(lang)
    ai = stage_game(server.url, Stage(hands=("R1", AI_HAND), top="R9"), lang=lang, rounds=1)
    screen = Screen(server.url, lang)
    screen.until_move()
    # The help lists the four, with the period words of the player's language.
    text, _label = screen.type(_("help"))
    week, month, every = (typed.first_form(lang, typed.PERIODS[p]) for p in ("week", "month", "all"))
    assert f"top [{week}|{month}|{every}]" in text
    for what in ("the standings here: wins, games, points and rating (this week, this month, all time)",
                 "your record and rating wherever you finished a match",
                 "the last finished match: who won, the scores, its last moments",
                 "remove your records and your name from the kept games"):
        assert _(what) in text, what
    # Before the match ends nothing is counted; the game goes on after the answer.
    text, label = screen.type("top")
    assert _lines(text)[:2] == [_("Standings: all time"), _("No finished match is counted here yet.")]
    assert label == _("Your move")
    text, label = screen.type("me")
    assert _lines(text)[:2] == [_("{player}'s record").format(player="Tess"), _("You have not finished a match yet.")]
    # Tess plays her last card: the match (one round) is over and kept.
    text, label = _after(screen, *screen.type("1"))
    assert _("Play again?") in label
    won, lost = _ratings()
    tess = _("{rank}. {player}: {wins} won of {games}, {points} points, rating {rating}").format(
        rank=1, player="Tess", wins=1, games=1, points=POINTS, rating=won)
    bot = _("{rank}. {player}: {wins} won of {games}, {points} points, rating {rating}").format(
        rank=2, player=rated_ai(ai, lang), wins=0, games=1, points=0, rating=lost)
    # Asked before "Play again?" is answered: each answered, the question asked again.
    text, label = screen.type("top")
    assert _lines(text)[:3] == [_("Standings: all time"), tess, bot] and _("Play again?") in label
    text, label = screen.type(f"top {week}")
    assert _lines(text)[:3] == [_("Standings: this week"), tess, bot]
    text, label = screen.type(f"/top {month}")
    assert _lines(text)[:3] == [_("Standings: this month"), tess, bot]
    text, label = screen.type("top fortnight")
    # The example is typed the console's way, in the reader's words (`clasificación semana`),
    # never Telegram's `/top week`, which a terminal does not read as written.
    top = typed.first_form(lang, typed.RECORD_WORDS["top"])
    assert _lines(text)[0] == _("Say which standings: week, month or all (for example {example}).").format(
        example=f"{top} {week}")
    assert "/top" not in text
    text, label = screen.type("me")
    assert _lines(text)[:2] == [
        _("{player}'s record").format(player="Tess"),
        _("{where}: {wins} won of {games}, {points} points, rating {rating}").format(
            where=_("Here"), wins=1, games=1, points=POINTS, rating=won)]
    text, label = screen.type("last")
    lines = _lines(text)
    assert lines[0] == _("The last match")
    ngettext = ngettext_for(lang)
    moved = re.escape(ngettext("{player} won after {n} round (moves: {moves}).",
                               "{player} won after {n} rounds (moves: {moves}).", 1)).replace(
        re.escape("{player}"), "Tess").replace(re.escape("{n}"), "1").replace(re.escape("{moves}"), r"\d+")
    assert re.fullmatch(moved, lines[1]), lines[1]
    assert lines[2:4] == [ngettext("{player}: {n} point", "{player}: {n} points", POINTS).format(player="Tess", n=POINTS),
                          ngettext("{player}: {n} point", "{player}: {n} points", 0).format(player=ai, n=0)]
    # Forgotten: Tess leaves the standings and the kept game; the AI seat's line stays.
    text, label = screen.type("forgetme")  # asked first: it cannot be undone
    assert _lines(text)[0] == _("Remove your records and your name from every kept game? This cannot be undone.")
    text, label = screen.type("forgetme " + _("yes"))
    assert _lines(text)[0] == _("Your records are removed, and your name is gone from the kept games.")
    text, label = screen.type("top")
    lines = _lines(text)
    assert lines[:2] == [_("Standings: all time"), bot.replace("2. ", "1. ", 1)]
    assert "Tess" not in text
    text, label = screen.type("me")
    assert _("You have not finished a match yet.") in text
    text, label = screen.type("last")
    assert "Tess" not in text and _lines(text)[1].startswith(_("(forgotten)"))  # in the reader's language
    assert screen.close("n") == 0
    assert "Traceback" not in screen.output
    if lang == "es":
        _no_english(screen.output)
        assert "(forgotten)" not in screen.output  # the forgotten name said in Spanish too


@pytest.mark.parametrize("lang", LANGS)
def test_a_match_won_on_points_counts_once(lang: str, server: RedisServer) -> None:
    """No `--rounds`: the match ends when Tess's round reaches the target (20
    points), the engine's own end of a match, not the console's stop after
    its rounds: counted once all the same."""
    _ = gettext_for(lang)
    ai = stage_game(server.url, Stage(hands=("R1", AI_HAND), top="R9"), lang=lang, rounds=None,
                    rules=("scoring.target=20",))
    screen = Screen(server.url, lang)
    screen.until_move()
    text, label = _after(screen, *screen.type("1"))
    won, lost = _ratings()
    text, label = screen.type("top")
    assert _lines(text)[:3] == [
        _("Standings: all time"),
        _("{rank}. {player}: {wins} won of {games}, {points} points, rating {rating}").format(
            rank=1, player="Tess", wins=1, games=1, points=POINTS, rating=won),
        _("{rank}. {player}: {wins} won of {games}, {points} points, rating {rating}").format(
            rank=2, player=rated_ai(ai, lang), wins=0, games=1, points=0, rating=lost)]
    assert screen.close("n") == 0


@pytest.mark.parametrize("lang", ("es", "de"))
def test_the_records_commands_are_typed_in_the_players_words(lang: str, server: RedisServer) -> None:
    """The console read `top`, `me`, `last`, `forgetme` in English only, and
    its help listed them so, while every other command has the player's word
    (`robar`, `historial`). Now each is read in the player's language too
    (the catalogues' `typed` entries, `typed.RECORD_WORDS`), the English
    names still, and the help shows both."""
    _ = gettext_for(lang)
    stage_game(server.url, Stage(hands=("R1", AI_HAND), top="R9"), lang=lang, rounds=1)
    screen = Screen(server.url, lang)
    screen.until_move()
    top, me, last, forget = (typed.first_form(lang, typed.RECORD_WORDS[w]) for w in ("top", "me", "last", "forgetme"))
    assert "top" not in (top, me, last, forget)
    text, _label = screen.type(_("help"))
    flat = " ".join(text.split())
    for word, name in ((top, "top"), (me, "me"), (last, "last"), (forget, "forgetme")):
        assert f"{word} · {name}" in flat, (word, flat[-1500:])
    month = typed.first_form(lang, typed.PERIODS["month"])
    text, label = screen.type(f"{top} {month}")
    assert _lines(text)[:2] == [_("Standings: this month"), _("No finished match is counted here yet.")]
    assert label == _("Your move")
    text, label = screen.type(me.upper())
    assert _lines(text)[:2] == [_("{player}'s record").format(player="Tess"), _("You have not finished a match yet.")]
    text, label = screen.type(last)
    assert _("Your move") == label and "?" not in _lines(text)[0], text
    text, label = screen.type(forget)
    assert _lines(text)[0] == _("Remove your records and your name from every kept game? This cannot be undone.")
    text, label = _after(screen, *screen.type("1"))  # the match ends: "Play again?" reads them too
    text, label = screen.type(top)
    assert _lines(text)[0] == _("Standings: all time") and "Tess" in text, text


@pytest.mark.parametrize("lang", LANGS)
def test_the_player_resets_the_consoles_standings(lang: str, server: RedisServer) -> None:
    """The console's standings are its player's own, so they may clear them
    as a chat's admin does with `/resetstats`: asked first (it cannot be
    undone), then done with "yes"; the kept games stay (`last` still tells
    the match). Typed in the player's words or the English name."""
    _ = gettext_for(lang)
    stage_game(server.url, Stage(hands=("R1", AI_HAND), top="R9"), lang=lang, rounds=1)
    screen = Screen(server.url, lang)
    screen.until_move()
    word = typed.first_form(lang, typed.RECORD_WORDS["reset"])
    text, label = screen.type(_("help"))
    assert ("resetstats" if lang == "en" else f"{word} · resetstats") in " ".join(text.split())  # the chats' name
    text, label = _after(screen, *screen.type("1"))
    text, label = screen.type(word)
    assert _lines(text)[0] == _("Reset the standings here for everyone? This cannot be undone.")
    text, label = screen.type("top")
    assert "Tess" in text, "asked only: nothing was cleared"
    text, label = screen.type(f"resetstats {_('yes')}")
    assert _lines(text)[0] == _("The standings here are reset (the kept games stay).")
    text, label = screen.type("top")
    assert _lines(text)[:2] == [_("Standings: all time"), _("No finished match is counted here yet.")]
    text, label = screen.type("last")
    assert "Tess" in text  # the kept game stays
    assert screen.close("n") == 0
    assert "Traceback" not in screen.output


@pytest.mark.parametrize("lang", LANGS)
def test_play_again_asks_again_for_an_answer_that_is_neither(lang: str, server: RedisServer) -> None:
    """"Play again?" took any answer but yes for a no: `help` or a slip
    (`yse`) ended the session. Now it is asked again, with what to answer."""
    _ = gettext_for(lang)
    stage_game(server.url, Stage(hands=("R1", AI_HAND), top="R9"), lang=lang, rounds=1)
    screen = Screen(server.url, lang)
    screen.until_move()
    text, label = _after(screen, *screen.type("1"))
    for slip in (_("help"), "yse"):
        text, again = screen.type(slip)
        assert again == label, (slip, text)
        assert _("Answer {yes} or {no}.").format(yes=_("y"), no=_("n")) in text
    assert screen.close("n") == 0
