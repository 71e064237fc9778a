"""The adapter's own records in the store: per-user records and /notify subscribers.

Why here and not in the chat service: these are Telegram details (who asked
to be notified, where a user's inline query should look for their game,
whether the bot may write to them), yet they must be shared by every bot
process, so they live in the store too. (A game's status message id is
kept with its table: ``table.adapter["status"]``, see `publish.adopt`.)

* A **user record** per Telegram user: ``games`` (chats of the user's
  recent games, newest first; an inline query carries no chat, this is how
  it finds the game) and ``pm`` (the user started the bot in private, so it
  may write there). The Store interface has one keyed JSON record with
  atomic per-field writes, the settings record (`get_chat_settings` /
  `update_chat_settings`); user records use it under keys of their own,
  ``tg-user.<id>`` (store ids allow ``[A-Za-z0-9_.@+=-]``; chat ids are
  numbers, so the two never clash), and only through `user_record` /
  `update_user` below. Older versions kept them under ``user.<id>``: a
  record found only there is read, carried over to the new key once and
  the old one dropped.
* ``notify:<user id>`` in a chat's settings: users to tell when the next
  game opens in that chat (these are about the chat, so they are its settings).
"""

from __future__ import annotations

from typing import Any

from unobot.store import Store

from .guard import telegram_id

MAX_GAMES = 4
"""How many recent game chats a user's record keeps."""

USER_RECORD = "tg-user."
"""The store key of a user record is this prefix and the Telegram user id."""
LEGACY_USER_RECORD = "user."
"""Where versions before the rename kept user records (read, then carried over)."""


def user_key(user_id: int | str) -> str:
    return f"{USER_RECORD}{user_id}"


async def user_record(store: Store, user_id: int | str) -> dict[str, Any]:
    """The user's record (``{}`` if none), from the old key when only that one holds it."""
    record = await store.get_chat_settings(user_key(user_id))
    if record:
        return record
    legacy_key = f"{LEGACY_USER_RECORD}{user_id}"
    legacy = await store.get_chat_settings(legacy_key)
    if legacy:  # carried over once (the first read after an upgrade)
        await update_user(store, user_id, legacy)
        await store.clear_chat_settings(legacy_key)
    return legacy


async def recent_games(store: Store, user_id: int | str) -> list[str]:
    """The Telegram chats of the user's recent games, newest first (other ids never)."""
    record = await user_record(store, user_id)
    return [str(c) for c in record.get("games") or [] if telegram_id(str(c)) is not None]


async def update_user(store: Store, user_id: int | str, changes: dict[str, Any]) -> None:
    """Set fields of the user's record (atomic per field)."""
    await store.update_chat_settings(user_key(user_id), changes)


async def remember_game(store: Store, user_id: int | str, chat_id: str) -> list[str]:
    """Put `chat_id` first in the user's recent game chats and return them
    (read-modify-write: a user joins one game at a time, so a lost race
    costs nothing real)."""
    record = await user_record(store, user_id)
    games = [str(c) for c in record.get("games") or [] if str(c) != chat_id]
    new = [chat_id, *games][:MAX_GAMES]
    if new != record.get("games"):
        await update_user(store, user_id, {"games": new})
    return new


async def set_private_ok(store: Store, user_id: int | str, ok: bool) -> None:
    """Remember whether the bot may write to the user in private."""
    record = await user_record(store, user_id)
    if bool(record.get("pm")) != ok:
        await update_user(store, user_id, {"pm": ok})


NOTIFY = "notify:"
"""A /notify subscriber is one chat setting, ``notify:<user id>``. Why one key
each and not a list: settings are written per key atomically, so people
subscribing at once, or while a game opens and the list is taken, are never
lost to a read-modify-write race."""


async def subscribe(store: Store, chat_id: str, user_id: int | str, lang: str | None = None) -> bool:
    """Add a /notify subscriber, with the language their private notice is to
    be said in (their app's, when unobot speaks it: the notice comes when
    they may be in no game, so no process may know it then); False if they
    were subscribed already."""
    key = f"{NOTIFY}{user_id}"
    if (await store.get_chat_settings(chat_id)).get(key):
        return False
    await store.update_chat_settings(chat_id, {key: lang or True})
    return True


async def take_subscriptions(store: Store, chat_id: str) -> dict[str, str | None]:
    """The /notify subscribers of a chat and each one's language (None: not
    known, say it in the chat's), cleared (a notice is one-shot). Only the
    keys read are removed: someone subscribing meanwhile stays."""
    settings = await store.get_chat_settings(chat_id)
    keys = [k for k in settings if k.startswith(NOTIFY)]
    legacy = [str(u) for u in settings.get("notify") or []]  # one list, as older versions kept them
    if keys or "notify" in settings:
        await store.update_chat_settings(chat_id, remove=keys + (["notify"] if "notify" in settings else []))
    taken: dict[str, str | None] = dict.fromkeys(legacy)
    for key in keys:
        value = settings[key]
        taken[key[len(NOTIFY):]] = value if isinstance(value, str) else None
    return taken


async def take_subscribers(store: Store, chat_id: str) -> list[str]:
    """`take_subscriptions`' people alone."""
    return list(await take_subscriptions(store, chat_id))
