"""Moves the store applied but could not confirm: say "not confirmed yet",
then find out whether each one survived, and say that.

Why a ledger of its own: with ``redis.wait_replicas`` (or ``wait_aof``) a
save is acknowledged only once that many copies have it. When fewer confirm
in time (a replica lagging or cut off, a failover under way) the store
raises :class:`~core.store.StoreUnconfirmed` with the save's receipt: the
move is on the primary and will probably stand, but a failover to a replica
without it would drop it, so the player is told neither "done" nor "not
saved". The receipt is kept here per chat, and settled (the store re-reads
the game and waits for its copies again, :meth:`Store.confirm_save`) at the
chat's next command, or whenever an adapter calls
:meth:`ChatService.settle_unconfirmed`; the chat then hears whether it
counts or was lost. Nothing is ever acknowledged and then silently
replaced.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ..store import Receipt, Store, StoreUnavailable, StoreUnconfirmed
from .i18n import N_, Msg

log = logging.getLogger(__name__)

NOT_CONFIRMED = N_("Not confirmed yet: the game store is switching servers. I will say here "
                   "whether this counts as soon as I know.")
KEPT = N_("Confirmed now: {player}'s last move counts.")
LOST = N_("{player}'s last move was lost while the game store switched servers: the game goes "
          "on from before it. Please make it again.")

# The same, for a save this process read but did not make (another process serving the
# chat made it: a web table drawing a Telegram player's move), whose maker it does not know.
KEPT_READ = N_("Confirmed now: the last move counts.")
LOST_READ = N_("The last move was lost while the game store switched servers: the game goes on "
               "from before it.")

MAX_PENDING = 64
"""Receipts kept per chat (the oldest are dropped: a newer one settles them too)."""


@dataclass(frozen=True, slots=True)
class Pending:
    """A save the store did not confirm: its receipt and who made it."""

    receipt: Receipt
    player: str


class Unconfirmed:
    """The unconfirmed saves of each chat (of this process) and their settling."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pending: dict[str, list[Pending]] = {}

    def note(self, chat_id: str, exc: StoreUnconfirmed, player: str) -> None:
        """Remember an unconfirmed save (one without a receipt has nothing to check);
        `player` made it, or ``""``: another process did (read, `Store.confirm_stored`)."""
        if exc.receipt is None:
            return
        held = self._pending.setdefault(chat_id, [])
        held.append(Pending(exc.receipt, player))
        del held[:-MAX_PENDING]

    def waiting(self, chat_id: str | None = None) -> bool:
        """True when a chat (or any chat) has a save not settled yet."""
        return bool(self._pending.get(chat_id)) if chat_id is not None else bool(self._pending)

    def chats(self) -> list[str]:
        return list(self._pending)

    async def settle(self, chat_id: str, lang: str | None) -> list[str]:
        """Ask the store about the chat's unconfirmed saves; what to tell the chat, in `lang`
        (`settle_said`)."""
        return [m.text(lang) for m in await self.settle_said(chat_id)]

    async def settle_said(self, chat_id: str) -> list[Msg]:
        """Ask the store about the chat's unconfirmed saves; what to tell the chat, as texts
        each reader reads in their own language (a page in German beside one in English).

        Each one is confirmed (it counts: said once per player), lost (said),
        or still undecided (kept, nothing said). A store that cannot answer
        leaves them all for next time.
        """
        held = self._pending.get(chat_id)
        if not held:
            return []
        notices: list[Msg] = []
        said: set[tuple[str, str]] = set()
        left: list[Pending] = []
        for pending in held:
            try:
                kept = await self.store.confirm_save(pending.receipt)
            except StoreUnconfirmed:
                left.append(pending)
                continue
            except StoreUnavailable as exc:
                log.info("chat %s: cannot settle unconfirmed saves yet: %s", chat_id, exc)
                return []
            if pending.player:
                msgid = KEPT if kept else LOST
            else:
                msgid = KEPT_READ if kept else LOST_READ
            if (msgid, pending.player) not in said:
                said.add((msgid, pending.player))
                notices.append(Msg(msgid, player=pending.player))
            log.warning("chat %s: unconfirmed save of %s version %d %s", chat_id,
                        pending.receipt.game_id, pending.receipt.version,
                        "is confirmed now" if kept else "was lost")
        if left:
            self._pending[chat_id] = left
        else:
            self._pending.pop(chat_id, None)
        return notices
