"""The bot object: python-telegram-bot's ExtBot, with a lean path for hand results.

Why: a hand is ten-odd inline results per query, and a query comes with
nearly every move. For each result `Bot.answer_inline_query` makes two
defensive copies (to swap in default values) and `to_dict` walks the
object tree; measured, that is about 120 µs a result, more than the rest of
the query's work. `PlainArticle` results are built with every value
explicit (no `DefaultValue` to swap; this bot has no `Defaults`) and know
their wire form, so they skip both. Every other result takes PTB's path.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from telegram import (
    InlineKeyboardMarkup,
    InlineQueryResult,
    InlineQueryResultArticle,
    InputTextMessageContent,
)
from telegram.ext import ExtBot


@cache
def _markup_dict(markup: InlineKeyboardMarkup) -> dict[str, Any]:
    return markup.to_dict()


class PlainArticle(InlineQueryResultArticle):
    """An article that posts plain `text` and carries `markup` (shared, immutable)."""

    __slots__ = ("_wire",)

    def __init__(self, id: str, title: str, text: str, markup: InlineKeyboardMarkup,
                 description: str | None = None) -> None:
        super().__init__(id=id, title=title, description=description, reply_markup=markup,
                         input_message_content=InputTextMessageContent(text, parse_mode=None,
                                                                      link_preview_options=None))
        wire: dict[str, Any] = {"type": "article", "id": id, "title": title,
                                "input_message_content": {"message_text": text},
                                "reply_markup": _markup_dict(markup)}
        if description:
            wire["description"] = description
        object.__setattr__(self, "_wire", wire)  # the object is frozen by now

    def to_dict(self, recursive: bool = True) -> dict[str, Any]:
        wire: dict[str, Any] = self._wire  # type: ignore[attr-defined]
        return dict(wire)


class UnoBot(ExtBot[Any]):
    def _insert_defaults_for_ilq_results(self, res: InlineQueryResult) -> InlineQueryResult:
        if type(res) is PlainArticle and self.defaults is None:
            return res
        return super()._insert_defaults_for_ilq_results(res)
