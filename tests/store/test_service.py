"""The session service on every store: load -> engine -> compare-and-set save, retried."""

from __future__ import annotations

from typing import Any

import pytest

from unobot import engine
from unobot.errors import MoveError
from unobot.moves import Move
from unobot.service import GameService, ReplayError, deal_entry, replay
from unobot.state import MATCH_OVER, GameState
from unobot.store import ChatBusy, GameNotFound, Store, VersionConflict

CHAT = "-100321"
PLAYERS = ["ann", "ben", "cy"]


async def started(store: Store, **options: Any) -> tuple[GameService, str, GameState]:
    service = GameService(store, **options)
    outcome = await service.start(CHAT, "official", PLAYERS, seed=1)
    return service, outcome.game_id, outcome.state


def first_legal(state: GameState) -> Move:
    return engine.legal_moves(state, state.turn)[0]


async def test_start_binds_the_chat_and_stores_the_deal(store: Store) -> None:
    service, game_id, state = await started(store)
    assert await store.chat_game(CHAT) == game_id
    assert await store.read_log(game_id) == [deal_entry("official", PLAYERS, 1)]
    loaded, version = await service.load(game_id)
    assert version == 1 and loaded.same_as(state)
    with pytest.raises(ChatBusy):
        await service.start(CHAT, "official", PLAYERS)


async def test_apply_saves_the_move_and_logs_it(store: Store) -> None:
    service, game_id, state = await started(store)
    move = first_legal(state)
    outcome = await service.apply(game_id, move)
    expected, events = engine.apply(state, move)
    assert outcome.version == 2
    assert outcome.state.same_as(expected) and outcome.events == events
    loaded, version = await service.load(game_id)
    assert version == 2 and loaded.same_as(expected)
    assert await store.read_log(game_id, 1) == [f"{move.player} {move.text}"]


async def test_a_refused_move_saves_nothing(store: Store) -> None:
    service, game_id, state = await started(store)
    someone_else = (state.turn + 1) % len(PLAYERS)
    with pytest.raises(MoveError) as caught:
        await service.apply(game_id, Move("draw", someone_else))
    assert caught.value.code == "not_your_turn"
    assert (await service.load(game_id))[1] == 1
    assert await store.read_log(game_id, 1) == []


async def test_a_conflict_is_retried_from_the_newer_state(store: Store) -> None:
    """Another process saves between our load and our save: we recompute and win."""
    service, game_id, state = await started(store)
    rival = GameService(store)
    real_save = store.save_game
    interleaved: list[int] = []

    async def save_after_a_rival(game_id_: str, data: bytes, **kw: Any) -> int:
        if not interleaved:
            interleaved.append(1)
            await rival.update(game_id_, lambda s: (s, [], ["9 note"]))
        return await real_save(game_id_, data, **kw)

    store.save_game = save_after_a_rival  # type: ignore[method-assign]
    try:
        move = first_legal(state)
        outcome = await service.apply(game_id, move)
    finally:
        del store.save_game  # type: ignore[method-assign]
    assert outcome.version == 3  # the rival's save, then ours
    assert service.conflicts == 1 and rival.conflicts == 0
    assert await store.read_log(game_id, 1) == ["9 note", f"{move.player} {move.text}"]


async def test_a_retried_move_is_judged_again(store: Store) -> None:
    """If the rival's save made our move illegal, the retry refuses it."""
    service, game_id, state = await started(store)
    move = first_legal(state)
    real_save = store.save_game
    rival = GameService(store)

    async def rival_moves_first(game_id_: str, data: bytes, **kw: Any) -> int:
        store.save_game = real_save  # type: ignore[method-assign]
        await rival.apply(game_id_, move)  # the very same move lands first
        return await real_save(game_id_, data, **kw)

    store.save_game = rival_moves_first  # type: ignore[method-assign]
    try:
        with pytest.raises(MoveError):
            await service.apply(game_id, move)
    finally:
        store.__dict__.pop("save_game", None)
    assert (await service.load(game_id))[1] == 2
    assert await store.read_log(game_id, 1) == [f"{move.player} {move.text}"]


