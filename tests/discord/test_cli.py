"""`unobot discord` as a person runs it: a separate process, configured by the environment."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import redis

from tests.discord_api import DiscordAPIServer
from tests.support.redis_server import RedisServer

ROOT = Path(__file__).resolve().parents[2]


def test_help() -> None:
    out = subprocess.run([sys.executable, "-m", "unobot.cli", "discord", "--help"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert "DISCORD_BOT_TOKEN" in out.stdout and "--shards" in out.stdout


def test_no_token(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_BOT_TOKEN"}
    env["UNOBOT_CONFIG"] = str(tmp_path / "config.yaml")
    (tmp_path / "config.yaml").write_text("redis:\n  url: memory\n")
    out = subprocess.run([sys.executable, "-m", "unobot.cli", "discord"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "DISCORD_BOT_TOKEN" in out.stderr


async def test_runs_against_the_configured_api(server: DiscordAPIServer, redis_server: RedisServer,
                                               prefix: str, tmp_path: Path) -> None:
    guild = server.guild()
    config = tmp_path / "config.yaml"
    # redis.wait_replicas reaches the store as for `unobot telegram`: a lone server has no
    # replica, so the first save logs the shortfall and is not acknowledged ("not confirmed")
    config.write_text(f"store:\n  prefix: {prefix}\n  data_dir: {tmp_path}\nredis:\n  wait_replicas: 1\n")
    env = {**os.environ, "DISCORD_BOT_TOKEN": server.token, "UNOBOT_DISCORD_API_URL": server.base_url,
           "UNOBOT_DISCORD_GATEWAY_URL": server.gateway_url, "UNOBOT_REDIS_URL": redis_server.url,
           "UNOBOT_CONFIG": str(config)}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "unobot.cli", "discord", cwd=ROOT,
                                                   env=env, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.STDOUT)
    early: list[bytes] = []
    try:
        await asyncio.wait_for(server.identified.wait(), 30)
        deadline = asyncio.get_running_loop().time() + 30  # a fresh process on a loaded machine
        while not server.commands and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert [c["name"] for c in server.commands] == ["uno"]
        ann = server.member("Ann")
        sent = await server.answer(await server.slash(ann, guild.channels[0], "uno", "new"), timeout=15)
        assert sent.message is not None and "Not confirmed yet" in sent.message.content
        # discord.py is ready once the servers' GUILD_CREATEs stop coming (2 s of quiet)
        assert process.stdout is not None
        while b"unobot: running as" not in (line := await asyncio.wait_for(process.stdout.readline(), 20)):
            assert line, "the process ended before its ready line"
            early.append(line)
        early.append(line)
    finally:
        process.send_signal(signal.SIGINT)
        rest, _ = await asyncio.wait_for(process.communicate(), 20)
    output = b"".join(early) + rest
    assert process.returncode == 0, output.decode()[-2000:]
    assert "0 of 1 replicas acknowledged it" in output.decode(), output.decode()[-2000:]
    # One line once connected, as `unobot telegram` says it: who, where, and what the store keeps.
    ready = [line for line in output.decode().splitlines() if "unobot: running as" in line]
    assert len(ready) == 1, output.decode()[-2000:]
    assert " on Discord (one connection, 1 server); store: Redis (" in ready[0], ready
    # Nothing about voice, which the bot never uses (discord.py warns of it at every start).
    assert "voice will NOT be supported" not in output.decode(), output.decode()[-2000:]


def run_to_exit(tmp: Path, redis_url: str) -> tuple[int, list[str]]:
    """`unobot discord` on a store that fails at start: its exit status and output lines."""
    config = tmp / "config.yaml"
    config.write_text(f"store:\n  data_dir: {tmp}\n")
    env = {**os.environ, "DISCORD_BOT_TOKEN": "x" * 24, "UNOBOT_REDIS_URL": redis_url,
           "UNOBOT_CONFIG": str(config)}
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "discord"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    text = done.stdout + done.stderr
    assert "Traceback" not in text, text
    return done.returncode, [line for line in text.splitlines() if line.strip()]


def test_a_store_that_fails_at_start_is_one_line(tmp_path: Path) -> None:
    """A closed port: "cannot be reached"; a replica (it answered): "refused", with what
    to do. One line each, exit status 1, no traceback (as `unobot telegram`)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    code, lines = run_to_exit(tmp_path, f"redis://127.0.0.1:{closed}/0")
    assert code == 1 and len(lines) == 1, lines
    assert lines[0].startswith("error: the store (Redis) cannot be reached: "), lines
    with RedisServer(tmp_path / "primary") as primary, RedisServer(tmp_path / "replica") as replica:
        with redis.Redis(host="127.0.0.1", port=replica.port) as client:
            client.execute_command("REPLICAOF", "127.0.0.1", str(primary.port))
        code, lines = run_to_exit(tmp_path, replica.url)
    assert code == 1 and len(lines) == 1, lines
    assert lines[0].startswith("error: the store (Redis) refused: this Redis is a replica"), lines


