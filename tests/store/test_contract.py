"""The store contract: every store (memory, redis-server, embedded) passes all of it."""

from __future__ import annotations

import asyncio

import pytest

from unobot.store import (
    MAX_LOG_ENTRY,
    ChatBusy,
    GameNotFound,
    Store,
    StoredGame,
    VersionConflict,
    split_game_id,
)

CHAT = "-1001234567"


async def eventually_gone(store: Store, game_id: str, limit: float = 10.0) -> None:
    """Wait (bounded) until an expiring game is gone; not a timing assertion."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while await store.load_game(game_id) is not None:
        assert loop.time() < deadline, "the game never expired"
        await asyncio.sleep(0.05)


# --------------------------------------------------------------------------- games


async def test_create_binds_chat_and_loads_at_version_1(store: Store) -> None:
    game_id, version = await store.create_game(CHAT, b"\x00state-1", log=["0 deal"])
    assert version == 1
    assert split_game_id(game_id)[0] == CHAT
    assert await store.load_game(game_id) == StoredGame(game_id, CHAT, 1, b"\x00state-1")
    assert await store.chat_game(CHAT) == game_id
    assert await store.read_log(game_id) == ["0 deal"]


async def test_integer_chat_ids_are_accepted(store: Store) -> None:
    game_id, _ = await store.create_game(-42, b"s")
    assert await store.chat_game("-42") == game_id
    assert (await store.load_game(game_id)).chat_id == "-42"  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", ["", "a b", "{x}", "a#b", "a:b", "x" * 65])
async def test_bad_ids_are_refused(store: Store, bad: str) -> None:
    with pytest.raises(ValueError):
        await store.create_game(bad, b"s")
    with pytest.raises(ValueError):
        await store.load_game(f"{bad}#00")


async def test_save_advances_version_and_appends_log(store: Store) -> None:
    game_id, v1 = await store.create_game(CHAT, b"s1", log=["0 deal"])
    v2 = await store.save_game(game_id, b"s2", expected_version=v1, log=["0 play R5"])
    v3 = await store.save_game(game_id, b"s3", expected_version=v2, log=["1 draw", "1 pass"])
    v4 = await store.save_game(game_id, b"s4", expected_version=v3)
    assert (v2, v3, v4) == (2, 3, 4)
    assert await store.load_game(game_id) == StoredGame(game_id, CHAT, 4, b"s4")
    assert await store.read_log(game_id) == ["0 deal", "0 play R5", "1 draw", "1 pass"]


async def test_stale_save_is_refused_and_changes_nothing(store: Store) -> None:
    game_id, v1 = await store.create_game(CHAT, b"s1")
    await store.save_game(game_id, b"s2", expected_version=v1, log=["0 play R5"])
    with pytest.raises(VersionConflict) as caught:
        await store.save_game(game_id, b"other", expected_version=v1, log=["1 play G5"])
    assert (caught.value.game_id, caught.value.expected, caught.value.actual) == (game_id, 1, 2)
    # the refusal carries the stored game, so the caller can recompute without a load
    assert caught.value.current == StoredGame(game_id, CHAT, 2, b"s2")
    assert await store.load_game(game_id) == StoredGame(game_id, CHAT, 2, b"s2")
    assert await store.read_log(game_id) == ["0 play R5"]
    with pytest.raises(VersionConflict):
        await store.save_game(game_id, b"ahead", expected_version=7)


async def test_equal_states_from_the_same_version_still_conflict(store: Store) -> None:
    """Two moves that happen to give equal bytes are still two saves: one must retry."""
    game_id, v1 = await store.create_game(CHAT, b"s1")
    assert await store.save_game(game_id, b"s2", expected_version=v1, log=["0 draw"]) == 2
    with pytest.raises(VersionConflict):
        await store.save_game(game_id, b"s2", expected_version=v1, log=["1 draw"])
    assert await store.read_log(game_id) == ["0 draw"]


async def test_unknown_games(store: Store) -> None:
    ghost = f"{CHAT}#deadbeef"
    assert await store.load_game(ghost) is None
    assert await store.read_log(ghost) == []
    assert await store.delete_game(ghost) is False
    with pytest.raises(GameNotFound):
        await store.save_game(ghost, b"s", expected_version=1)
    with pytest.raises(GameNotFound):
        await store.game_expires_in(ghost)
    with pytest.raises(GameNotFound):
        await store.bind_chat(CHAT, ghost)


async def test_busy_chat_refuses_a_second_game_unless_replacing(store: Store) -> None:
    first, _ = await store.create_game(CHAT, b"first")
    with pytest.raises(ChatBusy) as caught:
        await store.create_game(CHAT, b"second")
    assert (caught.value.chat_id, caught.value.game_id) == (CHAT, first)
    assert await store.chat_game(CHAT) == first

    second, version = await store.create_game(CHAT, b"second", replace=True)
    assert version == 1 and second != first
    assert await store.chat_game(CHAT) == second
    assert (await store.load_game(first)).state == b"first"  # type: ignore[union-attr]
    # another chat is not affected
    other, _ = await store.create_game("other-chat", b"x")
    assert await store.chat_game("other-chat") == other


async def test_finished_game_frees_the_chat(store: Store) -> None:
    first, _ = await store.create_game(CHAT, b"first")
    assert await store.unbind_chat(CHAT, first) is True
    second, _ = await store.create_game(CHAT, b"second")
    assert await store.chat_game(CHAT) == second


async def test_bind_and_unbind(store: Store) -> None:
    first, _ = await store.create_game(CHAT, b"first")
    second, _ = await store.create_game(CHAT, b"second", replace=True)
    await store.bind_chat(CHAT, first)
    assert await store.chat_game(CHAT) == first
    assert await store.unbind_chat(CHAT, second) is False  # names another game: kept
    assert await store.chat_game(CHAT) == first
    assert await store.unbind_chat(CHAT, first) is True
    assert await store.chat_game(CHAT) is None
    assert await store.unbind_chat(CHAT) is False
    await store.bind_chat(CHAT, second)
    assert await store.unbind_chat(CHAT) is True
    with pytest.raises(ValueError):
        await store.bind_chat("another-chat", second)


async def test_bound_chats_lists_every_chat_with_a_game(store: Store) -> None:
    assert [chat async for chat in store.bound_chats()] == []
    await store.create_game(CHAT, b"a")
    other, _ = await store.create_game("-100777", b"b")
    gone, _ = await store.create_game("-100888", b"c")
    await store.unbind_chat("-100888", gone)  # unbound: not listed
    assert sorted([chat async for chat in store.bound_chats()]) == sorted([CHAT, "-100777"])
    await store.unbind_chat("-100777", other)
    assert [chat async for chat in store.bound_chats()] == [CHAT]


async def test_bound_chats_under_a_prefix_are_the_chats_whose_id_starts_with_it(store: Store) -> None:
    """What a settings change walks to find its followers (a forum's topics,
    a server's channels): the store matches the prefix; a glob character in
    it is a character, not a pattern."""
    for chat in ("-100777", "-1007770000000005", "-1007771", "-100888", "dc_5_1", "dc_5_2", "dc_55_1"):
        await store.create_game(chat, b"s")
    assert sorted([c async for c in store.bound_chats("-100777")]) == ["-100777", "-1007770000000005", "-1007771"]
    assert sorted([c async for c in store.bound_chats("dc_5_")]) == ["dc_5_1", "dc_5_2"]
    assert [c async for c in store.bound_chats("dc_*")] == []


async def test_delete_game(store: Store) -> None:
    game_id, _ = await store.create_game(CHAT, b"s", log=["0 deal"])
    assert await store.delete_game(game_id) is True
    assert await store.load_game(game_id) is None
    assert await store.read_log(game_id) == []
    assert await store.chat_game(CHAT) is None
    assert await store.delete_game(game_id) is False


async def test_read_log_slices_like_a_list(store: Store) -> None:
    entries = [f"{i % 4} play R{i}" for i in range(8)]
    game_id, _ = await store.create_game(CHAT, b"s", log=entries)
    for start, stop in [(0, None), (2, 5), (5, None), (-3, None), (0, -2), (3, 3), (0, 0), (6, 20)]:
        assert await store.read_log(game_id, start, stop) == entries[start:stop], (start, stop)


async def test_log_entries_are_validated(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.create_game(CHAT, b"s", log=["two\nlines"])
    game_id, _ = await store.create_game(CHAT, b"s")
    with pytest.raises(ValueError):
        await store.save_game(game_id, b"t", expected_version=1, log=["x" * (MAX_LOG_ENTRY + 1)])
    await store.save_game(game_id, b"t", expected_version=1, log=["x" * MAX_LOG_ENTRY])
    assert await store.read_log(game_id) == ["x" * MAX_LOG_ENTRY]
    assert (await store.load_game(game_id)).version == 2  # type: ignore[union-attr]


async def test_concurrent_writers_lose_no_update(store: Store) -> None:
    """Workers load, change and save with compare-and-set; every change lands once."""
    game_id, _ = await store.create_game(CHAT, (0).to_bytes(4, "big"))

    async def worker(seat: int) -> None:
        for move in range(10):
            while True:
                game = await store.load_game(game_id)
                assert game is not None
                count = int.from_bytes(game.state, "big") + 1
                try:
                    await store.save_game(game_id, count.to_bytes(4, "big"),
                                          expected_version=game.version,
                                          log=[f"{seat} move {move}"])
                    break
                except VersionConflict:
                    await asyncio.sleep(0)

    await asyncio.gather(*(worker(seat) for seat in range(6)))
    final = await store.load_game(game_id)
    assert final is not None
    assert int.from_bytes(final.state, "big") == 60
    assert final.version == 61
    log = await store.read_log(game_id)
    assert sorted(log) == sorted(f"{s} move {m}" for s in range(6) for m in range(10))


# --------------------------------------------------------------------------- expiry


async def test_saves_refresh_the_expiry(store: Store) -> None:
    store.game_ttl = 1000.0
    game_id, _ = await store.create_game(CHAT, b"s")
    left = await store.game_expires_in(game_id)
    assert left is not None and 0 < left <= 1000
    store.game_ttl = 5000.0
    await store.save_game(game_id, b"t", expected_version=1, log=["0 draw"])
    left = await store.game_expires_in(game_id)
    assert left is not None and 1000 < left <= 5000
    store.game_ttl = None
    await store.save_game(game_id, b"u", expected_version=2)
    assert await store.game_expires_in(game_id) is None


async def test_abandoned_games_expire_with_their_binding_and_log(store: Store) -> None:
    store.game_ttl = 0.05
    game_id, _ = await store.create_game(CHAT, b"s", log=["0 deal"])
    await eventually_gone(store, game_id)
    assert await store.chat_game(CHAT) is None
    assert await store.read_log(game_id) == []
    with pytest.raises(GameNotFound):
        await store.save_game(game_id, b"t", expected_version=1)
    # the chat is free again
    store.game_ttl = 60.0
    await store.create_game(CHAT, b"new")


async def test_settings_and_stats_do_not_expire_with_games(store: Store) -> None:
    store.game_ttl = 0.05
    await store.update_chat_settings(CHAT, {"language": "es"})
    await store.incr_stats("chat", CHAT, {"games": 1})
    game_id, _ = await store.create_game(CHAT, b"s")
    await eventually_gone(store, game_id)
    assert await store.get_chat_settings(CHAT) == {"language": "es"}
    assert await store.get_stats("chat", CHAT) == {"games": 1}


# --------------------------------------------------------------------------- settings


async def test_chat_settings_round_trip(store: Store) -> None:
    assert await store.get_chat_settings(CHAT) == {}
    settings = {
        "variant": "reglas-de-uno",
        "rules": {"stacking": {"draw_two_on_draw_two": True}, "challenge": False},
        "language": "es",
        "timers": {"turn": 60, "warn": 45.5},
        "admins": [1, 2],
        "note": None,
    }
    assert await store.update_chat_settings(CHAT, settings) == settings
    assert await store.get_chat_settings(CHAT) == settings
    changed = await store.update_chat_settings(CHAT, {"language": "en"}, remove=["note", "nope"])
    assert changed == {**{k: v for k, v in settings.items() if k != "note"}, "language": "en"}
    assert await store.get_chat_settings(CHAT) == changed
    assert await store.update_chat_settings(CHAT, remove="language") == {
        k: v for k, v in changed.items() if k != "language"}
    assert await store.get_chat_settings("another-chat") == {}
    await store.clear_chat_settings(CHAT)
    assert await store.get_chat_settings(CHAT) == {}


async def test_a_setting_swapped_from_one_value_is_taken_by_one_writer(store: Store) -> None:
    """`swap_chat_setting`: the console's claim on its table is taken by the
    first of several starts, not the last (a plain update lets each believe it won)."""
    await store.update_chat_settings(CHAT, {"lang": "es"})
    won = await asyncio.gather(*(store.swap_chat_setting(CHAT, "holder", None, {"pid": i}) for i in range(6)))
    assert won.count(True) == 1
    holder = {"pid": won.index(True)}
    assert (await store.get_chat_settings(CHAT)) == {"lang": "es", "holder": holder}
    assert not await store.swap_chat_setting(CHAT, "holder", None, {"pid": 9})  # not absent any more
    assert not await store.swap_chat_setting(CHAT, "holder", {"pid": 9}, {"pid": 10})  # not what it holds
    assert await store.swap_chat_setting(CHAT, "holder", holder, {"pid": 7, "seen": 1.5})
    assert not await store.swap_chat_setting(CHAT, "holder", holder, None)  # changed since
    assert await store.swap_chat_setting(CHAT, "holder", {"pid": 7, "seen": 1.5}, None)  # removed
    assert await store.get_chat_settings(CHAT) == {"lang": "es"}


async def test_settings_returned_are_copies(store: Store) -> None:
    await store.update_chat_settings(CHAT, {"timers": {"turn": 60}})
    got = await store.get_chat_settings(CHAT)
    got["timers"]["turn"] = 1
    assert await store.get_chat_settings(CHAT) == {"timers": {"turn": 60}}


async def test_settings_must_be_json(store: Store) -> None:
    await store.update_chat_settings(CHAT, {"language": "es"})
    with pytest.raises(ValueError):
        await store.update_chat_settings(CHAT, {"language": "en", "bad": {1, 2}})
    with pytest.raises(ValueError):
        await store.update_chat_settings(CHAT, {"bad": float("nan")})
    assert await store.get_chat_settings(CHAT) == {"language": "es"}


# --------------------------------------------------------------------------- stats


async def test_stats_increment_many_fields_and_read_back(store: Store) -> None:
    assert await store.get_stats("user", 7) == {}
    assert await store.incr_stats("user", 7, {"games": 1, "wins": 1, "points": 120}) == {
        "games": 1, "wins": 1, "points": 120}
    assert await store.incr_stats("user", 7, {"games": 1, "points": -20}) == {
        "games": 2, "points": 100}
    assert await store.get_stats("user", "7") == {"games": 2, "wins": 1, "points": 100}
    assert await store.incr_stats("user", 7, {}) == {}


async def test_chat_and_user_stats_are_separate(store: Store) -> None:
    await store.incr_stats("chat", "55", {"games": 3})
    await store.incr_stats("user", "55", {"games": 1})
    assert await store.get_stats("chat", "55") == {"games": 3}
    assert await store.get_stats("user", "55") == {"games": 1}


async def test_stats_input_is_validated(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.incr_stats("team", "x", {"games": 1})  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await store.incr_stats("user", "x", {"games": 1.5})  # type: ignore[dict-item]
    with pytest.raises(ValueError):
        await store.incr_stats("user", "x", {"": 1})
    assert await store.get_stats("user", "x") == {}


async def test_ping_and_context_manager(store: Store) -> None:
    await store.ping()
    async with store as same:
        assert same is store


# --------------------------------------------------------------------------- finished games

from unobot.store import Standing  # noqa: E402 - the records part of the contract


def _record(game_id: str, n: int = 0) -> dict[str, object]:
    return {"game_id": game_id, "n": n, "log": ["deal {}", "0 play R5"], "players": [{"id": "u1", "name": "Ann"}]}


async def test_archive_keeps_a_game_once_and_counts_its_standings_once(store: Store) -> None:
    game_id = f"{CHAT}#00ab"
    items = [Standing("all", None, "u1", "Ann", wins=1, games=1, points=40, rating="27.1,7.9"),
             Standing("w2026-49", 3600.0, "u1", "Ann", wins=1, games=1, points=40),
             Standing("all", None, "u2", "Bob", games=1, rating="23.0,7.9")]
    assert await store.archive_game(CHAT, game_id, _record(game_id), items) is True
    assert await store.archive_game(CHAT, game_id, _record(game_id, 1), items) is False  # a repeat: no-op
    assert await store.archived_game(CHAT, game_id) == _record(game_id)
    assert await store.archived(CHAT, 5) == [_record(game_id)]
    table = await store.standings(CHAT, "all")
    assert table["u1"] == {"name": "Ann", "games": 1, "wins": 1, "points": 40, "rating": "27.1,7.9"}
    assert table["u2"]["games"] == 1 and table["u2"]["wins"] == 0
    assert (await store.standings(CHAT, "w2026-49"))["u1"]["points"] == 40
    assert await store.standings(CHAT, "m2026-12") == {}
    assert await store.player_chats("u1") == [CHAT]


async def test_archive_is_bounded_per_chat_newest_first(store: Store) -> None:
    store.archive_max = 3
    ids = [f"{CHAT}#{i:04x}" for i in range(5)]
    for game_id in ids:
        assert await store.archive_game(CHAT, game_id, _record(game_id))
        await asyncio.sleep(0.002)  # distinct end times
    assert [r["game_id"] for r in await store.archived(CHAT, 10)] == ids[:1:-1]
    assert await store.archived_game(CHAT, ids[0]) is None
    # a game dropped from the archive still counts as archived: no second count
    assert await store.archive_game(CHAT, ids[0], _record(ids[0])) is False


async def test_standings_hold_at_most_standings_max_people_the_least_recent_go(store: Store) -> None:
    store.standings_max = 3
    for i, people in enumerate([("u1", "u2"), ("u3",), ("u1",), ("u4", "u5")]):  # u2, then u3 the least recent
        game_id = f"{CHAT}#{i + 16:04x}"
        items = [Standing(p, None, u, u.upper(), games=1) for p in ("all", "w2026-49") for u in people]
        assert await store.archive_game(CHAT, game_id, _record(game_id), items)
        await asyncio.sleep(0.002)  # distinct match times
    for period in ("all", "w2026-49"):
        assert set(await store.standings(CHAT, period)) == {"u1", "u4", "u5"}
    assert (await store.standings(CHAT, "all"))["u1"]["games"] == 2
    # who left the standings is still indexed: the chat's kept games name them (/forgetme)
    assert await store.player_chats("u2") == [CHAT] and await store.player_chats("u3") == [CHAT]
    assert await store.player_chats("u1") == [CHAT]


async def test_archive_keep_zero_keeps_no_record_but_counts(store: Store) -> None:
    store.archive_keep = 0
    game_id = f"{CHAT}#0001"
    items = [Standing("all", None, "u1", "Ann", games=1)]
    assert await store.archive_game(CHAT, game_id, _record(game_id), items)
    assert await store.archived(CHAT) == [] and await store.archived_game(CHAT, game_id) is None
    assert not await store.archive_game(CHAT, game_id, _record(game_id), items)
    assert (await store.standings(CHAT, "all"))["u1"]["games"] == 1


async def test_forget_and_reset_standings_and_rewrite_a_record(store: Store) -> None:
    game_id = f"{CHAT}#0002"
    items = [Standing(p, None, u, u.upper(), games=1) for p in ("all", "m2026-12") for u in ("u1", "u2")]
    await store.archive_game(CHAT, game_id, _record(game_id), items)
    await store.forget_standings(CHAT, "u1")
    assert set(await store.standings(CHAT, "all")) == {"u2"}
    assert set(await store.standings(CHAT, "m2026-12")) == {"u2"}
    assert await store.player_chats("u1") == [CHAT]  # the kept game still names them
    await store.forget_player_chats("u1")
    assert await store.player_chats("u1") == []
    assert await store.replace_archived(CHAT, game_id, {"game_id": game_id, "gone": True})
    assert await store.archived_game(CHAT, game_id) == {"game_id": game_id, "gone": True}
    assert not await store.replace_archived(CHAT, f"{CHAT}#0fff", {"x": 1})
    await store.forget_standings(CHAT)
    assert await store.standings(CHAT, "all") == {} and await store.standings(CHAT, "m2026-12") == {}


async def test_archive_refuses_a_game_of_another_chat(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.archive_game(CHAT, "other#00ab", _record("other#00ab"))
    with pytest.raises(ValueError):
        await store.archive_game(CHAT, f"{CHAT}#00ab", {"x": float("nan")})


async def test_a_chat_s_records_move_to_its_new_id_once(store: Store) -> None:
    """Telegram gives a group that becomes a supergroup a new id: its kept
    games (renamed into the new chat), its standings with ratings and its
    people's index follow it; a second move (Telegram tells it twice, or a
    retry after a failure) copies nothing again. On a cluster the two
    chats' keys are on different slots."""
    new = "-1009999999"
    first, second = f"{CHAT}#0c01", f"{CHAT}#0c02"
    for game_id, winner in ((first, "u1"), (second, "u2")):
        items = [Standing(p, ttl, u, u.upper(), wins=int(u == winner), games=1, points=10,
                          rating="26.0,8.0" if p == "all" else "")
                 for p, ttl in (("all", None), ("w2026-49", 3600.0)) for u in ("u1", "u2")]
        assert await store.archive_game(CHAT, game_id, _record(game_id), items)
        await asyncio.sleep(0.002)  # distinct end times
    before = {p: await store.standings(CHAT, p) for p in ("all", "w2026-49")}
    for _ in range(2):
        await store.move_records(CHAT, new)
        kept = await store.archived(new, 10)
        assert [r["game_id"] for r in kept] == [f"{new}#0c02", f"{new}#0c01"]  # newest first, renamed
        assert all(r["chat"] == new and r["log"] == ["deal {}", "0 play R5"] for r in kept)
        assert await store.archived_game(new, f"{new}#0c01") is not None
        assert {p: await store.standings(new, p) for p in before} == before
        assert await store.archived(CHAT, 10) == [] and await store.standings(CHAT, "all") == {}
        assert await store.player_chats("u1") == [new] and await store.player_chats("u2") == [new]
    # the moved chat plays on: a game counts on top of what moved, once
    third = f"{new}#0c03"
    assert await store.archive_game(new, third, _record(third), [Standing("all", None, "u1", "U1", games=1)])
    assert (await store.standings(new, "all"))["u1"]["games"] == 3


