"""Which rules exist: every class in the `unobot.rules` entry-point group.

The project's own rules are published through the same group (see
pyproject.toml) as third-party ones, so core never imports `plugins/` and a
rule shipped by anyone is found the same way (the pytest habit: built-ins
and third parties through one door). `register_rule` adds one at run time,
for tests and embedding.
"""

from __future__ import annotations

import logging
from importlib.metadata import entry_points

from .rule import Rule

GROUP = "unobot.rules"
log = logging.getLogger(__name__)

_rules: dict[str, type[Rule]] | None = None
_extra: dict[str, type[Rule]] = {}
_broken: dict[str, str] = {}


def _load() -> dict[str, type[Rule]]:
    found: dict[str, type[Rule]] = {}
    for ep in entry_points(group=GROUP):
        try:
            obj = ep.load()
        except Exception as exc:  # a broken third-party plugin must not break the bot
            _broken[ep.name] = f"{ep.value}: {exc!r}"
            log.warning("rule plugin %s (%s) failed to load: %r", ep.name, ep.value, exc)
            continue
        if not (isinstance(obj, type) and issubclass(obj, Rule)):
            _broken[ep.name] = f"{ep.value} is not a unobot Rule class"
            continue
        if obj.name != ep.name:
            _broken[ep.name] = f"{ep.value} calls itself {obj.name!r}, not {ep.name!r}"
            continue
        found[ep.name] = obj
    return found


def available_rules() -> dict[str, type[Rule]]:
    """Every known rule by name (entry points, then rules registered at run time)."""
    global _rules
    if _rules is None:
        _rules = _load()
    if _extra:
        return {**_rules, **_extra}
    return _rules


def broken_rules() -> dict[str, str]:
    """Entry points that failed to load, with why (shown by `unobot variants`)."""
    available_rules()
    return dict(_broken)


def register_rule(rule: type[Rule]) -> None:
    """Make a rule class available by its name without an entry point."""
    _extra[rule.name] = rule


def unregister_rule(name: str) -> None:
    _extra.pop(name, None)
