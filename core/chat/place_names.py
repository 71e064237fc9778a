"""How a player's record names the places they played in (`/me`): by the
name people know them by, as the front-end last saw it (a Telegram group's
title, a Discord channel and its server), else by what kind of place it is
in the reader's language ("A Telegram chat"), never by a bare id.

Why: `/me` listed "Elsewhere (-1001234567890)", a number nobody knows a
group by. The name is kept with the chat's settings (the `place` key: the
same keyed record in every store, shared by every process), written by the
front-end that sees the chat, only when it changed; core imports no
front-end to learn it.

Which kind of place a chat id is: each front-end names its chats its own
way (`web.<hex>`, `dc_<guild>_<channel>`, `console.<user>`, Telegram's
numbers); the shipped ones are known here, and a third party's front-end
adds its own with `place_kind`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..store import Store
from .bounded import BoundedCache
from .i18n import N_, gettext_for
from .names import display_name

#: The chat settings key that holds how the chat is known: {"kind": ..., "name": ...}.
PLACE_SETTING = "place"

TELEGRAM, DISCORD, CONSOLE, BROWSER = "telegram", "discord", "console", "browser"

#: A place whose kind is not known (a front-end that registered none): no word for a kind.
OTHER_PLACE = N_("Somewhere else")


@dataclass(frozen=True)
class PlaceKind:
    """A kind of place: its name in a sentence when its own name is not known
    (an msgid), and which chat ids are of it."""

    kind: str
    unnamed: str
    owns: Callable[[str], bool]


def _is_integer(text: str) -> bool:
    """A Telegram chat's place as the Telegram adapter writes it: a whole number in its
    canonical decimal form (`-100123`); `int()`, not `isdigit()`, which takes `²`."""
    try:
        return str(int(text)) == text
    except ValueError:
        return False


KINDS: dict[str, PlaceKind] = {}


def place_kind(kind: str, unnamed: str, owns: Callable[[str], bool]) -> None:
    """Make a kind of place known (a front-end's): `unnamed` is its msgid ("A
    Telegram chat"; mark it with `N_` and translate it in your catalogue), `owns`
    tells its chat ids. A kind named again is replaced."""
    KINDS[kind] = PlaceKind(kind, unnamed, owns)


place_kind(BROWSER, N_("A table in a browser"), lambda chat: chat.startswith("web."))
place_kind(DISCORD, N_("A Discord channel"), lambda chat: chat.startswith("dc_"))
place_kind(CONSOLE, N_("The console"), lambda chat: chat.startswith("console."))
place_kind(TELEGRAM, N_("A Telegram chat"), _is_integer)


def kind_of(chat: str) -> str:
    """The kind of place a chat id belongs to ("" when no known front-end's)."""
    for kind in KINDS.values():
        if kind.owns(chat):
            return kind.kind
    return ""


def place_words(chat: str, known: Any, lang: str, *, named: bool = True) -> str:
    """How `chat` is named to a reader in `lang`: its kept name (`known`: the
    `place` setting), else its kind's words, else "Somewhere else". `named`
    False: by its kind only (an answer others read too)."""
    if named and isinstance(known, dict) and isinstance(known.get("name"), str) and known["name"].strip():
        return display_name(known["name"], "")
    kind = KINDS.get(str(known.get("kind", ""))) if isinstance(known, dict) else None
    kind = kind or KINDS.get(kind_of(chat))
    return gettext_for(lang)(kind.unnamed if kind else OTHER_PLACE)


async def names_of(store: Store, chats: Iterable[str], lang: str, *, named: bool = True) -> dict[str, str]:
    """Each chat's words for a reader in `lang` (`place_words`), read at once.
    `named` False (an answer posted where others read it, a Telegram group's
    `/me`): by kind only, so a group's members do not learn the titles of the
    player's other groups (a private group's title is not theirs to read)."""
    chats = list(chats)
    if not named:
        return {chat: place_words(chat, None, lang) for chat in chats}
    kept = await asyncio.gather(*(store.get_chat_settings(chat) for chat in chats))
    return {chat: place_words(chat, settings.get(PLACE_SETTING), lang) for chat, settings in zip(chats, kept, strict=True)}


class PlaceNotes:
    """What this process last wrote (or read) as each chat's name: a chat's
    every update writes nothing unless its name changed."""

    def __init__(self, size: int = 4096, ttl: float = 3600.0) -> None:
        self._seen: BoundedCache[str, dict[str, str]] = BoundedCache(size, ttl)

    async def note(self, store: Store, chat: str, kind: str, name: str | None, *, weak: bool = False) -> bool:
        """Keep `name` (a chat's title, "#channel · Server") as how `chat` is known,
        and its `kind` (`TELEGRAM`...). `weak`: a name that only stands in (a forum
        topic whose own name this update did not carry), kept only where none is.
        True when it was written."""
        place = {"kind": kind, "name": display_name(name, "")}
        seen = self._seen.get(chat)
        if seen is None:
            stored = (await store.get_chat_settings(chat)).get(PLACE_SETTING)
            seen = stored if isinstance(stored, dict) else {}
            self._seen.put(chat, seen)
        if seen == place or (weak and seen.get("name")) or (not place["name"] and seen.get("name")):
            return False
        await store.update_chat_settings(chat, {PLACE_SETTING: place})
        self._seen.put(chat, place)
        return True
