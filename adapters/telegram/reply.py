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

from .bot import MAX_TEXT, UnoBot
from .guard import clip16, thread_of
from .texts import esc


def reply_to(message: Message, text: str, *, markup: InlineKeyboardMarkup | None = None,
             html_text: bool = False, reply_to: int | None = None) -> None:
    """Queue `text` as a reply to `message`, in its chat and forum topic."""
    if not html_text:
        text = clip16(text, MAX_TEXT)
    sender = cast(UnoBot, message.get_bot()).replies  # the bot `build_application` installs
    # The reply goes from a task of its own (the handler waits for no budget): at
    # once, or at the group's next token; the same reply waiting already answers
    # a repeat of it (a hundred people typing /help).
    key = f"{int(markup is not None)}:{text}"
    sender.submit(message.chat_id, key, functools.partial(_reply, message, text, markup, html_text, reply_to))


async def _reply(message: Message, text: str, markup: InlineKeyboardMarkup | None, html_text: bool,
                 reply_to: int | None) -> Message:
    body = text if html_text else esc(text)
    if reply_to:
        return await message.get_bot().send_message(
            message.chat_id, body, parse_mode=ParseMode.HTML, reply_markup=markup,
            message_thread_id=thread_of(message),
            reply_parameters=ReplyParameters(reply_to, allow_sending_without_reply=True))
    return await message.reply_text(body, parse_mode=ParseMode.HTML, reply_markup=markup, do_quote=True)
