"""What only the Redis store has: key layout, envelope on the wire, scripts, bad data."""

from __future__ import annotations

import re

import pytest

from unobot import store_envelope as envelope
from unobot.adapters import redis_scripts as lua
from unobot.adapters.redis_store import RedisStore
from unobot.store import StoreDataError, VersionConflict

CHAT = "-100777"


def hash_tag(key: str) -> str:
    """The part of a key Redis Cluster hashes (the first ``{...}``)."""
    match = re.search(r"\{([^}]*)\}", key)
    assert match and match.group(1), key
    return match.group(1)


async def raw_keys(store: RedisStore) -> set[str]:
    """Every key under the store's prefix (SCAN: on a cluster, redis-py walks every primary)."""
    return {key.decode() async for key in store.client.scan_iter(match=f"{store.keys.prefix}:*")}


# --------------------------------------------------------------------------- layout


async def test_key_layout_and_hash_tags(redis_store: RedisStore) -> None:
    p = redis_store.keys.prefix
    game_id, _ = await redis_store.create_game(CHAT, b"s", log=["0 deal"])
    nonce = game_id.split("#")[1]
    await redis_store.update_chat_settings(CHAT, {"language": "es"})
    await redis_store.incr_stats("chat", CHAT, {"games": 1})
    await redis_store.incr_stats("user", 99, {"games": 1})
    await redis_store.flush_acknowledgements()
    keys = await raw_keys(redis_store)
    acks = {key for key in keys if "{ack:" in key}
    # the acknowledgement record, on a cluster (where a failover can lose the game's primary)
    assert len(acks) == (1 if redis_store.cluster else 0)
    assert acks <= set(redis_store.keys.acks(game_id))
    assert keys - acks == {
        f"{p}:{{chat:{CHAT}}}:current",
        f"{p}:{{chat:{CHAT}}}:game:{nonce}:state",
        f"{p}:{{chat:{CHAT}}}:game:{nonce}:log",
        f"{p}:{{chat:{CHAT}}}:game:{nonce}:digest",
        f"{p}:{{chat:{CHAT}}}:settings",
        f"{p}:{{chat:{CHAT}}}:stats",
        f"{p}:{{user:99}}:stats",
    }
    chat_keys = [key for key in await raw_keys(redis_store) if "{chat:" in key]
    assert {hash_tag(key) for key in chat_keys} == {f"chat:{CHAT}"}


async def test_state_is_stored_in_the_envelope(redis_store: RedisStore) -> None:
    game_id, _ = await redis_store.create_game(CHAT, b"engine-bytes")
    await redis_store.save_game(game_id, b"engine-bytes-2", expected_version=1)
    raw = await redis_store.client.get(redis_store.keys.state(game_id))
    assert raw[:2] == b"U\x01"
    assert raw[2:10] == (2).to_bytes(8, "big")
    assert envelope.decode(raw) == (2, b"engine-bytes-2")
    assert len(raw) == envelope.HEADER_SIZE + len(b"engine-bytes-2")


async def test_game_keys_carry_the_ttl(redis_store: RedisStore) -> None:
    redis_store.game_ttl = 100.0
    game_id, _ = await redis_store.create_game(CHAT, b"s", log=["0 deal"])
    for key in (redis_store.keys.state(game_id), redis_store.keys.log(game_id),
                redis_store.keys.binding(CHAT)):
        assert 0 < await redis_store.client.pttl(key) <= 100_000, key


# --------------------------------------------------------------------------- scripts


async def test_a_game_let_go_of_leaves_no_key_names_behind(redis_store: RedisStore) -> None:
    """The key names of a game are cached while it is played, and leave when
    its chat lets go of it (a finished game is unbound) or it is deleted, not
    when 1,024 newer games push them out (issue 25's soak)."""
    finished, _ = await redis_store.create_game(CHAT, b"s", log=["0 deal"])
    stopped, _ = await redis_store.create_game("-100778", b"s", log=["0 deal"])
    assert finished in redis_store.keys._games and stopped in redis_store.keys._games
    assert await redis_store.unbind_chat(CHAT, finished)
    assert finished not in redis_store.keys._games
    assert (await redis_store.load_game(finished)) is not None  # still readable by id: the names are made again
    await redis_store.unbind_chat(CHAT, finished)
    assert await redis_store.delete_game(stopped)
    assert stopped not in redis_store.keys._games and redis_store.keys.held() == 0


async def test_save_survives_a_flushed_script_cache(redis_store: RedisStore) -> None:
    """After a server restart the script cache is empty: NOSCRIPT, load, run."""
    game_id, _ = await redis_store.create_game(CHAT, b"s1")
    await redis_store.client.script_flush()
    assert await redis_store.save_game(game_id, b"s2", expected_version=1, log=["0 draw"]) == 2
    assert await redis_store.read_log(game_id) == ["0 draw"]