async def test_sigterm_closes_the_bot_cleanly(server: DiscordAPIServer, tmp_path: Path) -> None:
    """systemd stops a service with SIGTERM: the bot closes (gateway, store) and exits 0,
    also right after connecting."""
    config = tmp_path / "config.yaml"
    config.write_text(f"store:\n  data_dir: {tmp_path}\nredis:\n  url: memory\n")
    env = {**os.environ, "DISCORD_BOT_TOKEN": server.token, "UNOBOT_DISCORD_API_URL": server.base_url,
           "UNOBOT_DISCORD_GATEWAY_URL": server.gateway_url, "UNOBOT_CONFIG": str(config)}
    env.pop("UNOBOT_REDIS_URL", None)
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "unobot.cli", "discord", "--no-sync",
                                                   cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.STDOUT)
    await asyncio.wait_for(server.identified.wait(), 30)
    process.send_signal(signal.SIGTERM)
    output, _ = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 0, output.decode()[-2000:]
    assert "Traceback" not in output.decode()


def test_a_shard_outside_the_shards_is_said_before_connecting(tmp_path: Path) -> None:
    """`--shard 2 --shards 2` (shards count from 0): Discord would close the
    gateway (4010, invalid shard); the command says what to give instead, in
    the reader's language as every other start-up error (`--lang`, else the
    locale), and exits 2 before connecting."""
    (tmp_path / "config.yaml").write_text("redis:\n  url: memory\n")
    env = {**os.environ, "DISCORD_BOT_TOKEN": "x" * 24, "UNOBOT_CONFIG": str(tmp_path / "config.yaml"),
           "UNOBOT_DISCORD_API_URL": "http://127.0.0.1:9/api/v10", "LANG": "C.UTF-8"}
    env.pop("LC_ALL", None), env.pop("LC_MESSAGES", None), env.pop("LANGUAGE", None)
    for args, lang, said in (
            (["--shard", "2", "--shards", "2"], "C.UTF-8",
             "error: --shard 2: it is this process's number among --shards 2, from 0 to 1"),
            (["--shard", "0", "--shards", "0"], "C.UTF-8",
             "error: --shards 0: it is how many processes serve the bot, 1 or more"),
            (["--shard", "1"], "C.UTF-8", "error: --shard needs --shards: --shard I --shards N runs shard I of N"),
            (["--shards", "3"], "C.UTF-8", "error: --shards needs --shard"),
            (["--shard", "2", "--shards", "2"], "es_ES.UTF-8", "error: --shard 2: es el número de este proceso"),
            (["--shard", "2", "--shards", "2"], "de_DE.UTF-8", "Fehler: --shard 2:")):
        out = subprocess.run([sys.executable, "-m", "unobot.cli", "discord", *args], cwd=ROOT,
                             env={**env, "LANG": lang}, capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and out.stderr.startswith(said), out.stderr
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr


async def refused_start(server: DiscordAPIServer, tmp_path: Path, extra: str = "") -> tuple[str, str]:
    """`unobot discord` run against the local gateway, which refuses it: (stdout,
    stderr) once it exited 1, as an operator reads them (English, no locale set)."""
    config = tmp_path / "config.yaml"
    config.write_text(f"store:\n  data_dir: {tmp_path}\nredis:\n  url: memory\n{extra}")
    env = {**os.environ, "DISCORD_BOT_TOKEN": server.token, "UNOBOT_DISCORD_API_URL": server.base_url,
           "UNOBOT_DISCORD_GATEWAY_URL": server.gateway_url, "UNOBOT_CONFIG": str(config), "LANG": "C.UTF-8"}
    env.pop("UNOBOT_REDIS_URL", None), env.pop("LC_ALL", None), env.pop("LANGUAGE", None)
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "unobot.cli", "discord", "--no-sync",
                                                   cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 1, (out.decode()[-2000:], err.decode())
    return out.decode(), err.decode()


async def test_the_members_intent_refused_by_discord_is_one_line(server: DiscordAPIServer, tmp_path: Path) -> None:
    """`discord.members_intent: true` while the Developer Portal does not grant
    the Server Members intent: Discord closes the gateway (4014). The command
    says which switch to turn on, or which setting to turn off, and exits 1
    (discord.py's PrivilegedIntentsRequired was a traceback)."""
    out, text = await refused_start(server, tmp_path, "discord:\n  members_intent: true\n")
    assert "Traceback" not in text and "Traceback" not in out, text
    assert text.strip().splitlines()[-1] == (
        "error: discord.members_intent is true, but Discord refused the Server Members intent: switch it on "
        "(Developer Portal, Bot page, Privileged Gateway Intents), or set discord.members_intent to false"), text


async def test_sharding_required_is_one_line_with_what_to_run(server: DiscordAPIServer, tmp_path: Path) -> None:
    """A bot in too many servers for one connection: Discord closes the gateway
    with 4011 and discord.py raises it (a traceback); the command says to run
    shards, and exits 1."""
    server.shards_required = 2
    out, text = await refused_start(server, tmp_path)
    assert "Traceback" not in text + out, text
    assert text.strip().splitlines()[-1].startswith("error: Discord requires sharding: "), text
    assert "--shard I --shards N" in text


def test_members_intent_must_be_true_or_false(tmp_path: Path) -> None:
    """`discord.members_intent` is a switch: anything else is said with its
    file, line and key before anything starts (exit 2)."""
    config = tmp_path / "config.yaml"
    config.write_text("redis:\n  url: memory\ndiscord:\n  members_intent: sometimes\n")
    env = {**os.environ, "DISCORD_BOT_TOKEN": "x" * 24, "UNOBOT_CONFIG": str(config), "LANG": "C.UTF-8"}
    env.pop("LC_ALL", None), env.pop("LANGUAGE", None)
    out = subprocess.run([sys.executable, "-m", "unobot.cli", "discord"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    assert f"{config}:4: discord.members_intent:" in out.stderr, out.stderr
