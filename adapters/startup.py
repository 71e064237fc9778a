"""A bot's start-up: no garbage collection while it imports, none of it later.

Why: starting `unobot telegram` makes some 65,000 objects the collector
tracks (the modules, classes and functions of python-telegram-bot, redis-py
and unobot, and their dictionaries), which all live as long as the process. CPython collects after every few hundred new
objects, and each older-generation collection walks all of them again
while nothing of it is garbage: a few percent of the cold start, spent for
nothing. Later, every full collection of a running bot would walk them once
more, inside whatever update handler happened to allocate at that moment.

So a bot command calls :func:`pause_gc` first and :func:`settle_gc` once it
is ready to take updates: ``gc.freeze()`` moves everything alive then into a
permanent generation that collections skip, and collection resumes for what
the bot makes from then on (games, updates: the objects that do become
garbage). Code that builds an application by hand (tests) calls neither,
and :func:`settle_gc` without a pause is a no-op.
"""

from __future__ import annotations

import gc

_paused = False


def pause_gc() -> None:
    """Stop automatic collection until :func:`settle_gc` (nothing made at start-up is garbage)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def settle_gc() -> None:
    """Freeze what start-up made and collect again from here on (once; no-op unless paused)."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
