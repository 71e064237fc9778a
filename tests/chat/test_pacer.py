"""Core's pacer: one update in flight per place, the newest state next, an
older version never after a newer one, and places do not wait for each other."""

from __future__ import annotations

import asyncio

from unobot.chat.pacer import Pacer


async def test_the_newest_state_wins_and_an_older_version_is_dropped() -> None:
    sent: list[tuple[str, str]] = []
    gate = asyncio.Event()

    async def send(place: str, state: str) -> None:
        sent.append((place, state))
        if place == "a" and state == "v1":
            await gate.wait()  # the first edit is slow: later states pile up behind it

    pacer: Pacer[str] = Pacer(send, interval=0.01)
    pacer.show("a", 1, "v1")
    await asyncio.sleep(0.01)
    for v in (2, 3, 4):
        pacer.show("a", v, f"v{v}")
    pacer.show("a", 3, "old")  # older than one handed already
    pacer.show("b", 1, "b1")  # another place is not held up by a's slow edit
    await asyncio.sleep(0.02)
    assert ("b", "b1") in sent and pacer.pending
    gate.set()
    for _ in range(100):
        if not pacer.pending:
            break
        await asyncio.sleep(0.01)
    assert [s for p, s in sent if p == "a"] == ["v1", "v4"]
    pacer.reset("a")  # a new game: its versions start again
    pacer.show("a", 1, "new")
    await asyncio.sleep(0.03)
    assert sent[-1] == ("a", "new")
    pacer.close()


async def test_a_pacer_remembers_a_bounded_number_of_places() -> None:
    """A bot meets new places all day: the versions it keeps stay at their cap."""
    sent: list[tuple[str, int]] = []

    async def send(place: str, state: int) -> None:
        sent.append((place, state))

    pacer: Pacer[int] = Pacer(send, 0.0, places=8)
    for n in range(50):
        pacer.show(f"chat{n}", 1, n)
    assert len(pacer._shown) == 8
    pacer.show("chat49", 0, -1)  # older than the version a place still remembered: dropped
    while pacer.pending:
        await asyncio.sleep(0)
    assert ("chat49", -1) not in sent and len(sent) == 50
    pacer.close()
