"""Test-suite wide set-up: every `tests/scenarios/**/*.yaml` is a test.

A scenario file fails the test with the runner's own message: which step,
which key, expected and actual values.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from unobot.scenario import Result, run_scenario

# The commands the tests start speak the locale's language (`env_lang`); the tests read
# them in English unless one sets its own (as an operator's shell would). Why here: a
# machine whose LANG is Spanish failed every start-up line's check for a reason no test names.
for _name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

SCENARIOS = Path(__file__).parent / "scenarios"
#: The example plugin's own scenarios run as tests too (a plugin author's habit).
PLUGIN_SCENARIOS = Path(__file__).parent / "example_plugin" / "scenarios"


class ScenarioFailed(Exception):
    def __init__(self, result: Result) -> None:
        super().__init__(result.describe())
        self.result = result


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        result = run_scenario(self.path)
        if not result.passed:
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, ScenarioFailed):
            return excinfo.value.result.describe()
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario: {self.name}"


class ScenarioFile(pytest.File):
    def collect(self):  # type: ignore[no-untyped-def]
        yield ScenarioItem.from_parent(self, name=self.path.stem)


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix in (".yaml", ".yml") and (
            SCENARIOS in file_path.parents or PLUGIN_SCENARIOS in file_path.parents):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None
