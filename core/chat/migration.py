"""A chat that changes its id (Telegram gives a group that becomes a
supergroup a new one): its running game, counters, players' records and
settings follow it.

Why its own loop and not the session layer's: it is the one change that
spans two keys (a game created under the new id, the old one deleted), so
it is made safe to repeat instead (see `move_chat`).
"""

from __future__ import annotations

from ..store import ChatBusy, VersionConflict
from .ports import ServicePort
from .table import Table


async def move_chat(service: ServicePort, old: str, new: str) -> Table | None:
    """The chat now goes by another id (Telegram gives a group that
    becomes a supergroup a new one): its running game, counters, players'
    records and settings follow it, and nothing stays running under the old id.

    Safe to call again after a failure halfway (a store outage) and to
    call twice (Telegram announces the move in both chats): a game copied
    before is recognised by its seed and brought up to date, and what
    moved is gone from the old id. The moved table's `adapter` data is
    cleared: it names things of the old chat (message ids), which the
    adapter makes anew. Returns the moved table, or None when there was
    no game to move (or the new id runs another game: both are left be).
    """
    moved = None
    found = await service.load(old)
    if found is not None:
        moved = await _move_game(service, old, new, *found)
    counters = {k: v for k, v in (await service.store.get_stats("chat", old)).items() if v}
    if counters:
        await service.store.incr_stats("chat", new, counters)
        await service.store.incr_stats("chat", old, {k: -v for k, v in counters.items()})
    # the players' records too (standings, ratings, kept games): else /top and /last
    # start over in the supergroup while /stats goes on
    await service.store.move_records(old, new)
    settings = await service.store.get_chat_settings(old)
    if settings:  # last: a retry after a failure finds them still here, and copying again is harmless
        await service.store.update_chat_settings(new, settings)
        await service.store.clear_chat_settings(old)
    return moved

async def _move_game(service: ServicePort, old: str, new: str, game_id: str, table: Table) -> Table | None:
    """Copy the game (and its log, so it still replays) under the new id,
    then delete the old one. The copy's last entry, `moved from OLD N`, says
    how many of the old log's entries it holds, so a second call copies only
    what came since."""
    for _attempt in range(service.max_tries):
        copy = Table.decode(table.encode(), table.store_version)
        copy.chat_id, copy.adapter = new, {}
        old_log = await service.store.read_log(game_id)
        try:
            new_game, copy.store_version = await service.store.create_game(
                new, copy.encode(), log=[*old_log, f"moved from {old} {len(old_log)}"])
        except ChatBusy:
            there = await service.load(new)
            if there is None or there[1].seed != table.seed:
                return None  # the new chat's own game
            new_game, current = there  # copied by an earlier call
            if table.version > current.version:  # the old game moved on since: copy it again
                copied = 0
                for entry in reversed(await service.store.read_log(new_game)):
                    if entry.startswith(f"moved from {old} "):
                        copied = int(entry.rsplit(" ", 1)[1])
                        break
                try:
                    copy.store_version = await service.store.save_game(
                        new_game, copy.encode(), expected_version=current.store_version,
                        log=[*old_log[copied:], f"moved from {old} {len(old_log)}"])
                except VersionConflict:
                    continue
            else:
                copy = current
        # A move that landed on the old game meanwhile is carried over before it goes.
        stored = await service.store.load_game(game_id)
        if stored is not None and stored.version != table.store_version:
            table = Table.decode(stored.state, stored.version)
            continue
        # Deleted, not just unbound: a process that remembers the old game's
        # id must find nothing there, not a running game nobody can reach.
        await service.store.delete_game(game_id)
        service.forget(old)
        return copy
    return None

