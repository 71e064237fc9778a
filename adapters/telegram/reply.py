"""A reply in the chat to one message (a command, or the message whose button
was pressed), sent from the reply sender's own task.

Why its own module: commands reply (`handlers.reply`), and so does a button
whose answer does not fit the 200 characters Telegram shows for a press
(`buttons.on_button`); both go through the same sender, so a reply waits
for the group's budget without holding a handler, and a flood of the same
reply is sent once.
"""

from __future__ import annotations

import functools
from typing import cast

from telegram import InlineKeyboardMarkup, Message, ReplyParameters
from telegram.constants import ParseMode

from .bot import UnoBot
from .guard import thread_of
from .pages import pages
from .texts import esc


def reply_to(message: Message, text: str, *, markup: InlineKeyboardMarkup | None = None,
             html_text: bool = False, reply_to: int | None = None) -> None:
    """Queue `text` as a reply to `message`, in its chat and forum topic (as
    several messages when it is longer than one)."""
    sender = cast(UnoBot, message.get_bot()).replies  # the bot `build_application` installs
    # The reply goes from a task of its own (the handler waits for no budget): at
    # once, or at the group's next token; the same reply waiting already answers
    # a repeat of it (a hundred people typing /help).
    key = f"{int(markup is not None)}:{text}"
    sender.submit(message.chat_id, key, functools.partial(_reply, message, text, markup, html_text, reply_to))


async def _reply(message: Message, text: str, markup: InlineKeyboardMarkup | None, html_text: bool,
                 reply_to: int | None) -> Message:
    """Send the reply's pages in order; the last one sent is returned."""
    bodies = [page if html_text else esc(page) for page in pages(text, html_text=html_text)]
    sent = message
    for n, body in enumerate(bodies):
        last = n == len(bodies) - 1
        sent = await message.get_bot().send_message(
            message.chat_id, body, parse_mode=ParseMode.HTML, reply_markup=markup if last else None,
            message_thread_id=thread_of(message),
            # the first page quotes what it answers (a command, or `reply_to`: the game's message)
            reply_parameters=ReplyParameters(reply_to or message.message_id, allow_sending_without_reply=True)
            if n == 0 else None)
    return sent
