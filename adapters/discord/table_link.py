"""`/uno table`: "Open the table" for a Discord member, a link only they can use.

Why a command answered ephemerally, and not a public button: a link button
carries its URL to everyone who sees the message, and the link signs in
as one member (their seat, their hand). So the link is made when that
member asks, signed for them and for the channel's current game
(`links.player_token`: chat#seed, person, name, expiry, and whether the
member is a channel admin), and shown only
to them. A member with no seat gets a link that watches the table. It
stops working when the game ends (another seed) or after `HOURS`.

Installed by `unobot discord` when the web table is served (`web.enabled`,
in the bot's process) or served elsewhere with a shared secret
(`web.public_url` and `web.secret`): see `adapters/web/cli.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from unobot.chat.i18n import N_, gettext_for
from unobot.chat.outcome import reader_lang
from unobot.chat.render import error_text

from . import render
from .commands import _d, guarded
from .host import Host
from .place import chat_of, person_of
from .reply import EPHEMERAL

if TYPE_CHECKING:
    from .reply import Reply

#: Hours a member's table link stays valid (a game rarely lasts longer).
HOURS = 6.0

#: (chat, person id, name, game seed, language, a channel admin) -> the member's link.
LinkMaker = Callable[[str, str, str, int, str, bool], str]


def install(bot: Host, make_link: LinkMaker) -> app_commands.Command[Any, Any, None]:
    """Add `/uno table` to the bot's `/uno` group (before the tree is synced)."""
    group = bot.tree.get_command("uno")
    assert isinstance(group, app_commands.Group)

    @group.command(name="table", description=_d(N_("Open the table in your browser (a link for you alone)")))
    async def table(it: discord.Interaction[Any]) -> None:
        await guarded(bot, it, EPHEMERAL, lambda r: answer(bot, it, r, make_link))

    return table


async def answer(bot: Host, it: discord.Interaction[Any], reply: Reply, make_link: LinkMaker) -> None:
    chat, person = chat_of(it), person_of(it)
    table = await bot.service.table(chat)
    lang = reader_lang(person.lang, table, bot.service.defaults.lang)  # theirs, else the table's
    if table is None:
        await reply.tell("⚠️ " + error_text("no_game", lang, render.COMMANDS))
        return
    # A member who may manage the server is the channel's admin here (`place.person_of`), and on
    # the page too: the link is signed so, for its `HOURS` (a right taken away meanwhile stays
    # on that link until it ends; the page itself cannot ask Discord).
    await reply.show(shown(make_link(chat, person.id, person.name, table.seed, lang, person.is_admin), lang))


def shown(link: str, lang: str) -> render.Shown:
    """The answer: one line and the link button (the URL travels only to this member)."""
    _ = gettext_for(lang)
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        style=discord.ButtonStyle.link, label=_("🌐 Open the table"), url=link)
    return render.Shown(_("This link is yours alone: it opens your hand at this game. Do not share it."),
                        render.layout([button]))
