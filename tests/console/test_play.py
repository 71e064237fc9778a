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


def test_a_round_with_every_kind_of_decision() -> None:
    # The scripted person plays by what the screen shows. Random AIs forget
    # UNO now and then, so there is someone to catch; a few seeds are tried
    # (each one deterministic) until a round had a wild, a challenge and a catch.
    wanted = ("wild", "catch")
    for seed in ("2", "14", "1", "5", "7", "11"):
        child = spawn("--store", "memory", "--seed", seed, "--ai", "random", "--players", "3", *GAME)
        player = Player(child)
        out = player.play()
        child.close()
        assert child.exitstatus == 0, out[-2000:]
        if all(player.seen[k] for k in wanted) and "Tess challenged" in out:
            break
    else:
        pytest.fail(f"no seed gave a wild, a challenge and a catch: {player.seen}")
    assert all(player.seen[k] for k in ("unknown", "help", "refused", "draw")), player.seen
    assert "Unknown command 'fly'. Type help to see the commands." in out
    assert "Commands" in out and "save the game and leave" in out  # the help table
    assert "✗ That card does not fit the top card." in out  # the engine's refusal, translated
    assert "Tess drew a card." in out and "You drew:" in out
    assert "Choose a colour:" in out and "Tess chose green." in out
    assert re.search(r"Tess challenged .+'s Wild Draw Four", out)
    assert re.search(r"Tess caught .+ without UNO!", out)
    assert "Your hand (7 cards):" in out and "Top card:" in out and "Score" in out
    assert "wins the round" in out
    assert "Scores after round 1" in out
    assert re.search(r"After 1 round, .+ wins with \d+ points!", out)


def test_party_pauses_for_a_jump_in() -> None:
    child = spawn("--store", "memory", "--seed", "1", "--variant", "party", "--players", "3", *GAME)
    player = Player(child)
    out = player.play()
    child.close()
    assert child.exitstatus == 0
    assert "You may act now, out of turn:" in out and "Press Enter to let" in out
    assert player.seen["jump"] and "Tess jumps in!" in out
    assert "Choose a player:" in out and "swapped hands with" in out  # seven-o asks whom to swap with


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
        assert audit.stdout.strip().splitlines()[-1] == "1 games replayed, 0 mismatches"

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
