"""The store's envelope around the engine's bytes."""

from __future__ import annotations

import pytest

from unobot import store_envelope as envelope


def test_round_trip_and_layout() -> None:
    raw = envelope.encode(7, b"engine", nonce=b"abcd")
    assert raw[:2] == b"U\x01"
    assert raw[2:10] == (7).to_bytes(8, "big")
    assert raw[10:14] == b"abcd"
    assert raw[envelope.HEADER_SIZE:] == b"engine"
    assert envelope.decode(raw) == (7, b"engine")
    assert envelope.header_version(raw) == 7
    assert raw.startswith(envelope.version_header(7))


def test_each_write_is_unique() -> None:
    assert envelope.encode(1, b"same") != envelope.encode(1, b"same")


@pytest.mark.parametrize(
    ("raw", "future"),
    [
        (b"", False),
        (b"{}", False),
        (b"U", False),
        (b"U\x00" + bytes(16), False),
        (b"U\x01" + bytes(5), False),
        (b"U\x01" + bytes(16) + b"x", False),  # checksum of b"x" is not 0
        (b"U\x01" + bytes(16), False),  # version 0 is never written
        (b"U\x02" + bytes(30), True),
        (b"U\xff", True),
    ],
)
def test_unreadable_values_are_refused(raw: bytes, future: bool) -> None:
    with pytest.raises(envelope.EnvelopeError) as caught:
        envelope.decode(raw)
    assert caught.value.future is future


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        envelope.encode(0, b"")
    with pytest.raises(ValueError):
        envelope.encode(1, b"", nonce=b"x")
