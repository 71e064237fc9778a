"""core's `Deliveries`: an update handled once across processes, and none dropped."""

from __future__ import annotations

import asyncio

import pytest

from unobot.delivery import Deliveries
from unobot.store import Store


async def test_a_handler_that_failed_lets_the_next_delivery_run_it(store: Store) -> None:
    runs: list[str] = []

    async def failing() -> None:
        runs.append("first")
        raise RuntimeError("the process gave up")

    async def working() -> None:
        runs.append("second")

    with pytest.raises(RuntimeError):
        await Deliveries(store).handle("telegram:1:5", failing)
    assert await Deliveries(store).handle("telegram:1:5", working) == "handled"
    assert await Deliveries(store).handle("telegram:1:5", working) == "repeated"
    assert runs == ["first", "second"]


async def test_two_processes_given_one_update_at_once_run_it_once(store: Store) -> None:
    """Two processes (each its own `Deliveries`) get the same update at once:
    one runs it, the other waits for it and answers it as a repeat."""
    runs: list[int] = []
    gate = asyncio.Event()

    async def slow() -> None:
        runs.append(1)
        await gate.wait()

    one, two = Deliveries(store, poll=0.02), Deliveries(store, poll=0.02)
    first = asyncio.ensure_future(one.handle("telegram:1:6", slow))
    second = asyncio.ensure_future(two.handle("telegram:1:6", slow))
    await asyncio.sleep(0.2)
    assert runs == [1] and not first.done() and not second.done()
    gate.set()
    assert sorted(await asyncio.gather(first, second)) == ["handled", "repeated"]


async def test_a_long_handler_keeps_its_claim(store: Store) -> None:
    """The lease is renewed while the handler runs: a repeat meanwhile waits
    instead of taking over an update that is still being handled."""
    runs: list[str] = []

    async def long() -> None:
        runs.append("long")
        await asyncio.sleep(1.0)

    async def quick() -> None:
        runs.append("quick")

    holder = asyncio.ensure_future(Deliveries(store, lease=0.3).handle("telegram:1:7", long))
    await asyncio.sleep(0.05)
    assert await Deliveries(store, wait=0.6, poll=0.05).handle("telegram:1:7", quick) == "later"
    assert await holder == "handled"
    assert runs == ["long"]


async def test_a_redelivered_command_is_told_once_and_only_in_its_own_task(store: Store) -> None:
    """A command whose platform delivers it again (a webhook answered 503) is told it
    will be handled when the store is back, once; a task started while handling it
    (a status edit, an AI move on the loop) copies the context but is no delivery:
    its outage is said as usual, never "no need to send it again"."""
    from unobot.chat.render import REDELIVERED_OUTAGE
    from unobot.chat.service import ChatService
    from unobot.delivery import redelivered

    service = ChatService(store)
    plain = service.fail("store_unavailable", "en").error
    with redelivered() as first:
        out = service.fail("store_unavailable", "en")
        child = await asyncio.get_running_loop().create_task(
            _fail_in_task(service))
    assert first.wanted and out.error == REDELIVERED_OUTAGE and not out.quiet
    assert child == plain
    with redelivered(told=True) as again:
        out = service.fail("store_refusing", "en")
    assert again.wanted and out.quiet and out.error == "" and out.refusal("de") == ""
    # Deliveries lets a claim go, not done, when the handler asks to come again.
    assert await Deliveries(store).handle("telegram:1:9", _again) == "again"
    assert await Deliveries(store).handle("telegram:1:9", _again) == "again"


async def _fail_in_task(service: object) -> str | None:
    return service.fail("store_unavailable", "en").error  # type: ignore[attr-defined,no-any-return]


async def _again() -> object:
    from unobot.delivery import AGAIN

    return AGAIN
