"""The console's faults testers reported (issues #21, #22), each one shown gone:
cards of No Mercy typed back by name; games kept in the person's data folder,
not the current one; `3 uno` with too many cards refused whole; a `dp` draw that
does not fit said; one line for a run of draws; `unobot rules | head`; a
plugin's out-of-turn move waited for."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pexpect
import pytest

from tests.support.redis_server import RedisServer
from unobot.adapters.console import render
from unobot.adapters.console.app import (
    ConsoleApp,
    Options,
    make_service,
)
from unobot.adapters.console.cli import data_dir, user_data_dir
from unobot.cards import parse_card
from unobot.chat.i18n import gettext_for, ngettext_for
from unobot.chat.narration import merge_repeats
from unobot.chat.render import card_name, error_text
from unobot.chat.typed_offers import may_act
from unobot.chat.views import HandView
from unobot.config import Config
from unobot.events import Event
from unobot.moves import Move

from .helpers import PROMPT, ROOT, Stage, clean, spawn, stage_game
from .test_staged import Screen, _name, _played

LANGS = ("en", "es")


@pytest.mark.parametrize("lang", LANGS)
def test_no_mercy_cards_are_typed_back_by_their_names(lang: str, server: RedisServer) -> None:
    """`Blue Skip Everyone` (`Salta a todos azul`) plays that card, not a Blue
    Skip aimed at a player called Everyone; the chip shows the kind's symbol."""
    stage_game(server.url, Stage(hands=("BSA B9 R5 G7", "Y1 Y2 Y3 Y4"), top="B5"), lang=lang, variant="no-mercy")
    screen = Screen(server.url, lang)
    hand = screen.until_move()
    assert "⊘⊘" in hand and _name("BSA", lang) in hand
    played = screen.until_move(*screen.type(_name("BSA", lang)))
    assert _played(lang, "BSA") in played
    assert gettext_for(lang)("No such player at this table.") not in played
    played = screen.until_move(*screen.type(_name("B9", lang)))  # Skip Everyone: my turn again
    assert _played(lang, "B9") in played
    assert screen.close() == 0


@pytest.mark.parametrize("lang", LANGS)
def test_uno_with_too_many_cards_is_refused_and_nothing_is_played(lang: str, server: RedisServer) -> None:
    _ = gettext_for(lang)
    stage_game(server.url, Stage(hands=("R5 R7 G2", "B1 B2 B3"), top="R1"), lang=lang)
    screen = Screen(server.url, lang)
    screen.until_move()
    text, label = screen.type("1 uno")
    assert error_text("uno_not_now", lang) in text and label == _("Your move")
    assert _played(lang, "R5") not in text and _("{player}: UNO!").format(player="Tess") not in text
    text, label = screen.type("t")  # the table again: still three cards
    assert ngettext_for(lang)("Your hand ({n} card):", "Your hand ({n} cards):", 3).format(n=3) in text
    played = screen.until_move(*screen.type("1"))
    assert _played(lang, "R5") in played
    assert screen.close() == 0


@pytest.mark.parametrize("lang", LANGS)
def test_a_draw_and_play_that_does_not_fit_says_what_was_drawn(lang: str, server: RedisServer) -> None:
    _ = gettext_for(lang)
    ai = stage_game(server.url, Stage(hands=("G2 G3", "B1 B2 B3"), top="R1", next_draw=("B9",)), lang=lang)
    screen = Screen(server.url, lang)
    screen.until_move()
    screen.child.sendline(_("dp"))
    text = ""
    while True:  # up to my next move (or an Enter pause)
        text += clean(screen.child.before) if screen.child.expect([PROMPT], timeout=60) == 0 else ""
        label = text.rsplit("\n", 1)[-1].strip()
        if label.startswith(_("Your move")):
            break
        screen.child.sendline("")
    line = _("{cards} does not fit now: you keep it.").format(cards=card_name(parse_card("B9"), lang))
    assert line in text, text[-1500:]
    # Said under my draw, before the others move (it came after them, even after a round's end).
    moved = [_("{player} played {card}.").format(player=ai, card=card_name(parse_card(card), lang))
             for card in ("B1", "B2", "B3")]
    others = [text.index(played) for played in moved if played in text]
    assert others and text.index(line) < min(others), text[-1500:]
    assert screen.close() == 0


