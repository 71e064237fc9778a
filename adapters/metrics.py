"""The bot's counters, for Prometheus and for a person reading a log.

Why our own small registry and not prometheus-client's metrics directly:
the counters are bumped on every update and store call, in every process
and front-end, while only a bot that serves HTTP is ever scraped; and
importing prometheus-client costs ~80 ms of a cold start that no first
update needs. So counting is a dict increment here, and prometheus-client
is imported when the counters are shown (`exposition`: the webhook's
`GET /metrics`, or `text()` for a polling bot on SIGUSR1), rendering these
same values in its text format.

Every metric has a `frontend` label (telegram, discord, ...). What is counted:

* `unobot_updates_total{frontend, outcome}`: updates taken (handled,
  repeated, held_elsewhere (another process still handles it: 503),
  unparsable, too_large, malformed);
* `unobot_moves_total{frontend, outcome}`: commands the chat service
  handled (ok, refused);
* `unobot_games_running{frontend}`: games bound to a chat, counted from the
  store when shown (see `set_games_counter`);
* `unobot_store_seconds{frontend, op}` / `unobot_store_errors_total{frontend, op}`:
  store calls' latency (sum and count) and failures (a store that did not
  answer or answered nonsense; not its ordinary answers that a game moved on,
  is gone or a chat has one: `ANSWERS`);
* `unobot_rate_limit_waits_total{frontend, endpoint, waiter}`: posts that
  waited for a message budget;
* `unobot_update_seconds{frontend}`: time from an update's arrival to its
  200 (webhook).
"""

from __future__ import annotations

import inspect
import time
from collections import Counter as _Counter
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

from unobot.store import ChatBusy, GameNotFound, VersionConflict

if TYPE_CHECKING:
    from unobot.store import Store

#: Exceptions by which a working store answers, not failures: another process
#: saved the game first (two webhook processes on one chat meet it every
#: busy minute), the game is gone, the chat already has a game ("A game is
#: already running here"). Why not counted: an operator alerts on
#: `unobot_store_errors_total`, and these say nothing about the store's health.
ANSWERS = (VersionConflict, GameNotFound, ChatBusy)

#: (metric name, help text) of each family, in the order shown.
FAMILIES = {
    "unobot_updates_total": "Updates taken, by outcome.",
    "unobot_moves_total": "Commands the chat service handled, by outcome.",
    "unobot_store_errors_total": "Store calls that failed, by operation.",
    "unobot_rate_limit_waits_total": "Posts that waited for a message budget, by endpoint and waiter.",
}
SUMMARIES = {
    "unobot_store_seconds": "Store call latency, by operation.",
    "unobot_update_seconds": "Time an update took from arrival to its answer.",
}


class Family:
    """A labelled counter: `labels(*values).inc()`, as prometheus-client spells it."""

    def __init__(self, name: str, labels: tuple[str, ...]) -> None:
        self.name = name
        self.label_names = labels
        self.values: _Counter[tuple[str, ...]] = _Counter()

    def labels(self, *values: str) -> _Child:
        return _Child(self, tuple(values))


class _Child:
    __slots__ = ("family", "key")

    def __init__(self, family: Family, key: tuple[str, ...]) -> None:
        self.family = family
        self.key = key

    def inc(self, amount: float = 1.0) -> None:
        self.family.values[self.key] += amount  # type: ignore[assignment]


class Summary:
    """Count and sum of observations per label set."""

    def __init__(self, name: str, labels: tuple[str, ...]) -> None:
        self.name = name
        self.label_names = labels
        self.count: _Counter[tuple[str, ...]] = _Counter()
        self.total: dict[tuple[str, ...], float] = {}

    def labels(self, *values: str) -> _Observer:
        return _Observer(self, tuple(values))


class _Observer:
    __slots__ = ("key", "summary")

    def __init__(self, summary: Summary, key: tuple[str, ...]) -> None:
        self.summary = summary
        self.key = key

    def observe(self, seconds: float) -> None:
        self.summary.count[self.key] += 1
        self.summary.total[self.key] = self.summary.total.get(self.key, 0.0) + seconds


UPDATES = Family("unobot_updates_total", ("frontend", "outcome"))
MOVES = Family("unobot_moves_total", ("frontend", "outcome"))
STORE_ERRORS = Family("unobot_store_errors_total", ("frontend", "op"))
STORE_SECONDS = Summary("unobot_store_seconds", ("frontend", "op"))
HANDLING = Summary("unobot_update_seconds", ("frontend",))

#: Read when shown: frontend -> () -> the rate limiter's waits {(endpoint, waiter): n}.
_waits: dict[str, Callable[[], dict[tuple[str, str], int]]] = {}
#: frontend -> async () -> games bound to a chat (None: not known).
_games: dict[str, Callable[[], Awaitable[int | None]]] = {}
_games_seen: dict[str, int] = {}


def set_wait_source(frontend: str, source: Callable[[], dict[tuple[str, str], int]]) -> None:
    _waits[frontend] = source


