"""The store's own envelope around the engine's opaque state bytes.

Why an envelope: the engine owns the state format (``state.encode()``) and
may change it; the store owns how a game sits in a database. Keeping the
game's version next to the state in one value lets a load be one GET and
lets the save script compare versions without decoding anything. The
format byte means a newer unobot can change the layout and an older one
refuses it clearly instead of misreading it; the CRC catches truncated or
bit-rotted values before the engine ever sees them.

Layout, format 1 (18-byte header, then the payload)::

    offset  size  field
    0       1     magic b"U"
    1       1     format = 1
    2       8     game version, unsigned big-endian (1 after create)
    10      4     write nonce: random per save attempt
    14      4     CRC-32 of the payload, unsigned big-endian
    18      n     payload: the engine's state bytes, untouched

The write nonce makes every save attempt's value unique, so the save script
can tell "my own write already landed" (a request the driver re-sent after
a lost reply: same bytes, nonce included) from "someone else's save that
happens to produce the same state" (a real conflict).

The first 10 bytes (magic, format, version) are the *version header*: the
Redis save script compares them byte for byte with the header the caller
expects, so the script never needs to parse numbers.
"""

from __future__ import annotations

import os
import struct
import zlib

MAGIC = b"U"
FORMAT = 1
_HEADER = struct.Struct(">cBQ4sI")
HEADER_SIZE = _HEADER.size  # 18
VERSION_HEADER_SIZE = 10
_VERSION_HEADER = struct.Struct(">cBQ")
MAX_VERSION = 2**64 - 1


class EnvelopeError(ValueError):
    """A value that is not a readable envelope.

    ``future`` is True when the value looks like an envelope from a newer
    store format: it is valid data that this build must leave alone (not
    quarantine), since a newer process may be using it.
    """

    def __init__(self, reason: str, *, future: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.future = future


def encode(version: int, state: bytes, nonce: bytes | None = None) -> bytes:
    """Wrap ``state`` (the engine's bytes) for storage at ``version``.

    ``nonce`` (4 bytes) is random unless given (tests give it).
    """
    if not 0 < version <= MAX_VERSION:
        raise ValueError(f"version out of range: {version}")
    nonce = os.urandom(4) if nonce is None else nonce
    if len(nonce) != 4:
        raise ValueError("the write nonce is 4 bytes")
    return _HEADER.pack(MAGIC, FORMAT, version, nonce, zlib.crc32(state)) + bytes(state)


def version_header(version: int) -> bytes:
    """The first 10 bytes an envelope at ``version`` starts with (for compare-and-set)."""
    return _VERSION_HEADER.pack(MAGIC, FORMAT, version)


def decode(raw: bytes) -> tuple[int, bytes]:
    """Return ``(version, state)`` or raise :class:`EnvelopeError` saying why not."""
    check_header(raw)
    _, _, version, _, crc = _HEADER.unpack_from(raw)
    state = raw[HEADER_SIZE:]
    if zlib.crc32(state) != crc:
        raise EnvelopeError("checksum mismatch: the stored state is damaged")
    if version == 0:
        raise EnvelopeError("version 0 is never written")
    return version, state


def header_version(header: bytes) -> int:
    """The game version in a version header (or a whole envelope); checks the header first."""
    check_header(header, minimum=VERSION_HEADER_SIZE)
    return int(_VERSION_HEADER.unpack_from(header)[2])


def check_header(raw: bytes, *, minimum: int = HEADER_SIZE) -> None:
    """Raise :class:`EnvelopeError` unless ``raw`` starts like a format-1 envelope."""
    if len(raw) < 2 or raw[:1] != MAGIC:
        raise EnvelopeError("not an unobot game envelope (bad magic byte)")
    if raw[1] > FORMAT:
        raise EnvelopeError(
            f"envelope format {raw[1]} is newer than this unobot understands "
            f"(format {FORMAT}); upgrade unobot to read it",
            future=True,
        )
    if raw[1] != FORMAT:
        raise EnvelopeError(f"unknown envelope format {raw[1]}")
    if len(raw) < minimum:
        raise EnvelopeError(f"truncated envelope ({len(raw)} bytes)")