async def test_endless_conflicts_give_up_after_max_tries(store: Store) -> None:
    service, game_id, state = await started(store, max_tries=3)
    real_save = store.save_game
    calls: list[int] = []

    async def always_beaten(game_id_: str, data: bytes, **kw: Any) -> int:
        calls.append(1)
        current = await store.load_game(game_id_)
        assert current is not None
        await real_save(game_id_, current.state, expected_version=current.version)
        return await real_save(game_id_, data, **kw)

    store.save_game = always_beaten  # type: ignore[method-assign]
    try:
        with pytest.raises(VersionConflict):
            await service.apply(game_id, first_legal(state))
    finally:
        del store.save_game  # type: ignore[method-assign]
    assert len(calls) == 3


async def test_a_stale_timer_changes_nothing(store: Store) -> None:
    service, game_id, state = await started(store)
    assert await service.timeout(game_id, at_move=state.moves + 1) is None
    seat = state.turn
    outcome = await service.timeout(game_id, at_move=state.moves)
    assert outcome is not None and outcome.version == 2
    assert await store.read_log(game_id, 1) == [f"{seat} timeout"]


async def test_unknown_game(store: Store) -> None:
    service = GameService(store)
    with pytest.raises(GameNotFound):
        await service.apply(f"{CHAT}#abcdef", Move("draw", 0))


async def test_a_finished_match_frees_the_chat(store: Store) -> None:
    service, game_id, _ = await started(store)

    def finish(state: GameState) -> tuple[GameState, list[Any], list[str]]:
        done = state.clone()
        done.phase = MATCH_OVER
        return done, [], ["0 (match over)"]

    await service.update(game_id, finish)
    assert await store.chat_game(CHAT) is None
    assert (await service.load(game_id))[0].phase == MATCH_OVER


async def test_the_log_replays_every_kind_of_entry(store: Store) -> None:
    """Moves, a timeout, a player leaving and a new round: the log alone rebuilds the state."""
    service = GameService(store)
    overrides = {"deck": {"hand_size": 2}, "scoring": {"target": 10_000}}
    outcome = await service.start(CHAT, "official", ["ann", "ben", "cy", "dee"], seed=7,
                                  overrides=overrides, dealer=2)
    game_id, state = outcome.game_id, outcome.state
    assert state.dealer == 2
    state = (await service.timeout(game_id, at_move=state.moves)).state  # type: ignore[union-attr]
    state = (await service.leave(game_id, 3)).state
    rounds = 0
    while rounds < 2:
        if state.phase == MATCH_OVER:
            break
        if state.phase != "play":
            rounds += 1
            state = (await service.next_round(game_id)).state  # type: ignore[union-attr]
            continue
        state = (await service.apply(game_id, first_legal(state))).state
    log = await store.read_log(game_id)
    assert log[0].startswith("deal ") and log[1].endswith(" timeout") and log[2] == "3 leave"
    assert "next round" in log
    stored, version = await service.load(game_id)
    seen: list[int] = []
    replayed = replay(log, each=lambda s: seen.append(s.moves))
    assert replayed.same_as(stored) and stored.same_as(state)
    assert version == len(log)  # one save per entry after the deal
    assert len(seen) == len(log)


def test_replay_refuses_a_bad_log() -> None:
    deal = deal_entry("official", PLAYERS, 1)
    state, _ = engine.new_game("official", PLAYERS, 1)
    illegal = next(m for m in engine.legal_moves(state, state.turn) if m.kind == "draw")
    wrong_seat = f"{(state.turn + 1) % 3} {illegal.text}"
    for log, index in [([deal, wrong_seat], 1), ([f"{state.turn} draw"], 0),
                       ([deal, deal], 1), ([deal, "x fly"], 1), (["deal {"], 0)]:
        with pytest.raises(ReplayError) as caught:
            replay(log)
        assert caught.value.index == index
    with pytest.raises(ReplayError):
        replay([])
    assert replay([f"{state.turn} draw"], initial=state).moves == 1


