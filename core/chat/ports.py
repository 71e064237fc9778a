"""What the chat service's parts need of it: one Protocol, no import back.

Why: `lobby`, `settings` and `migration` were one class spread over several
files, each importing `service.ChatService` (for its type) while the service
imported them: a cycle that only `TYPE_CHECKING` hid. They now depend on this
narrow interface, which `ChatService` satisfies, and the dependencies point
one way: service -> lobby / settings / migration -> ports.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..store import Store
from .i18n import Msg
from .outcome import Defaults, Outcome
from .table import Table


class ServicePort(Protocol):
    """The chat service as its parts see it."""

    store: Store
    defaults: Defaults
    clock: Callable[[], float]
    rng: random.Random | None
    max_tries: int
    settings_from: Callable[[str], Sequence[str]]
    settings_followers: Callable[[str], str | None]

    def fail(self, code: str, lang: str, table: Table | None = None, *, detail: Msg | None = None) -> Outcome: ...

    def forget(self, chat_id: str) -> None: ...

    async def load(self, chat_id: str) -> tuple[str, Table] | None: ...

    async def table(self, chat_id: str) -> Table | None: ...

    async def settings(self, chat_id: str) -> dict[str, Any]: ...

    async def mutate(self, chat_id: str, fn: Callable[[Table], list[str] | None],
                     bump: bool = True) -> Table | None: ...