async def test_a_resent_save_is_applied_once(redis_store: RedisStore) -> None:
    """The driver re-sends a save whose reply was lost: the script sees its own write."""
    game_id, _ = await redis_store.create_game(CHAT, b"s1")
    keys, args = redis_store.save_request(game_id, b"s2", 1, ["0 draw"])
    assert (await redis_store._save(keys=keys, args=args))[0] == lua.OK
    assert (await redis_store._save(keys=keys, args=args))[0] == lua.OK
    assert await redis_store.read_log(game_id) == ["0 draw"]
    assert (await redis_store.load_game(game_id)).version == 2  # type: ignore[union-attr]
    with pytest.raises(VersionConflict):  # a new attempt from the old version conflicts
        await redis_store.save_game(game_id, b"s2", expected_version=1)


async def test_a_conflict_carries_the_stored_game_or_just_its_version(
    redis_store: RedisStore,
) -> None:
    """SAVE answers a conflict with the whole envelope; a header-only answer still works."""
    game_id, _ = await redis_store.create_game(CHAT, b"s1")
    await redis_store.save_game(game_id, b"s2", expected_version=1)
    with pytest.raises(VersionConflict) as caught:
        await redis_store.save_game(game_id, b"s3", expected_version=1)
    assert caught.value.actual == 2 and caught.value.current is not None
    assert (caught.value.current.version, caught.value.current.state) == (2, b"s2")
    header_only = "return {2, string.sub(redis.call('GET', KEYS[1]), 1, 10)}"
    redis_store._save = redis_store.client.register_script(header_only)
    with pytest.raises(VersionConflict) as caught:
        await redis_store.save_game(game_id, b"s3", expected_version=1)
    assert caught.value.actual == 2 and caught.value.current is None


async def test_a_binding_to_a_vanished_game_does_not_block_the_chat(
    redis_store: RedisStore,
) -> None:
    game_id, _ = await redis_store.create_game(CHAT, b"s")
    await redis_store.client.delete(redis_store.keys.state(game_id))  # removed by hand
    new_id, _ = await redis_store.create_game(CHAT, b"t")
    assert await redis_store.chat_game(CHAT) == new_id


async def test_prefixes_keep_stores_apart(redis_store: RedisStore) -> None:
    other = RedisStore(redis_store.client, prefix=redis_store.keys.prefix + "x")
    await redis_store.create_game(CHAT, b"s")
    assert await other.chat_game(CHAT) is None
    await other.create_game(CHAT, b"t")  # not busy: another prefix


# --------------------------------------------------------------------------- bad data


@pytest.mark.parametrize(
    "damage",
    ["foreign string", "wrong type", "bad checksum", "truncated", "old format 0"],
)
async def test_a_corrupt_game_is_reported_and_quarantined(
    redis_store: RedisStore, damage: str
) -> None:
    client = redis_store.client
    game_id, _ = await redis_store.create_game(CHAT, b"state-bytes", log=["0 deal"])
    key = redis_store.keys.state(game_id)
    good = await client.get(key)
    if damage == "foreign string":
        await client.set(key, b'{"some": "other app"}')
    elif damage == "wrong type":
        await client.delete(key)
        await client.hset(key, "a", "b")
    elif damage == "bad checksum":
        await client.set(key, good[:-1] + bytes([good[-1] ^ 0xFF]))
    elif damage == "truncated":
        await client.set(key, good[:6])
    else:
        await client.set(key, good[:1] + b"\x00" + good[2:])

    with pytest.raises(StoreDataError) as caught:
        await redis_store.load_game(game_id)
    err = caught.value
    assert err.key == key
    assert err.quarantined_as is not None and err.quarantined_as.startswith(f"{key}:quarantine:")
    assert hash_tag(err.quarantined_as) == hash_tag(key)  # same cluster slot
    assert await client.exists(err.quarantined_as) == 1
    assert await client.exists(key) == 0
    assert await redis_store.chat_game(CHAT) is None  # the binding is cleared
    assert await redis_store.load_game(game_id) is None
    # the log went along, for whoever looks into it
    keys = await raw_keys(redis_store)
    assert any(k.startswith(redis_store.keys.log(game_id) + ":quarantine:") for k in keys)
    # and the chat can play again
    await redis_store.create_game(CHAT, b"fresh")


async def test_saving_over_a_foreign_value_quarantines_it(redis_store: RedisStore) -> None:
    game_id, _ = await redis_store.create_game(CHAT, b"s")
    key = redis_store.keys.state(game_id)
    await redis_store.client.set(key, b"garbage")
    with pytest.raises(StoreDataError) as caught:
        await redis_store.save_game(game_id, b"t", expected_version=1)
    assert caught.value.key == key and caught.value.quarantined_as
    assert await redis_store.client.get(caught.value.quarantined_as) == b"garbage"
    assert await redis_store.chat_game(CHAT) is None


