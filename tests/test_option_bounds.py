"""A rule's option whose default is outside its own bounds is refused when made.

Before, `option(20, min=3, max=15)` passed, and every variant that left the
option unset dealt 20 cards, a value no admin could set.
"""

from __future__ import annotations

import pytest

from unobot import option


def test_an_option_default_outside_its_bounds_is_refused_when_the_class_is_made() -> None:
    """It used to pass: a deal of 20 cards from `option(20, min=3, max=15)`."""
    with pytest.raises(ValueError, match=r"default 20 is outside its own bounds \(min=3, max=15\)"):
        option(20, min=3, max=15, help="cards dealt")
    with pytest.raises(ValueError, match="outside"):
        option(-1, min=0)
    option(3, min=3, max=15)  # the bounds themselves fit
    option(True, min=0, max=0)  # a bool is no number here
    option(None, min=1)  # nothing set: no bound to hold
