"""The hand as stickers: the bot's own card sticker sets, made once, remembered in the store.

With `telegram.sticker_owner` set (a Telegram user id: sticker sets belong
to a user), the first bot process that starts draws every card kind
(`cards.render_card`) and creates two sets, bright and greyed, named
``unobot_cards_by_<bot>`` and ``unobot_grey_by_<bot>``; the sticker file ids
go to the store, so every later start and every other process uses them at
once. A set that exists already with the right number of stickers is
adopted; one that does not match the card kinds (a plugin added cards) is
made again. Until the sets are ready, or when anything about them fails,
the hand is shown as text results, as without stickers.

Why stickers only for some results: a wild still asks for a colour and a
7 of seven-o for a target, so those stay text results that say which;
a card not playable now is a greyed sticker which, picked anyway, posts
"🤔" and not the card (the group must not see a hand). A sticker is only
what the player picks from: a pick posts the move in words, never the
sticker, because a pick the service refuses (an old hand) must be
overwritten by the refusal, and a sticker message cannot be edited.
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass
from typing import Any

from telegram import InputSticker
from telegram.error import BadRequest, TelegramError

from unobot.store import StoreError

log = logging.getLogger(__name__)

STORE_KEY = "bot.stickers"
FIRST_BATCH = 50  # createNewStickerSet takes at most 50 stickers; the rest are added one by one
EMOJI = ["🃏"]


@dataclass(frozen=True)
class StickerMap:
    """Card text -> sticker file id, bright and greyed."""

    bright: dict[str, str]
    dim: dict[str, str]


def set_names(bot_username: str) -> tuple[str, str]:
    return f"unobot_cards_by_{bot_username}", f"unobot_grey_by_{bot_username}"


def _png(card: Any, dim: bool) -> bytes:
    from .cards import render_card

    out = io.BytesIO()
    render_card(card, dim=dim).save(out, format="PNG", optimize=True)
    return out.getvalue()


async def _build(bot: Any, owner: int, name: str, title: str, cards: list[Any], dim: bool) -> list[str]:
    """The set's sticker file ids, in card order: adopted if it matches, else (re)made."""
    try:
        existing = await bot.get_sticker_set(name)
    except BadRequest:
        existing = None
    if existing is not None:
        if len(existing.stickers) == len(cards):
            return [s.file_id for s in existing.stickers]
        await bot.delete_sticker_set(name)
    pictures = await asyncio.to_thread(lambda: [_png(card, dim) for card in cards])
    stickers = [InputSticker(png, EMOJI, "static") for png in pictures]
    await bot.create_new_sticker_set(owner, name, title, stickers[:FIRST_BATCH])
    for sticker in stickers[FIRST_BATCH:]:
        await bot.add_sticker_to_set(owner, name, sticker)
    made = await bot.get_sticker_set(name)
    return [s.file_id for s in made.stickers]


async def load(store: Any, cards: list[str]) -> StickerMap | None:
    """The file ids remembered in the store, if they are for these card kinds."""
    record = await store.get_chat_settings(STORE_KEY)
    bright, dim = record.get("bright"), record.get("dim")
    if record.get("cards") != cards or not isinstance(bright, list) or not isinstance(dim, list) \
            or len(bright) != len(cards) or len(dim) != len(cards):
        return None
    return StickerMap(dict(zip(cards, bright, strict=True)), dict(zip(cards, dim, strict=True)))


async def ensure(bot: Any, store: Any, owner: int, bot_username: str) -> StickerMap | None:
    """The card stickers: from the store, else made (and remembered). None if they cannot be had now."""
    try:
        from .cards import card_kinds
    except ImportError:
        return None
    kinds = card_kinds()
    texts = [c.text for c in kinds]
    try:
        found = await load(store, texts)
        if found is not None:
            return found
        try:
            import PIL  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
        except ImportError:
            log.warning("card stickers are off: drawing them needs Pillow (pip install 'unobot[cards]')")
            return None
        bright_name, dim_name = set_names(bot_username)
        bright = await _build(bot, owner, bright_name, "UNO cards", kinds, dim=False)
        dim = await _build(bot, owner, dim_name, "UNO cards (not playable)", kinds, dim=True)
        if len(bright) != len(texts) or len(dim) != len(texts):
            log.warning("card stickers are off: the sets hold %d and %d stickers for %d cards",
                        len(bright), len(dim), len(texts))
            return None
        await store.update_chat_settings(STORE_KEY, {"cards": texts, "bright": bright, "dim": dim})
        return StickerMap(dict(zip(texts, bright, strict=True)), dict(zip(texts, dim, strict=True)))
    except (TelegramError, StoreError) as exc:
        log.warning("card stickers are off for now: %s", exc)
        return None