class CountingStore:
    """Counts the loads and saves that reach a real store (why: the hot path is a claim)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.loads = 0
        self.saves = 0
        real_load, real_save = store.load_game, store.save_game

        async def load_game(game_id: str) -> Any:
            self.loads += 1
            return await real_load(game_id)

        async def save_game(game_id: str, state: bytes, **kw: Any) -> int:
            self.saves += 1
            return await real_save(game_id, state, **kw)

        store.load_game = load_game  # type: ignore[method-assign]
        store.save_game = save_game  # type: ignore[method-assign]


async def test_a_move_costs_one_save_and_no_load(store: Store) -> None:
    """The service moves from what it saved last: one round trip per move."""
    service, game_id, state = await started(store)
    counted = CountingStore(store)
    for _ in range(5):
        state = (await service.apply(game_id, first_legal(state))).state
    assert (counted.loads, counted.saves) == (0, 5)
    stored, _ = await GameService(store).load(game_id)
    assert stored.same_as(state)


async def test_without_the_cache_every_move_loads(store: Store) -> None:
    service = GameService(store, cache_size=0)
    outcome = await service.start(CHAT, "official", PLAYERS, seed=1)
    counted = CountingStore(store)
    state = outcome.state
    for _ in range(3):
        state = (await service.apply(outcome.game_id, first_legal(state))).state
    assert (counted.loads, counted.saves) == (3, 3)


async def test_another_process_moved_first_the_conflict_hands_over_the_game(store: Store) -> None:
    """A stale memory costs what a load would: the refused save brings the stored game."""
    service, game_id, state = await started(store)
    other = GameService(store)  # another bot process
    moved = (await other.apply(game_id, first_legal(state))).state
    counted = CountingStore(store)
    seen: list[int] = []

    def note(s: GameState) -> tuple[GameState, list[Any], list[str]]:
        seen.append(s.moves)  # a step that any state accepts
        return s.clone(), [], ["0 note"]

    outcome = await service.update(game_id, note)
    assert outcome is not None and outcome.version == 3 and service.conflicts == 1
    assert (counted.loads, counted.saves) == (0, 2)
    assert seen == [state.moves, moved.moves]  # first the memory, then the handed-over game
    assert outcome.state.same_as(moved)


async def test_a_refusal_on_a_stale_memory_is_judged_again_on_the_stored_game(store: Store) -> None:
    """The service remembers seat A to move; another process moved; seat B's move must pass."""
    service, game_id, state = await started(store)
    other = GameService(store)
    moved = (await other.apply(game_id, first_legal(state))).state
    assert moved.turn != state.turn
    outcome = await service.apply(game_id, first_legal(moved))  # "not your turn" on the old picture
    assert outcome.version == 3
    with pytest.raises(MoveError):  # a move refused on the stored game is still refused
        await service.apply(game_id, Move("draw", (outcome.state.turn + 1) % 3))


async def test_a_timer_is_not_judged_stale_from_an_old_memory(store: Store) -> None:
    service, game_id, state = await started(store)
    other = GameService(store)
    moved = (await other.apply(game_id, first_legal(state))).state
    outcome = await service.timeout(game_id, at_move=moved.moves)
    assert outcome is not None and outcome.version == 3


async def test_scribbling_on_an_outcome_does_not_reach_the_store(store: Store) -> None:
    service, game_id, state = await started(store)
    outcome = await service.apply(game_id, first_legal(state))
    honest = outcome.state.clone()
    outcome.state.hands[0].clear()  # a careless caller
    outcome.state.turn = 99
    after = await service.apply(game_id, first_legal(honest))
    expected, _ = engine.apply(honest, first_legal(honest))
    assert after.state.same_as(expected)


async def test_the_memory_is_bounded(store: Store) -> None:
    service = GameService(store, cache_size=2)
    ids = []
    for i in range(4):
        ids.append((await service.start(f"-10077{i}", "official", PLAYERS, seed=i)).game_id)
    assert list(service._known) == ids[2:]
    service.forget(ids[3])
    assert list(service._known) == ids[2:3]
    service.forget()
    assert not service._known
