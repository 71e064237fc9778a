"""The hand as stickers: the bot's own card sticker sets, made once, remembered in the store.

With `telegram.sticker_owner` set (a Telegram user id: sticker sets belong
to a user), the first bot process that starts draws every card kind
(`card_art.sticker_image`) and creates two sets, bright and greyed, named
``unobot_cards_by_<bot>`` and ``unobot_grey_by_<bot>``; the sticker file ids
go to the store, so every later start and every other process uses them at
once. A set that exists already with the right number of stickers is
adopted; one that does not match the card kinds (a plugin added cards) is
made again. Until the sets are ready, or when anything about them fails,
the hand is shown as text results, as without stickers.

Several processes, and failures. The job that makes the sets (`job`, run by
python-telegram-bot's JobQueue at start-up) tries again after any failure
(Telegram or the store unreachable, a flood wait), waiting 5 s, then 10, 20...
up to 10 minutes between tries, so stickers come on without a restart.
Processes starting together may all find no set and start making one: the
first `createNewStickerSet` wins, the others are told the name is taken, and
that means "another process is making it": they try again a little later and
adopt the set once it is complete (or read the ids it saved in the store).
Which card list a set was made for is in its title (a digest of the card
texts and of the drawing's `card_art.ART_VERSION`: new art makes new sets), so a set that is still being filled (fewer stickers than cards, the
right title) is waited for, never deleted; only a set for other cards, or
one that stopped growing for a minute (its maker died half-way), is made again.

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
import contextlib
import hashlib
import io
import logging
import time
from dataclasses import dataclass
from typing import Any

from telegram import InputSticker
from telegram.error import BadRequest, TelegramError

from unobot.store import StoreError

log = logging.getLogger(__name__)

STORE_KEY = "bot.stickers"
FIRST_BATCH = 50  # createNewStickerSet takes at most 50 stickers; the rest are added one by one
EMOJI = ["🃏"]
#: The JobQueue job's name, and its waits between tries (seconds; doubled each time).
JOB = "unobot.stickers"
FIRST_RETRY = 5.0
MAX_RETRY = 600.0
#: A set with the right title but too few stickers that has not grown for this long
#: was left by a process that stopped half-way: it is made again.
STALLED = 60.0


class NotReady(Exception):
    """The sets cannot be had now, but may later (the job tries again)."""


@dataclass(frozen=True)
class StickerMap:
    """Card text -> sticker file id, bright and greyed."""

    bright: dict[str, str]
    dim: dict[str, str]


def set_names(bot_username: str) -> tuple[str, str]:
    return f"unobot_cards_by_{bot_username}", f"unobot_grey_by_{bot_username}"


def digest(texts: list[str]) -> str:
    """A short name of a card list, put in the sets' titles."""
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:10]


def _png(card: Any, dim: bool) -> bytes:
    from unobot.adapters.card_art import sticker_image

    out = io.BytesIO()
    sticker_image(card, dim=dim).save(out, format="PNG")  # (optimize=True: 6 times slower, 10% smaller)
    return out.getvalue()


#: set name -> (stickers it held, when first seen so): a partial set's growth, in this process.
_partial: dict[str, tuple[int, float]] = {}


def _stalled(name: str, count: int) -> bool:
    """True when the partial set `name` has held `count` stickers for STALLED seconds."""
    now = time.monotonic()
    seen = _partial.get(name)
    if seen is None or seen[0] != count:
        _partial[name] = (count, now)
        return False
    return now - seen[1] >= STALLED


async def _get_set(bot: Any, name: str) -> Any:
    try:
        return await bot.get_sticker_set(name)
    except BadRequest:  # STICKERSET_INVALID: no such set
        return None


async def _build(bot: Any, owner: int, name: str, title: str, cards: list[Any], dim: bool) -> list[str]:
    """The set's sticker file ids, in card order: adopted if it is these cards' set, else (re)made.
    Raises NotReady while another process is making it."""
    existing = await _get_set(bot, name)
    if existing is not None:
        if existing.title == title:
            if len(existing.stickers) == len(cards):
                _partial.pop(name, None)
                return [s.file_id for s in existing.stickers]
            if not _stalled(name, len(existing.stickers)):
                raise NotReady(f"the sticker set {name} is being made ({len(existing.stickers)} of {len(cards)})")
        with contextlib.suppress(BadRequest):  # for other cards, or abandoned half-way: made again
            await bot.delete_sticker_set(name)  # (refused: another process deleted it first)
        _partial.pop(name, None)
    pictures = await asyncio.to_thread(lambda: [_png(card, dim) for card in cards])
    stickers = [InputSticker(png, EMOJI, "static") for png in pictures]
    try:
        await bot.create_new_sticker_set(owner, name, title, stickers[:FIRST_BATCH])
    except BadRequest as exc:
        if "occupied" in str(exc).lower():  # another process made it a moment ago
            raise NotReady(f"another process is making the sticker set {name}") from exc
        raise
    for sticker in stickers[FIRST_BATCH:]:
        await bot.add_sticker_to_set(owner, name, sticker)
    made = await bot.get_sticker_set(name)
    return [s.file_id for s in made.stickers]


async def load(store: Any, cards: list[str]) -> StickerMap | None:
    """The file ids remembered in the store, if they are for these card kinds."""
    from unobot.adapters.card_art import ART_VERSION

    record = await store.get_chat_settings(STORE_KEY)
    bright, dim = record.get("bright"), record.get("dim")
    if record.get("cards") != cards or record.get("art") != ART_VERSION or not isinstance(bright, list) or not isinstance(dim, list) \
            or len(bright) != len(cards) or len(dim) != len(cards):
        return None
    return StickerMap(dict(zip(cards, bright, strict=True)), dict(zip(cards, dim, strict=True)))


async def ensure(bot: Any, store: Any, owner: int, bot_username: str) -> StickerMap | None:
    """The card stickers: from the store, else adopted or made (and remembered).
    None: not to be had in this process (Pillow is missing); raises NotReady
    when a later try may succeed."""
    try:
        from unobot.decks import card_kinds
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
        from unobot.adapters.card_art import ART_VERSION

        tag = digest([*texts, f"art {ART_VERSION}"])
        bright = await _build(bot, owner, bright_name, f"UNO cards · {tag}", kinds, dim=False)
        dim = await _build(bot, owner, dim_name, f"UNO cards, not playable · {tag}", kinds, dim=True)
        if len(bright) != len(texts) or len(dim) != len(texts):
            raise NotReady(f"the sets hold {len(bright)} and {len(dim)} stickers for {len(texts)} cards")
        await store.update_chat_settings(STORE_KEY, {"cards": texts, "art": ART_VERSION, "bright": bright, "dim": dim})
        return StickerMap(dict(zip(texts, bright, strict=True)), dict(zip(texts, dim, strict=True)))
    except (TelegramError, StoreError) as exc:
        raise NotReady(str(exc)) from exc
