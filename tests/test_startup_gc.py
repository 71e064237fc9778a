"""The bot commands' start-up garbage collection (unobot.adapters.startup)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from tests.support.fresh_python import fresh_python
from unobot.adapters import startup


@pytest.fixture
def collector() -> Iterator[None]:
    """Whatever a test does to the collector is undone."""
    was_enabled = gc.isenabled()
    yield
    gc.unfreeze()
    startup._paused = False
    if was_enabled:
        gc.enable()
    else:  # pragma: no cover - the suite runs with collection on
        gc.disable()


def test_pause_then_settle_freezes_what_start_up_made(collector: None) -> None:
    gc.unfreeze()
    startup.pause_gc()
    assert not gc.isenabled()
    made = [[i] for i in range(1000)]  # start-up's long-lived objects
    startup.settle_gc()
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(made)  # out of every later collection
    frozen = gc.get_freeze_count()
    startup.settle_gc()  # once only
    assert gc.get_freeze_count() == frozen


def test_settle_without_a_pause_changes_nothing(collector: None) -> None:
    """An application started by hand (the tests' bots) never paused: no freeze."""
    gc.unfreeze()
    startup.settle_gc()
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_collector_turned_off_by_someone_else_stays_off(collector: None) -> None:
    gc.disable()
    startup.pause_gc()
    startup.settle_gc()
    assert not gc.isenabled()


def test_unobot_main_collects_again_once_the_command_line_is_read() -> None:
    """`unobot`'s parser is built with collection off; a command that is not a bot
    runs with it on."""
    code = ("import gc, sys\n"
            "from unobot import cli\n"
            "seen = []\n"
            "cli.cmd_variants = lambda args: seen.append(gc.isenabled()) or 0\n"
            "cli.main(['variants'])\n"
            "print(seen)\n")
    assert fresh_python(code) == "[True]"
