"""Fixtures the console's tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.redis_server import RedisServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis of the test's own (a server that cannot start fails the test)."""
    redis = RedisServer(tmp_path / "redis").start()
    try:
        yield redis
    finally:
        redis.stop()
