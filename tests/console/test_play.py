"""`unobot play` through a real terminal (a pty): whole rounds, pauses, quit and resume, Spanish."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tests.support.redis_server import RedisServer
from unobot.adapters.embedded_redis import EmbeddedRedis
from unobot.adapters.store_factory import EMBEDDED_SUBDIR
from unobot.chat.i18n import gettext_for, ngettext_for

from .helpers import ROOT, Player, clean, spawn

GAME = ("--rounds", "1", "--delay", "0", "--name", "Tess", "--lang", "en")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_round_with_every_kind_of_decision(lang: str) -> None:
    # The scripted person plays by what the screen shows, typing the words of
    # its language. Easy AIs forget UNO now and then, so there is someone to
    # catch; a few seeds are tried (each one deterministic) until a round had
    # a wild, a challenge and a catch (seed 14 has all three with easy seats).
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    wanted = ("wild", "catch")
    challenged = re.escape(_("{player} challenged {other}'s Wild Draw Four and lost.").split(" {other}")[0]).replace(
        re.escape("{player}"), "Tess")
    for seed in ("14", "2", "1", "5", "7", "11"):
        child = spawn("--store", "memory", "--seed", seed, "--ai", "easy", "--players", "3", *GAME[:-1], lang)
        player = Player(child, lang=lang)
        out = player.play()
        child.close()
        assert child.exitstatus == 0, out[-2000:]
        if all(player.seen[k] for k in wanted) and re.search(challenged, out):
            break
    else:
        pytest.fail(f"no seed gave a wild, a challenge and a catch: {player.seen}")
    assert all(player.seen[k] for k in ("unknown", "help", "refused", "draw", "uno")), player.seen
    assert _("Unknown command {word!r}. Type help to see the commands.").format(word="fly") in out
    assert _("Commands") in out and _("save the game and leave ({command} --resume continues it)").format(
        command="unobot play") in " ".join(out.split())  # the help table
    assert "✗ " + _("That card does not fit the top card.") in out  # the engine's refusal, translated
    assert ngettext("{player} drew a card.", "{player} drew {n} cards.", 1).format(player="Tess", n=1) in out
    assert _("You drew:") in out
    assert _("Choose a colour:") in out and _("{player} chose {color}.").format(
        player="Tess", color=_("green")) in out
    assert re.search(challenged, out)
    assert re.search(re.escape(_("{player} caught {other} without UNO!")).replace(re.escape("{player}"), "Tess")
                     .replace(re.escape("{other}"), ".+"), out)
    assert _("{player}: UNO!").format(player="Tess") in out  # said with `N uno`
    assert ngettext("Your hand ({n} card):", "Your hand ({n} cards):", 7).format(n=7) in out
    assert _("Top card:") in out and _("Score") in out
    assert ngettext_for(lang)("{player} wins the round and scores {n} point!",
                           "{player} wins the round and scores {n} points!", 2).split("{player}")[1].split(" {n}")[0] in out
    assert _("Scores after round {n}").format(n=1) in out
    won = re.escape(ngettext("After {n} round, {player} wins with {points} points!",
                             "After {n} rounds, {player} wins with {points} points!", 1))
    assert re.search(won.replace(re.escape("{n}"), "1").replace(re.escape("{player}"), ".+")
                     .replace(re.escape("{points}"), r"\d+"), out)
    if lang == "es":  # a whole round in Spanish, not one English word on the screen
        _no_english(out)


#: Words of the English screen that must never show in a Spanish game.
ENGLISH = ("Wild", "Skip", "Reverse", "Draw Two", "Draw Four", "Your ", " draw ", "Press", "Enter", "(AI)",
           "Colour", " card", "Top card", "Score", "Player", "Round", "wins", "played", "drew", "chose",
           "caught", "challenge", "Choose", "Type ", "Commands", "catch", "help", "yellow", "green", "blue",
           "red ", "you ", "You ")


def _no_english(out: str) -> None:
    found = [word for word in ENGLISH if word in out]
    lines = [line for line in out.splitlines() if any(word in line for word in found)]
    assert not found, (found, lines[:10])
    # "¡UNO!" everywhere: every exclamation opens with "¡" (on its line, before it)
    unopened = [line for line in out.splitlines() if any(
        line[:i].count("¡") <= line[:i].count("!") for i, ch in enumerate(line) if ch == "!")]
    assert not unopened, unopened[:10]
    assert not re.search(r"\+4 +\+4", out)  # the Wild Draw Four named once, not "+4  +4"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_party_pauses_for_a_jump_in(lang: str) -> None:
    _ = gettext_for(lang)
    child = spawn("--store", "memory", "--seed", "2", "--variant", "party", "--players", "3", *GAME[:-1], lang)
    player = Player(child, lang=lang)
    out = player.play()
    child.close()
    assert child.exitstatus == 0
    assert _("You may act now, out of turn:") in out
    assert _("Press Enter to let {player} move.").split(" {player}")[0] in out
    assert player.seen["jump"] and _("{player} jumps in!").format(player="Tess") in out
    assert _("Choose a player:") in out  # seven-o asks whom to swap with
    assert _("{player} swapped hands with {other}.").split(" {other}")[0].split("{player} ")[1] in out
    if lang == "es":
        _no_english(out)


def _first_move(child: pexpect.spawn) -> Player:
    """Wait for the first `Your move` prompt; a Player that has seen the screen."""
    player = Player(child)
    while (label := player.prompt()) is not None and not label.startswith("Your move"):
        player.send("")  # let the AI seats move first
    assert label is not None, player.output
    return player


def _quit_and_resume(store_args: tuple[str, ...], cwd: Path | None = None) -> None:
    first = spawn(*store_args, "--seed", "5", *GAME, cwd=cwd)
    hand = _first_move(first).hand
    first.sendline("quit")
    first.expect(pexpect.EOF)
    first.close()
    assert first.exitstatus == 0
    assert "Game saved. Continue it with: unobot play --resume" in clean(first.before)
    if store_args[0] == "--store":  # the saved game replays from its log, exactly (unobot audit)
        audit = subprocess.run([sys.executable, "-m", "unobot.cli", "audit", "--store", store_args[1]],
                               cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert audit.returncode == 0, audit.stdout + audit.stderr
        assert audit.stdout.strip().splitlines()[-1] == "1 game replayed, 0 mismatches"

    second = spawn(*store_args, "--resume", *GAME, cwd=cwd)
    second.expect("Welcome back: your game of Official rules, round 1.")
    player = _first_move(second)
    assert player.hand == hand  # the same deal, from the store
    out = player.play(pending="Your move")
    second.close()
    assert second.exitstatus == 0, out[-2000:]
    assert "wins the round" in out

    third = spawn(*store_args, "--resume", *GAME, cwd=cwd)  # the match was stopped after its round
    third.expect(pexpect.EOF)
    third.close()
    assert third.exitstatus == 1
    assert "There is no saved game to resume." in clean(third.before)


def test_quit_and_resume_across_processes_with_redis(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis").start()  # a server that cannot start fails the test
    try:
        _quit_and_resume(("--store", server.url))
    finally:
        server.stop()


def test_quit_and_resume_with_the_embedded_store(tmp_path: Path) -> None:
    try:
        _quit_and_resume(("--data-dir", str(tmp_path / "data")), cwd=tmp_path)
    finally:  # a console killed mid-test leaves its server running (by design): stop it
        server_dir = tmp_path / "data" / EMBEDDED_SUBDIR
        if (server_dir / "embedded.json").exists():
            leftover = EmbeddedRedis(server_dir)
            leftover.start()
            leftover.stop()


def test_spanish() -> None:
    _ = gettext_for("es")
    for args, env in ((("--lang", "es"), {}), ((), {"LANG": "es_ES.UTF-8"})):
        child = spawn("--store", "memory", "--seed", "3", "--name", "Tess", *args, **env)
        child.expect("› ")
        out = clean(child.before)
        child.sendline("q")
        child.expect(pexpect.EOF)
        child.close()
        assert "Reglas oficiales" in out  # the variant's Spanish title
        hand = ngettext_for("es")("Your hand ({n} card):", "Your hand ({n} cards):", 7).format(n=7)
        assert hand == "Tu mano (7 cartas):" and hand in out
        assert _("Round {n} begins.").format(n=1) in out


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_match_of_the_spanish_rules(lang: str) -> None:
    """`--variant reglas-de-uno`: named for what it is, and a match of two rounds
    played by a person who types the words of the language (in Spanish, not one
    English word on the screen, the pause between rounds included)."""
    _ = gettext_for(lang)
    # A deal (seed 2, easy AI seats) in which the scripted person gets down to two cards and
    # says UNO: `--ai random` was uniform play once and now names `easy`, which ends rounds sooner.
    child = spawn("--store", "memory", "--seed", "2", "--ai", "easy", "--players", "3", "--variant",
                  "reglas-de-uno", "--rounds", "2", *GAME[2:-1], lang)
    player = Player(child, lang=lang)
    out = player.play()
    child.close()
    assert child.exitstatus == 0, out[-2000:]
    title = {"en": "Spanish rules (Reglas de UNO)", "es": "Reglas de UNO"}[lang]
    assert f"UNO · {title}" in out and _("Round {n} · {variant}").format(n=1, variant=title) in out
    assert "The document's rules" not in out
    assert _("Enter starts round {n}; quit saves and leaves").format(n=2) in out
    assert _("Round {n} begins.").format(n=2) in out and _("Scores after round {n}").format(n=2) in out
    assert ngettext_for(lang)("{player} wins the round and scores {n} point!",
                           "{player} wins the round and scores {n} points!", 2).split("{player}")[1].split(" {n}")[0] in out
    assert player.seen["draw"] and player.seen["uno"], player.seen
    if lang == "es":
        _no_english(out)
