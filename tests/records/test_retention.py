"""How long finished games are kept: ``records.keep_days`` (days, 0, ``forever``)
and ``records.max_per_chat`` from the config, down to the Redis keys' TTLs."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from tests.support.redis_server import RedisServer
from unobot.adapters.store_factory import open_store, store_options
from unobot.config import ConfigError, RecordsConfig, load_config, parse_config
from unobot.store import Standing

ROOT = Path(__file__).resolve().parents[2]
CHAT = "-100777"


def test_the_shipped_file_says_the_records_defaults() -> None:
    shipped = parse_config((ROOT / "config.yaml").read_text(), str(ROOT / "config.yaml"), base_dir=ROOT)
    assert shipped.records == RecordsConfig() and RecordsConfig().keep == 30 * 86400.0


@pytest.mark.parametrize(("text", "keep", "most"), [
    ("records: {keep_days: 7, max_per_chat: 5}\n", 7 * 86400.0, 5),
    ("records: {keep_days: 0}\n", 0.0, 200),
    ("records: {keep_days: forever}\n", None, 200),
])
def test_records_section_is_read(tmp_path: Path, text: str, keep: float | None, most: int) -> None:
    (tmp_path / "c.yaml").write_text(text)
    config = load_config(tmp_path / "c.yaml", environ={})
    assert (config.records.keep, config.records.max_per_chat) == (keep, most)
    options = store_options(config)
    assert (options["archive_keep"], options["archive_max"]) == (keep, most)


@pytest.mark.parametrize("text", ["records: {keep_days: -1}\n", "records: {keep_days: always}\n",
                                  "records: {max_per_chat: 0}\n", "records: {keep: 3}\n"])
def test_bad_records_settings_are_refused(tmp_path: Path, text: str) -> None:
    (tmp_path / "c.yaml").write_text(text)
    with pytest.raises(ConfigError):
        load_config(tmp_path / "c.yaml", environ={})


@pytest.mark.parametrize(("keep", "ttl"), [(2 * 86400.0, 2 * 86400.0), (None, -1)])
async def test_redis_keeps_a_record_for_keep_days_or_for_ever(redis_server: RedisServer, keep: float | None,
                                                              ttl: float) -> None:
    prefix = f"ret{uuid.uuid4().hex[:6]}"
    store = await open_store(redis_server.url, data_dir=str(ROOT / "data"), prefix=prefix,
                             archive_keep=keep, archive_max=10)
    try:
        game_id = f"{CHAT}#00aa"
        week = Standing("w2026-49", 3600.0, "u1", "Ann", games=1)
        assert await store.archive_game(CHAT, game_id, {"game_id": game_id}, [week])
        record_ttl = await store.client.ttl(store.keys.record(game_id))  # type: ignore[attr-defined]
        assert record_ttl == ttl if ttl < 0 else abs(record_ttl - ttl) < 5
        table_ttl = await store.client.ttl(store.keys.standings(CHAT, "w2026-49"))  # type: ignore[attr-defined]
        assert 3500 < table_ttl <= 3600  # a week's table goes away by itself
    finally:
        await store.close()