async def test_a_future_format_is_refused_and_left_alone(redis_store: RedisStore) -> None:
    """A newer unobot wrote it: never misread, never moved."""
    game_id, _ = await redis_store.create_game(CHAT, b"s")
    key = redis_store.keys.state(game_id)
    future = b"U\x02" + (1).to_bytes(8, "big") + b"whatever a newer format holds"
    await redis_store.client.set(key, future)
    for attempt in (redis_store.load_game(game_id),
                    redis_store.save_game(game_id, b"t", expected_version=1)):
        with pytest.raises(StoreDataError) as caught:
            await attempt
        assert caught.value.key == key
        assert caught.value.quarantined_as is None
        assert "newer" in caught.value.reason
    assert await redis_store.client.get(key) == future
    assert await redis_store.chat_game(CHAT) == game_id


async def test_a_damaged_log_refuses_the_save_and_writes_nothing(redis_store: RedisStore) -> None:
    game_id, _ = await redis_store.create_game(CHAT, b"s1")
    log_key = redis_store.keys.log(game_id)
    await redis_store.client.set(log_key, b"not a list")
    with pytest.raises(StoreDataError) as caught:
        await redis_store.save_game(game_id, b"s2", expected_version=1, log=["0 draw"])
    assert caught.value.key == log_key and caught.value.quarantined_as
    game = await redis_store.load_game(game_id)
    assert game is not None and (game.version, game.state) == (1, b"s1")  # nothing half-written
    assert await redis_store.chat_game(CHAT) == game_id  # the game itself is fine
    assert await redis_store.save_game(game_id, b"s2", expected_version=1, log=["0 draw"]) == 2
    assert await redis_store.read_log(game_id) == ["0 draw"]


async def test_a_damaged_binding_is_quarantined(redis_store: RedisStore) -> None:
    key = redis_store.keys.binding(CHAT)
    for bad in (b"\xff\xfe", b"other-chat#abcd", b"no-nonce"):
        await redis_store.client.set(key, bad)
        with pytest.raises(StoreDataError) as caught:
            await redis_store.chat_game(CHAT)
        assert caught.value.key == key and caught.value.quarantined_as
        assert await redis_store.chat_game(CHAT) is None


async def test_damaged_settings_are_quarantined(redis_store: RedisStore) -> None:
    key = redis_store.keys.settings(CHAT)
    await redis_store.client.hset(key, mapping={"language": '"es"', "timers": "{not json"})
    with pytest.raises(StoreDataError) as caught:
        await redis_store.get_chat_settings(CHAT)
    assert caught.value.key == key and caught.value.quarantined_as
    assert await redis_store.get_chat_settings(CHAT) == {}
    await redis_store.client.set(key, b"a string")
    with pytest.raises(StoreDataError):
        await redis_store.update_chat_settings(CHAT, {"language": "en"})
    assert await redis_store.update_chat_settings(CHAT, {"language": "en"}) == {"language": "en"}


async def test_damaged_stats_refuse_the_whole_increment(redis_store: RedisStore) -> None:
    key = redis_store.keys.stats("user", "5")
    await redis_store.client.hset(key, mapping={"games": "3", "wins": "many"})
    with pytest.raises(StoreDataError) as caught:
        await redis_store.incr_stats("user", "5", {"games": 1, "wins": 1})
    assert caught.value.key == key
    assert await redis_store.get_stats("user", "5") == {}  # moved aside
    assert await redis_store.client.exists(key) == 0
    assert await redis_store.client.hgetall(caught.value.quarantined_as) == {
        b"games": b"3", b"wins": b"many"}  # untouched: all or nothing
    assert await redis_store.incr_stats("user", "5", {"games": 1}) == {"games": 1}


async def test_a_damaged_counter_read_is_quarantined(redis_store: RedisStore) -> None:
    key = redis_store.keys.stats("chat", CHAT)
    await redis_store.client.hset(key, "games", "x")
    with pytest.raises(StoreDataError):
        await redis_store.get_stats("chat", CHAT)
    assert await redis_store.get_stats("chat", CHAT) == {}


async def test_bound_chats_with_glob_characters_in_the_prefix(redis_store: RedisStore) -> None:
    """A prefix is matched literally: `[`, `*`, `?` in it neither hide its chats nor catch others'."""
    odd = RedisStore(redis_store.client, prefix=f"{redis_store.keys.prefix}[x]*?")
    plain = RedisStore(redis_store.client, prefix=f"{redis_store.keys.prefix}x")
    await odd.create_game("-100001", b"a")
    await plain.create_game("-100002", b"b")
    assert [chat async for chat in odd.bound_chats()] == ["-100001"]
    assert [chat async for chat in plain.bound_chats()] == ["-100002"]
