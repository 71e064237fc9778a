"""The one private python-telegram-bot API the adapter uses, pinned.

`adapters/telegram/bot.py` posts the two hot calls (the inline answer, the
status edit) through `ExtBot._post` (why: the README's Telegram section and
the module's docstring). A private method may change in any release, so
this test fails first when python-telegram-bot moves outside the versions
the code was checked against, or when `_post` changes its shape.
"""

from __future__ import annotations

import inspect

import telegram
from telegram.ext import ExtBot

from unobot.adapters.telegram.bot import UnoBot

#: Checked with 22.8; `_post(endpoint, data, *, timeouts..., api_kwargs)` has this shape in all of 22.x.
CHECKED = ((22, 0), (23, 0))


def test_ptb_is_a_version_the_private_call_was_checked_with() -> None:
    version = tuple(int(part) for part in telegram.__version__.split(".")[:2])
    low, high = CHECKED
    assert low <= version < high, (
        f"python-telegram-bot {telegram.__version__}: check UnoBot's use of ExtBot._post, then widen CHECKED")


def test_the_private_post_exists_with_the_shape_used() -> None:
    assert issubclass(UnoBot, ExtBot)
    post = inspect.getattr_static(ExtBot, "_post")
    assert inspect.iscoroutinefunction(post)
    params = inspect.signature(post).parameters
    assert list(params)[:3] == ["self", "endpoint", "data"]
    # ExtBot's own override is what routes the call through the rate limiter.
    assert "_do_post" in vars(ExtBot)


def test_the_persistence_marking_unobot_turns_off_has_the_shape_overridden() -> None:
    """`UnoApplication` overrides `Application._mark_for_persistence_update(*, update, job)`
    (without a persistence its sets only grew): the override must still be what PTB calls."""
    from telegram.ext import Application

    from unobot.adapters.telegram.app import UnoApplication

    mark = inspect.getattr_static(Application, "_mark_for_persistence_update")
    params = inspect.signature(mark).parameters
    assert list(params) == ["self", "update", "job"]
    assert all(params[name].kind is inspect.Parameter.KEYWORD_ONLY for name in ("update", "job"))
    assert "_mark_for_persistence_update" in vars(UnoApplication)
    assert "_chat_ids_to_be_updated_in_persistence" in Application.__slots__
