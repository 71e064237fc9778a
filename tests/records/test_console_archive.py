"""A whole console match against Redis is kept when it ends: `unobot audit`
replays it from its kept log, `unobot replay --last` tells it in words."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

from tests.console.helpers import env
from tests.support.redis_server import RedisServer
from unobot.adapters.console.cli import user_id

ROOT = Path(__file__).resolve().parents[2]
CHAT = f"console.{user_id()}.auto"  # the console's demo chat (adapters/console/app.py)


def run(*args: str, extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unobot.cli", *args], cwd=ROOT,
                          env={**env(), **extra}, capture_output=True, text=True, timeout=120)


def test_a_finished_console_match_is_audited_and_replayed(tmp_path: Path) -> None:
    redis = RedisServer(tmp_path / "redis").start()
    try:
        extra = {"UNOBOT_CONFIG": str(tmp_path / "config.yaml")}
        (tmp_path / "config.yaml").write_text(f"store:\n  prefix: rec{uuid.uuid4().hex[:6]}\n")
        done = run("play", "--auto", "--store", redis.url, "--seed", "3", "--players", "3", "--delay", "0",
                   extra=extra)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "wins the match with" in done.stdout
        audit = run("audit", "--store", redis.url, extra=extra)
        assert audit.returncode == 0, audit.stdout + audit.stderr
        assert audit.stdout.strip().splitlines()[-1] == "1 game replayed, 0 mismatches"
        replay = run("replay", CHAT, "--last", "--store", redis.url, extra=extra)
        assert replay.returncode == 0, replay.stdout + replay.stderr
        lines = replay.stdout.splitlines()
        assert lines[0].startswith(f"Game {CHAT}#") and lines[1].startswith("Dealt: ")
        assert lines[-1].endswith("won the match.") and len(lines) > 10
        spanish = run("replay", CHAT, "--game", "1", "--lang", "es", "--store", redis.url, extra=extra)
        assert spanish.returncode == 0, spanish.stderr
        assert spanish.stdout.splitlines()[1].startswith("Repartido: ")
        assert spanish.stdout.splitlines()[-1].endswith("ganó la partida.")
        # the reader's language by default (their locale, as the console reads it), cards and variant named
        german = run("replay", CHAT, "--last", "--store", redis.url, extra={**extra, "LANG": "de_DE.UTF-8"})
        told = german.stdout.splitlines()
        assert told[0].startswith(f"Spiel {CHAT}#"), german.stdout + german.stderr
        assert told[1].startswith("Ausgeteilt: ") and "(Offizielle Regeln); erste Karte " in told[1]
        assert told[-1].endswith("hat die Partie gewonnen.")
        unknown = run("replay", CHAT, "--last", "--lang", "xx", "--store", redis.url, extra=extra)
        assert unknown.returncode == 2 and "unknown language 'xx'; known: en, " in unknown.stderr
        missing = run("replay", CHAT, "--game", "7", "--store", redis.url, extra=extra)
        assert missing.returncode == 2 and "no such finished game" in missing.stderr
        assert "it keeps 1 (--game 1)" in missing.stderr, missing.stderr  # what there is to ask for
        nowhere = run("replay", "console.nobody", "--last", "--store", redis.url, extra=extra)
        assert nowhere.returncode == 2 and "no finished game kept in chat console.nobody" in nowhere.stderr
    finally:
        redis.stop()


def test_with_no_config_audit_and_replay_read_the_consoles_own_store(tmp_path: Path) -> None:
    """With no config file, `unobot audit` and `unobot replay --last` read
    `./data` of the folder they were started in: a console player (whose
    games are in their data folder, whatever the folder) found "0 games
    replayed", and an empty store was started in that folder. Now they read
    the person's data folder (unless a store is in ./data), and where no
    store was ever kept they say so and start none."""
    home, elsewhere = tmp_path / "xdg", tmp_path / "elsewhere"
    elsewhere.mkdir()
    extra = {"XDG_DATA_HOME": str(home), "HOME": str(tmp_path)}

    def here(*args: str, **more: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "unobot.cli", *args], cwd=elsewhere,
                              env={**env(), **extra, **more}, capture_output=True, text=True, timeout=120)

    played = here("play", "--auto", "--seed", "3", "--players", "3", "--delay", "0", "--rounds", "1")
    assert played.returncode == 0, played.stdout + played.stderr
    audit = here("audit")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert audit.stdout.strip().splitlines()[-1] == "1 game replayed, 0 mismatches"
    told = here("replay", "--last")
    assert told.returncode == 0 and told.stdout.startswith(f"Game {CHAT}#"), told.stdout + told.stderr
    assert not (elsewhere / "data").exists()
    nothing = here("audit", XDG_DATA_HOME=str(tmp_path / "empty"))
    assert nothing.returncode == 2 and "Traceback" not in nothing.stderr, nothing.stderr
    assert nothing.stderr.startswith(f"error: {tmp_path / 'empty' / 'unobot'}: no games are kept here"), nothing.stderr
    assert not (tmp_path / "empty").exists() and not (elsewhere / "data").exists()
