"""An AI seat of a kept game is named in the reader's language: a German
reading a French console match's replay reads "Ada (KI)", not "Ada (IA)".

Why: the record kept the name as the table said it, mark included, so every
later reader saw the language the game was played in. The record now keeps
the base name and says the mark at reading time; records kept before that
(names with a mark of any language) read the same way.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

from tests.console.helpers import env
from tests.support.redis_server import RedisServer
from unobot.adapters.console.cli import user_id
from unobot.chat.records_text import summary_lines

ROOT = Path(__file__).resolve().parents[2]
CHAT = f"console.{user_id()}.auto"


def run(*args: str, extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unobot.cli", *args], cwd=ROOT,
                          env={**env(), **extra}, capture_output=True, text=True, timeout=120)


def test_a_french_matchs_replay_names_the_ai_seats_in_german(tmp_path: Path) -> None:
    redis = RedisServer(tmp_path / "redis").start()
    try:
        extra = {"UNOBOT_CONFIG": str(tmp_path / "config.yaml")}
        (tmp_path / "config.yaml").write_text(f"store:\n  prefix: ai{uuid.uuid4().hex[:6]}\n")
        done = run("play", "--auto", "--lang", "fr", "--rounds", "1", "--store", redis.url, "--seed", "5",
                   "--players", "3", "--delay", "0", extra=extra)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "(IA)" in done.stdout  # the table itself speaks French
        german = run("replay", CHAT, "--last", "--lang", "de", "--store", redis.url, extra=extra)
        assert german.returncode == 0, german.stderr
        assert "(IA)" not in german.stdout, german.stdout
        assert "(KI)" in german.stdout.splitlines()[1], german.stdout
        french = run("replay", CHAT, "--last", "--lang", "fr", "--store", redis.url, extra=extra)
        assert "(IA)" in french.stdout.splitlines()[1] and "(IA) (IA)" not in french.stdout
    finally:
        redis.stop()


def test_a_record_kept_with_the_tables_mark_is_read_in_the_readers() -> None:
    """A record from before: the name with the Russian mark, as the table said it."""
    record = {"lang": "ru", "winner": 0, "rounds": 1, "moves": 30, "log": [],
              "players": [{"id": "ai:1", "name": "Ada (ИИ)", "ai": True, "level": "normal", "score": 40},
                          {"id": "p1", "name": "Ana (ИИ)", "ai": False, "score": 0}]}
    lines = summary_lines(record, "de")
    assert "Ada (KI)" in lines[1] and "ИИ" not in lines[1]
    assert any(line.startswith("Ada (KI): 40") for line in lines)
    assert any(line.startswith("Ana (ИИ): 0") for line in lines)  # a person's name is theirs, as written
    assert summary_lines(record, "ru")[1].count("(ИИ)") == 1
