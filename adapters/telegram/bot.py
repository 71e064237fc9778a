"""The bot object: python-telegram-bot's ExtBot, minus one defensive copy.

Why: `Bot.answer_inline_query` copies every result (and its message content)
to swap in default values before sending. A hand is ten-odd results per
query and a query comes with nearly every move; measured, the copies cost
about 70 µs a result, more than building the result. Our results are made
with every value explicit (no `DefaultValue` left to swap, and no
`Defaults` on this bot), so they are sent as they are. Anything else still
takes PTB's path.
"""

from __future__ import annotations

from typing import Any

from telegram import InlineQueryResult, InlineQueryResultArticle
from telegram.ext import ExtBot


class PlainArticle(InlineQueryResultArticle):
    """An article result whose fields are all explicit (see the module docstring)."""

    __slots__ = ()


class UnoBot(ExtBot[Any]):
    def _insert_defaults_for_ilq_results(self, res: InlineQueryResult) -> InlineQueryResult:
        if type(res) is PlainArticle and self.defaults is None:
            return res
        return super()._insert_defaults_for_ilq_results(res)