# --------------------------------------------------------------------------- deliveries


async def test_a_delivery_is_claimed_by_one_owner_until_done(store: Store) -> None:
    key = "telegram:42:1001"
    claims = await asyncio.gather(*(store.claim_delivery(key, f"p{i}-0", 5.0) for i in range(4)))
    assert sorted(claims) == ["busy", "busy", "busy", "mine"]
    holder = f"p{claims.index('mine')}-0"
    assert await store.claim_delivery(key, holder, 5.0) == "mine"  # renewed by its holder
    await store.release_delivery(key, "p9-0")  # not the holder's: nothing
    assert await store.claim_delivery(key, "p9-0", 5.0) == "busy"
    await store.finish_delivery(key, 60.0)
    assert await store.claim_delivery(key, holder, 5.0) == "done"
    assert await store.claim_delivery(key, "p9-1", 5.0) == "done"
    await store.release_delivery(key, holder)  # done stays done
    assert await store.claim_delivery(key, "p9-2", 5.0) == "done"


async def test_a_released_or_lapsed_claim_is_taken_by_the_next_owner(store: Store) -> None:
    assert await store.claim_delivery("telegram:42:7", "a-0", 5.0) == "mine"
    await store.release_delivery("telegram:42:7", "a-0")
    assert await store.claim_delivery("telegram:42:7", "b-0", 5.0) == "mine"
    # A holder that died renews nothing: its lease runs out.
    assert await store.claim_delivery("telegram:42:8", "dead-0", 0.2) == "mine"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while await store.claim_delivery("telegram:42:8", "next-0", 5.0) != "mine":
        assert loop.time() < deadline, "the lapsed claim was never free"
        await asyncio.sleep(0.05)
    # A done mark is kept for its while only.
    await store.finish_delivery("telegram:42:9", 0.2)
    while await store.claim_delivery("telegram:42:9", "again-0", 5.0) != "mine":
        assert loop.time() < deadline, "the done mark never lapsed"
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("key, owner", [("", "a"), ("a b", "a"), ("{x}", "a"), ("k", "done"), ("k", ""),
                                        ("x" * 129, "a")])
async def test_bad_delivery_names_are_refused(store: Store, key: str, owner: str) -> None:
    with pytest.raises(ValueError):
        await store.claim_delivery(key, owner, 1.0)
