"""Where a Discord interaction happens and who makes it, in the chat
service's terms: a channel is a chat (`dc_<guild>_<channel>`), a guild keeps
the defaults of its channels (`dcg_<guild>`), a member is a `Person`.

Why a module of its own: the slash commands, the presses and the jobs all
need these, and none of them may import the bot's client to get them (the
client imports the commands).
"""

from __future__ import annotations

from typing import Any

import discord

from unobot.chat import commands as c
from unobot.chat.i18n import known
from unobot.chat.names import display_name

from .texts import CHAT_PREFIX

GUILD_PREFIX = "dcg_"


def chat_id(guild_id: int | None, channel_id: int) -> str:
    """A channel's chat id: `dc_<guild>_<channel>` (the guild's settings are its defaults)."""
    return f"{CHAT_PREFIX}{guild_id or 0}_{channel_id}"


def chat_of(interaction: discord.Interaction[Any]) -> str:
    assert interaction.channel_id is not None
    return chat_id(interaction.guild_id, interaction.channel_id)


def _parts(chat: str) -> tuple[int, int] | None:
    rest = chat[len(CHAT_PREFIX):].split("_") if chat.startswith(CHAT_PREFIX) else []
    if len(rest) != 2 or not all(p.isascii() and p.isdecimal() for p in rest):
        return None
    return int(rest[0]), int(rest[1])


def channel_of(chat: str) -> int | None:
    parts = _parts(chat)
    return parts[1] if parts else None


def guild_id_of(chat: str) -> int | None:
    """The guild of a channel's chat id, if it names one."""
    parts = _parts(chat)
    return parts[0] if parts and parts[0] else None


def guild_chat(guild_id: int) -> str:
    """Where a guild's own settings are kept (the defaults of its channels)."""
    return f"{GUILD_PREFIX}{guild_id}"


def guild_of(chat: str) -> str | None:
    parts = _parts(chat)
    return guild_chat(parts[0]) if parts and parts[0] else None


def settings_chat(it: discord.Interaction[Any], scope: str) -> str:
    """The chat whose settings a command changes: the channel, or its server."""
    if scope == "server" and it.guild_id is not None:
        return guild_chat(it.guild_id)
    return chat_of(it)


def place_name(interaction: discord.Interaction[Any]) -> str | None:
    """How the channel is known to its members: "#uno · Game night" (a thread's or a
    channel's name, and its server's), None in a direct message or when unknown."""
    name = getattr(interaction.channel, "name", None)
    if not isinstance(name, str) or not name.strip():
        return None
    server = interaction.guild.name if interaction.guild is not None else ""
    return f"#{name} · {server}" if server else f"#{name}"


def person_of(interaction: discord.Interaction[Any]) -> c.Person:
    """The member as the service sees them; Manage Server (or Administrator) counts as admin."""
    user = interaction.user
    perms = interaction.permissions
    return c.Person(str(user.id), display_name(user.display_name, str(user.id)), lang=str(interaction.locale),
                    is_admin=bool(perms.manage_guild or perms.administrator))


def lang_of(interaction: discord.Interaction[Any], fallback: str) -> str:
    """The member's client language when unobot speaks it, else `fallback`."""
    return known(str(interaction.locale)) or fallback


def settings_places(chat: str) -> tuple[str, ...]:
    """Where a channel's settings come from, nearest first (core's
    `ChatService(settings_from=...)`): the channel's own, then its server's
    (set with `/uno rules scope:server`); a setting a channel changes is its own from then on."""
    guild = guild_of(chat)
    return (chat, guild) if guild is not None else (chat,)



def settings_followers(place: str) -> str | None:
    """The start of the chats that take their settings from `place` (core's
    `ChatService(settings_followers=...)`): a server's channels; none for a
    channel (its settings are its own)."""
    if place.startswith(GUILD_PREFIX) and place[len(GUILD_PREFIX):].isdecimal():
        return f"{CHAT_PREFIX}{place[len(GUILD_PREFIX):]}_"
    return None
