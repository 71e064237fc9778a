"""Counters a chat and its players keep: rounds and matches played and won, points."""

from __future__ import annotations

import logging

from ..events import MATCH_WON
from ..store import Store, StoreUnavailable
from .outcome import Outcome
from .table import Table

log = logging.getLogger(__name__)


async def record_stats(store: Store, chat_id: str, table: Table, out: Outcome) -> None:
    """Count finished rounds and matches (best effort: a lost count is no lost move)."""
    game = table.game
    if game is None or not out.round_over:
        return
    try:
        chat = {"rounds": 1}
        if out.match_over:
            chat["matches"] = 1
        await store.incr_stats("chat", chat_id, chat)
        for seat, info in enumerate(table.seats):
            if info.is_ai:
                continue
            d = {"rounds": 1}
            if seat == game.winner:
                d["rounds_won"] = 1
                d["points"] = max(0, game.scores[seat])
            if out.match_over:
                d["matches"] = 1
                if any(e.kind == MATCH_WON and e.player == seat for e in out.events):
                    d["matches_won"] = 1
            await store.incr_stats("user", info.id, d)
    except StoreUnavailable:
        log.warning("stats for chat %s not recorded: store unavailable", chat_id)