def set_games_counter(frontend: str, count: Callable[[], Awaitable[int | None]]) -> None:
    _games[frontend] = count


#: Bound chats counted for `unobot_games_running` at most (a scrape must stay cheap).
GAMES_COUNTED = 100_000


async def count_bound_games(store: Store, ours: Callable[[str], bool]) -> int:
    """Games bound to a chat of one front-end (`ours`: other front-ends may
    share the store), counted up to `GAMES_COUNTED`: for `set_games_counter`."""
    n = 0
    async for chat in store.bound_chats():
        n += ours(chat)
        if n >= GAMES_COUNTED:
            break
    return n


async def refresh() -> None:
    """Ask what is counted only when shown (games running): before `exposition`/`text`."""
    for frontend, count in list(_games.items()):
        try:
            value = await count()
        except Exception:  # noqa: BLE001 - a store that cannot count shows the last count
            continue
        if value is not None:
            _games_seen[frontend] = value


class Timed:
    """Wraps an awaitable store call: its latency, and its failure, counted."""

    __slots__ = ("frontend", "op", "started")

    def __init__(self, frontend: str, op: str) -> None:
        self.frontend = frontend
        self.op = op
        self.started = 0.0

    def __enter__(self) -> Timed:
        self.started = time.perf_counter()
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        STORE_SECONDS.labels(self.frontend, self.op).observe(time.perf_counter() - self.started)
        if exc is not None and not isinstance(exc, (GeneratorExit, *ANSWERS)):
            STORE_ERRORS.labels(self.frontend, self.op).inc()


def _counters() -> Iterator[tuple[str, str, tuple[str, ...], dict[tuple[str, ...], float]]]:
    for family in (UPDATES, MOVES, STORE_ERRORS):
        yield family.name, FAMILIES[family.name], family.label_names, dict(family.values)
    waits: dict[tuple[str, ...], float] = {}
    for frontend, source in _waits.items():
        for (endpoint, waiter), n in source().items():
            waits[frontend, endpoint, waiter] = float(n)
    yield ("unobot_rate_limit_waits_total", FAMILIES["unobot_rate_limit_waits_total"],
           ("frontend", "endpoint", "waiter"), waits)


def _collector() -> Any:
    from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, SummaryMetricFamily

    class Collector:
        def collect(self) -> Iterator[Any]:
            for name, doc, labels, values in _counters():
                family = CounterMetricFamily(name.removesuffix("_total"), doc, labels=list(labels))
                for key, value in sorted(values.items()):
                    family.add_metric(list(key), value)
                yield family
            for summary in (STORE_SECONDS, HANDLING):
                out = SummaryMetricFamily(summary.name, SUMMARIES[summary.name], labels=list(summary.label_names))
                for key, count in sorted(summary.count.items()):
                    out.add_metric(list(key), count_value=count, sum_value=summary.total.get(key, 0.0))
                yield out
            games = GaugeMetricFamily("unobot_games_running", "Games bound to a chat, from the store.",
                                      labels=["frontend"])
            for frontend, value in sorted(_games_seen.items()):
                games.add_metric([frontend], value)
            yield games

    return Collector()


def exposition() -> tuple[bytes, str]:
    """The counters in Prometheus' text format, and its content type."""
    from prometheus_client import CollectorRegistry, generate_latest
    from prometheus_client.exposition import CONTENT_TYPE_LATEST

    registry = CollectorRegistry(auto_describe=False)
    registry.register(_collector())
    return generate_latest(registry), CONTENT_TYPE_LATEST


def text() -> str:
    """The same counters as text, for a log (a polling bot has no server to scrape)."""
    return exposition()[0].decode()


def reset() -> None:
    """Forget every count (tests)."""
    for family in (UPDATES, MOVES, STORE_ERRORS):
        family.values.clear()
    for summary in (STORE_SECONDS, HANDLING):
        summary.count.clear()
        summary.total.clear()
    _waits.clear()
    _games.clear()
    _games_seen.clear()


class MeteredStore:
    """A store whose every call is timed and whose failures are counted
    (`unobot_store_seconds`, `unobot_store_errors_total`); a saved game is a
    move (`unobot_moves_total`). Everything else is the wrapped store's."""

    def __init__(self, store: Any, frontend: str) -> None:
        self._store = store
        self._frontend = frontend

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._store, name)
        if not inspect.iscoroutinefunction(value):
            return value
        frontend = self._frontend

        async def timed(*args: Any, **kwargs: Any) -> Any:
            try:
                with Timed(frontend, name):
                    result = await value(*args, **kwargs)
            except Exception as exc:
                if name == "save_game":
                    MOVES.labels(frontend, type(exc).__name__).inc()
                raise
            if name in ("save_game", "create_game"):
                MOVES.labels(frontend, "saved").inc()
            return result

        timed.__name__ = name
        self.__dict__[name] = timed  # made once per method
        return timed
