"""Where a table's players are, and how a person gets from there to its page.

Why: the page is one front-end among several. A person who opens it with no
link, with a Telegram group's link outside Telegram, or with an expired link
needs to be told where the game they want is played (a Telegram group, a
Discord channel, a terminal) and what to do there, in their language. "New
tables are made in the chats here, not on the page" said neither.

A table's kind of place is read from its chat id (each front-end names its
chats its own way); the places a server's tables come from are known from
its configuration (`WebConfig.places`, made by `cli.web_config`).
"""

from __future__ import annotations

from collections.abc import Iterable

from unobot.chat.i18n import N_, gettext_for
from unobot.chat.place_names import BROWSER, CONSOLE, DISCORD, TELEGRAM, kind_of

__all__ = ["BROWSER", "CONSOLE", "DISCORD", "TELEGRAM", "place_of"]

#: The Telegram status message's button that opens the page (adapters/telegram/keyboards.py).
OPEN_BUTTON = N_("🌐 Open the table")

#: The landing page when its server makes no tables of its own (`web.browser_tables: false`).
NOT_HERE = N_("Tables are not made on this page: each opens from where its players are.")

#: How a person reaches a table of each kind of place, from nothing.
HOW = {
    TELEGRAM: N_("In a Telegram group with {bot}: start a game with /new, then press {button} on the game's "
                 "message."),
    DISCORD: N_("In a Discord channel with the bot: start a game with /uno new, then type /uno table for "
                "your own link to this page."),
    CONSOLE: N_("In a terminal: the console prints this page's link when its game begins."),
}

#: Nothing configured names a place (a server only for links made elsewhere).
ONLY_LINKS = N_("This page opens a table only from its own link: ask the person who runs the game for it.")

#: A Telegram group's table opened outside Telegram (its link copied into a browser).
TELEGRAM_ONLY = N_("This table belongs to a Telegram group: open it in Telegram, with {button} on the "
                   "game's message in that group.")

#: A player link that ran out, by the place its table is played in.
EXPIRED = {
    DISCORD: N_("This link has expired: type /uno table in the game's Discord channel for a new one."),
    CONSOLE: N_("This link has expired: the console prints a new one when its next game begins."),
}


def place_of(chat: str) -> str:
    """The kind of place a chat id belongs to ("" when it is none of ours): core's
    `place_names.kind_of`, which `/me` names other chats by too."""
    return kind_of(chat)


def button(lang: str, label: str = OPEN_BUTTON) -> str:
    """A button's label named in a sentence, in `lang` (“🌐 Open the table”)."""
    from .texts import BUTTON

    _ = gettext_for(lang)
    return _(BUTTON).format(button=_(label))


def where_tables_are(places: Iterable[str], lang: str, bot: str | None = None) -> str:
    """What the landing page says when it makes no tables: that tables open from where their
    players are, then how, for each place this server's tables come from (`bot`: the
    Telegram bot's @username, when known)."""
    _ = gettext_for(lang)
    ways = []
    for place in dict.fromkeys(places):
        if place == TELEGRAM:
            ways.append(_(HOW[TELEGRAM]).format(bot=f"@{bot}" if bot else _("the bot"), button=button(lang)))
        elif place in HOW:
            ways.append(_(HOW[place]))
    return "\n".join([_(NOT_HERE), *(ways or [_(ONLY_LINKS)])])


def refusal_at(code: str, chat: str | None, lang: str) -> str | None:
    """A refusal said for the place its table is played in (None: the page's plain words):
    a Telegram group's link opened outside Telegram, or an expired Discord or console link."""
    if chat is None:
        return None
    place = place_of(chat)
    _ = gettext_for(lang)
    if code == "no_auth" and place == TELEGRAM:
        return _(TELEGRAM_ONLY).format(button=button(lang))
    if code == "expired" and place in EXPIRED:
        return _(EXPIRED[place])
    return None
