"""Fixtures: one real redis-server for the whole suite; each front-end's
module starts its server and bot once (module scope) and gives every
situation a new group, new people and the shared store, so the suite costs
seconds per situation, not a bot start-up each."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from tests.support.redis_server import RedisServer

_prefixes = itertools.count(1)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("conformance-redis")).start()
    yield server
    server.stop()


def new_prefix(front_end: str) -> str:
    return f"cf{front_end}{next(_prefixes)}"