def test_games_are_kept_in_the_persons_data_folder(tmp_path: Path) -> None:
    """Started in one folder, quit, resumed from another: the game is found,
    and no `data/` is left in either folder. The first holds the clone's own
    config.yaml (`store.data_dir: data/`), as when started with `python3
    run.py play` from the clone."""
    home, first, second = tmp_path / "home", tmp_path / "one", tmp_path / "two"
    for folder in (home, first, second):
        folder.mkdir()
    (first / "config.yaml").write_text((ROOT / "config.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    xdg = tmp_path / "xdg"
    extra = {"HOME": str(home), "XDG_DATA_HOME": str(xdg)}
    child = spawn("--delay", "0", "--name", "Tess", "--seed", "3", cwd=first, **extra)
    try:
        child.expect(PROMPT, timeout=90)
        child.sendline("q")
        child.expect(pexpect.EOF, timeout=60)
    finally:
        child.close()
    again = spawn("--resume", "--delay", "0", "--name", "Tess", cwd=second, **extra)
    try:
        again.expect(PROMPT, timeout=90)
        assert "Welcome back" in clean(again.before)
        again.sendline("q")
        again.expect(pexpect.EOF, timeout=60)
    finally:
        again.close()
    assert (xdg / "unobot").is_dir()
    assert not (first / "data").exists() and not (second / "data").exists()


def test_where_the_data_folder_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here
    config = Config()
    assert data_dir(None, config, {"XDG_DATA_HOME": "/x/share", "HOME": "/h"}) == Path("/x/share/unobot")
    assert data_dir(None, config, {"HOME": "/h"}) == Path("/h/.local/share/unobot")
    assert user_data_dir({"XDG_DATA_HOME": "relative", "HOME": "/h"}) == Path("/h/.local/share/unobot")
    assert data_dir("mine", config, {"HOME": "/h"}) == Path("mine")
    assert data_dir(None, config, {"UNOBOT_DATA_DIR": "/d", "HOME": "/h"}) == config.store.data_dir
    (tmp_path / "config.yaml").write_text("store:\n  data_dir: kept/\n", encoding="utf-8")
    from unobot.config import load_config

    # the config.yaml lying in the folder it was started from (the project's
    # own, under `python3 run.py play`) does not move the games: --resume
    # from anywhere else would find nothing
    configured = load_config(environ={})
    assert data_dir(None, configured, {"HOME": "/h"}) == Path("/h/.local/share/unobot")
    # a config file named on purpose does
    named = {"UNOBOT_CONFIG": str(tmp_path / "config.yaml"), "HOME": "/h"}
    assert data_dir(None, load_config(environ=named), named) == tmp_path.resolve() / "kept"


def test_a_run_of_draws_is_one_line() -> None:
    draws = [Event("cards_drawn", 1, n=1), Event("cards_drawn", 1, n=1), Event("cards_drawn", 1, n=1),
             Event("card_played", 1, parse_card("R5")), Event("cards_drawn", 2, n=2)]
    merged = merge_repeats(draws)[0]
    assert [(e.kind, e.player, e.n) for e in merged] == [("cards_drawn", 1, 3), ("card_played", 1, 0),
                                                         ("cards_drawn", 2, 2)]
    twins = [Event("card_played", 1, parse_card("Y2"))] * 2 + [Event("turn", 2)]
    events, times = merge_repeats(twins)
    assert events == [twins[0], twins[2]] and times == [2, 1]  # "Ada played Yellow 2. ×2"


def test_a_no_mercy_demo_never_repeats_a_line() -> None:
    """Draw-to-match in No Mercy: an AI that draws three cards is one line, not three."""
    from unobot.store import MemoryStore

    class Leave:
        def read(self, prompt: object, timeout: float | None = None) -> str | None:
            raise EOFError

    for seed in (1, 2, 3):
        options = Options(variant="no-mercy", players=4, auto=True, delay=0, seed=seed, rounds=1, persistent=False)
        out = io.StringIO()
        from rich.console import Console

        app = ConsoleApp(make_service(MemoryStore(), options), options, Console(file=out, width=140),
                         reader=Leave())  # type: ignore[arg-type]
        assert asyncio.run(app.run()) == 0
        lines = [line for line in out.getvalue().splitlines() if line.strip()]
        repeated = [a for a, b in zip(lines, lines[1:], strict=False) if a == b and "·" in a]
        assert not repeated, repeated[:3]
        assert any("drew" in line and "cards" in line for line in lines)


def test_rules_into_a_closed_pipe_ends_quietly() -> None:
    """`unobot rules | head -1`: the reader leaves early; no BrokenPipeError traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "unobot.cli", "rules"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipe" not in err, err[-2000:]
    assert proc.returncode in (0, 1)


def test_a_plugin_move_out_of_turn_is_waited_for() -> None:
    """The console stops before the next player moves whenever my hand's view
    offers a move out of turn, a plugin's (`HandView.extras`) included, and
    shows it."""
    knock = Move("knock", 0)
    hv = HandView(seat=0, is_turn=False, cards=[], extras=[knock])
    view = SimpleNamespace(players=[], turn_name="Ada")
    assert may_act(view, hv, "console.me") is True  # type: ignore[arg-type]
    assert may_act(view, HandView(seat=0, is_turn=False, cards=[]), "console.me") is False  # type: ignore[arg-type]
    shown = render.out_of_turn(hv, view, "en")  # type: ignore[arg-type]
    assert knock.text in shown.plain


@pytest.mark.parametrize("lang", ("en", "es"))
def test_ctrl_c_while_the_others_move_says_the_game_is_saved(lang: str, server: RedisServer) -> None:
    """Ctrl-C during the AI's pause (not at a prompt) left without a word: the
    player could not know the game was kept, nor how to continue it. Now it
    says so as `quit` does, and `--resume` takes it up."""
    _ = gettext_for(lang)
    child = spawn("--store", server.url, "--seed", "7", "--delay", "5", "--lang", lang, "--name", "Ctrl")
    child.expect_exact(_("Round {n} begins.").format(n=1))
    child.expect_exact(_("The first card is {card}.").split("{")[0])
    time.sleep(1.5)  # inside the five seconds' pause before the next line: the event loop waits
    child.sendintr()
    child.expect(pexpect.EOF)
    said = clean(child.before)
    assert _("Game saved. Continue it with: {command} --resume").format(command="unobot play") in said, said
    assert "Traceback" not in said
    again = spawn("--store", server.url, "--resume", "--lang", lang, "--name", "Ctrl")
    again.expect_exact(PROMPT)
    assert _("Welcome back: your game of {variant}, round {n}.").split("{")[0] in clean(again.before)
    again.sendline("quit")
    again.expect(pexpect.EOF)
