"""Which `unobot.commands` entry points a command line loads (core/cli.py)."""

from __future__ import annotations

from pathlib import Path

from tests.support.fresh_python import fresh_python
from unobot.cli import COMMANDS_GROUP, build_parser, command_entry_points

CORE = {"variants", "rules", "i18n", "scenario", "simulate", "replay"}
ADAPTERS = {"play", "audit", "telegram", "cards", "discord"}


def names(argv: list[str] | None) -> set[str]:
    return {ep.name for ep in command_entry_points(argv, CORE)}


def test_a_core_command_needs_no_entry_point() -> None:
    assert names(["simulate", "--games", "3"]) == set()


def test_one_of_unobots_own_commands_loads_only_its_entry() -> None:
    assert names(["telegram", "--webhook", "https://x"]) == {"telegram"}
    assert all(ep.group == COMMANDS_GROUP for ep in command_entry_points(["play"], CORE))


def test_help_a_mistake_or_nothing_gets_every_command() -> None:
    for argv in (None, [], ["--help"], ["-h", "telegram"], ["no-such-command"]):
        assert names(argv) >= ADAPTERS, argv
    parser = build_parser(["--help"])
    choices = next(a.choices for a in parser._actions if a.dest == "command")  # noqa: SLF001
    assert set(choices) >= CORE | ADAPTERS


def test_unobot_telegram_does_not_import_the_other_adapters() -> None:
    code = ("import sys\n"
            "from unobot import cli\n"
            "parser = cli.build_parser(['telegram'])\n"
            "print(sorted(m for m in sys.modules if m.startswith('unobot.adapters.') and m.endswith('cli')))\n")
    assert fresh_python(code) == "['unobot.adapters.telegram.cli']"


def test_ctrl_c_stops_a_command_without_a_traceback(tmp_path: Path) -> None:
    """Ctrl-C in a command with no stop of its own (a long simulation; a bot
    still importing) ends it with status 130, as shells report SIGINT, and
    no traceback: the person asked for it."""
    import os
    import signal
    import subprocess
    import sys
    import time

    # As from a terminal, where Ctrl-C is not ignored: a child inherits an ignored SIGINT, and
    # Python then installs no KeyboardInterrupt for it (the whole suite once ran it so, from a
    # test process left ignoring it, and the simulation played on for its million games).
    process = subprocess.Popen([sys.executable, "-m", "unobot.cli", "simulate", "--games", "1000000"],
                               cwd=tmp_path, env={**os.environ, "UNOBOT_CONFIG": ""},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3)  # well into the games
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, out + err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_a_port_that_is_no_tcp_port_is_a_usage_error(tmp_path: Path) -> None:
    """`--port 99999` reached asyncio's bind as an OverflowError traceback
    (`unobot web`), and getaddrinfo takes it as port 34463 without a word."""
    import os
    import subprocess
    import sys

    for command in ("web", "telegram"):
        done = subprocess.run([sys.executable, "-m", "unobot.cli", command, "--redis", "memory", "--port", "99999"],
                              cwd=tmp_path, env={**os.environ, "UNOBOT_CONFIG": ""},
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "argument --port: 99999 is not a TCP port (0-65535)" in done.stderr, done.stderr


def test_port_0_is_any_free_port_for_the_web_table_and_refused_for_the_webhook(tmp_path: Path) -> None:
    """`--port 0` was taken as "the configured port" (`args.port or configured`)
    without a word. It means any free port, as everywhere: `unobot web` binds
    one and prints the address it serves, which answers. The webhook must
    listen where Telegram (or its reverse proxy) posts: 0 is refused, saying why."""
    import os
    import re
    import subprocess
    import sys
    import urllib.request

    env = {**os.environ, "UNOBOT_CONFIG": ""}
    web = subprocess.Popen([sys.executable, "-m", "unobot.cli", "web", "--redis", "memory", "--listen", "127.0.0.1",
                            "--port", "0"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    try:
        assert web.stdout is not None
        line = web.stdout.readline()
        found = re.fullmatch(r"web table at http://127\.0\.0\.1:(\d+)/\n", line)
        assert found and int(found[1]) not in (0, 8080), line
        with urllib.request.urlopen(f"http://127.0.0.1:{found[1]}/healthz", timeout=10) as answer:
            assert answer.status == 200
    finally:
        web.terminate()
        web.communicate(timeout=30)
    hook = subprocess.run([sys.executable, "-m", "unobot.cli", "telegram", "--redis", "memory", "--port", "0"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert hook.returncode == 2 and "Traceback" not in hook.stderr, hook.stderr
    assert "argument --port: 0 (any free port) cannot be used here: the webhook must listen" in hook.stderr
