"""What the bot must be allowed in a channel to run a game there, and how a
member is told what is missing.

Why: Discord lets the bot answer a slash command or a press in any channel
it is invited to, whatever that channel's permissions say; only the bot's
own messages need them. So in a channel that denies the bot Send Messages
or Attach Files (the status message carries the top card's picture), a
lobby opened fine and every later edit of its status message was refused
(403) and logged, never shown: the game went on where nobody saw it. Each
interaction carries the bot's resolved permissions in the channel
(`app_permissions`, overwrites applied), so the check costs no request:
`/uno new` is refused with what to grant, and a press on a running game
says it to whoever presses.
"""

from __future__ import annotations

from typing import Any

import discord

from unobot.chat.i18n import N_, gettext_for

#: (permission attribute, its name as Discord's settings show it), in the settings' order.
CHANNEL = (("view_channel", N_("View Channel")), ("send_messages", N_("Send Messages")),
           ("attach_files", N_("Attach Files")))
#: In a thread the bot posts with Send Messages in Threads instead of Send Messages.
THREAD = (("view_channel", N_("View Channel")), ("send_messages_in_threads", N_("Send Messages in Threads")),
          ("attach_files", N_("Attach Files")))


def missing(it: discord.Interaction[Any]) -> list[str]:
    """The English names of the permissions the bot lacks in the interaction's channel."""
    if it.guild_id is None:
        return []
    perms = it.app_permissions
    needed = THREAD if _in_thread(it) else CHANNEL
    return [name for attr, name in needed if not getattr(perms, attr)]


def _in_thread(it: discord.Interaction[Any]) -> bool:
    channel = it.channel
    kind = getattr(channel, "type", None)
    return isinstance(channel, discord.Thread) or kind in (
        discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)


def _names(names: list[str], lang: str) -> str:
    _ = gettext_for(lang)
    return ", ".join(_(name) for name in names)


def refusal(names: list[str], lang: str) -> str:
    """`/uno new` refused: what the bot needs here, and who grants it (plain
    text: escape it for a message, as a panel's notes are)."""
    _ = gettext_for(lang)
    return "⚠️ " + _("I cannot run a game in this channel: I need these permissions here: {permissions}. "
                     "An admin can grant them in the channel's settings.").format(permissions=_names(names, lang))


def warning(names: list[str], lang: str) -> str:
    """A running game's message the bot may no longer update: said to whoever presses."""
    _ = gettext_for(lang)
    return "⚠️ " + _("I can no longer update the game's message in this channel: I need these permissions "
                     "here: {permissions}. An admin can grant them in the channel's settings."
                     ).format(permissions=_names(names, lang))
