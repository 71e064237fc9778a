"""The adapter's own records in the store, written with the store API directly.

Why here and not in the chat service: these are Telegram details (which
message is a game's status message, who asked to be notified, where a
user's inline query should look for their game), yet they must be shared by
every bot process, so they live in the store too:

* ``table.adapter["status"]``: the status message id of the chat's game,
  saved with compare-and-set on the table (the service has no call for
  adapter data; see `set_adapter_data`);
* a small per-user record, kept as "chat settings" under ``user.<id>``
  (store ids allow ``[A-Za-z0-9_.@+=-]``; Telegram chat ids are numbers, so
  the two never clash): ``games`` (chats of the user's recent games, newest
  first; an inline query carries no chat, this is how it finds the game)
  and ``pm`` (the user started the bot in private, so it may write there);
* ``notify`` in a chat's settings: users to tell when the next game opens.
"""

from __future__ import annotations

import logging
from typing import Any

from core.chat.table import Table
from core.state import StateFormatError
from core.store import GameNotFound, Store, VersionConflict

log = logging.getLogger(__name__)

MAX_GAMES = 4
"""How many recent game chats a user's record keeps."""


def user_key(user_id: int | str) -> str:
    return f"user.{user_id}"


async def set_adapter_data(store: Store, chat_id: str, changes: dict[str, Any], *,
                           seed: int | None = None, tries: int = 8) -> Table | None:
    """Merge `changes` into the chat's `table.adapter` with compare-and-set.

    `seed` names the game the data belongs to (a table's seed is fixed at
    creation): when another game took the chat meanwhile, nothing is saved.
    Returns the saved table, or None if there is no such game. The table's
    revision (`table.version`, which players' choices carry) is not bumped:
    bookkeeping never makes a choice stale.
    """
    for _attempt in range(tries):
        game_id = await store.chat_game(chat_id)
        if not game_id:
            return None
        stored = await store.load_game(game_id)
        if stored is None:
            return None
        try:
            table = Table.decode(stored.state, stored.version)
        except StateFormatError:
            return None
        if seed is not None and table.seed != seed:
            return None
        if all(table.adapter.get(k) == v for k, v in changes.items()):
            return table
        table.adapter.update(changes)
        try:
            table.store_version = await store.save_game(
                game_id, table.encode(), expected_version=stored.version,
                log=["adapter " + ",".join(sorted(changes))])
        except VersionConflict:
            continue
        except GameNotFound:
            return None
        return table
    log.warning("chat %s: adapter data not saved after %d tries", chat_id, tries)
    return None


async def user_record(store: Store, user_id: int | str) -> dict[str, Any]:
    return await store.get_chat_settings(user_key(user_id))


async def remember_game(store: Store, user_id: int | str, chat_id: str) -> list[str]:
    """Put `chat_id` first in the user's recent game chats and return them
    (read-modify-write: a user joins one game at a time, so a lost race
    costs nothing real)."""
    record = await user_record(store, user_id)
    games = [str(c) for c in record.get("games") or [] if str(c) != chat_id]
    new = [chat_id, *games][:MAX_GAMES]
    if new != record.get("games"):
        await store.update_chat_settings(user_key(user_id), {"games": new})
    return new


async def set_private_ok(store: Store, user_id: int | str, ok: bool) -> None:
    """Remember whether the bot may write to the user in private."""
    record = await user_record(store, user_id)
    if bool(record.get("pm")) != ok:
        await store.update_chat_settings(user_key(user_id), {"pm": ok})


NOTIFY = "notify:"
"""A /notify subscriber is one chat setting, ``notify:<user id>``. Why one key
each and not a list: settings are written per key atomically, so people
subscribing at once, or while a game opens and the list is taken, are never
lost to a read-modify-write race."""


async def subscribe(store: Store, chat_id: str, user_id: int | str) -> bool:
    """Add a /notify subscriber; False if they were subscribed already."""
    key = f"{NOTIFY}{user_id}"
    if (await store.get_chat_settings(chat_id)).get(key):
        return False
    await store.update_chat_settings(chat_id, {key: True})
    return True


async def take_subscribers(store: Store, chat_id: str) -> list[str]:
    """The /notify subscribers of a chat, cleared (a notice is one-shot).
    Only the keys read are removed: someone subscribing meanwhile stays."""
    settings = await store.get_chat_settings(chat_id)
    keys = [k for k in settings if k.startswith(NOTIFY)]
    legacy = [str(u) for u in settings.get("notify") or []]  # one list, as older versions kept them
    if keys or "notify" in settings:
        await store.update_chat_settings(chat_id, remove=keys + (["notify"] if "notify" in settings else []))
    return list(dict.fromkeys(legacy + [k[len(NOTIFY):] for k in keys]))
