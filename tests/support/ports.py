"""TCP ports for the servers a test starts, never the same one twice in a test session.

A port is found by binding port 0 and letting it go: the server (often a
process still starting) binds it later. Two ports asked for before either
is bound may come back as the same port, and the second server then fails
to bind; a port handed out once is never handed out again here, so the
servers of one test (two webhooks, a bot and its web table) always differ.
"""

from __future__ import annotations

import socket

_given: set[int] = set()


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now and this session never handed out."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port not in _given:
            _given.add(port)
            return port
