"""A rule option's values as a chat's settings menu offers them.

Why in core: Telegram's buttons and Discord's components each worked out
which rules have options, what a chat's options resolve to, the steps a
number moves by and how a value travels in a button's data, and the two
copies had started to differ. Every front-end now asks here; how a value is
drawn (a switch, a row of buttons, a modal) stays the front-end's.
"""

from __future__ import annotations

import math
from typing import Any

from ..rule import OptionSpec, Rule, option_specs
from .commands import parse_int


def option_rules(enabled: set[str]) -> list[type[Rule]]:
    """The enabled rules that have options, in name order."""
    from ..registry import available_rules

    rules = available_rules()
    return [rules[name] for name in sorted(enabled) if name in rules and option_specs(rules[name])]


def option_spec(rule: str, option: str) -> tuple[type[Rule], OptionSpec] | None:
    """A rule's class and one of its options' specs, if both exist."""
    from ..registry import available_rules

    cls = available_rules().get(rule)
    spec = next((s for s in option_specs(cls) if s.name == option), None) if cls is not None else None
    return (cls, spec) if cls is not None and spec is not None else None


def resolved_options(settings: dict[str, object]) -> dict[str, dict[str, Any]]:
    """Each rule's options as the chat's settings make them (variant and overrides)."""
    from ..variants import VariantError, resolve

    try:
        resolved = resolve(str(settings["variant"]), settings.get("rules") or None)  # type: ignore[arg-type]
    except VariantError:
        return {}
    return {name: dict(value or {}) for name, value in resolved.rules.items() if isinstance(value, dict)}


def encode_value(spec: OptionSpec, value: Any) -> str:
    """A value as a button carries it: `1`/`0`, a choice's index, a whole number; "" when it cannot."""
    choices = spec.choices
    if spec.type is bool:
        return "1" if value else "0"
    if choices is not None:
        return str(choices.index(value)) if value in choices else ""
    return str(int(value)) if isinstance(value, (int, float)) and not isinstance(value, bool) else ""


def decode_value(spec: OptionSpec, text: str) -> tuple[bool, Any]:
    """(True, value) for a value the option takes; (False, None) otherwise (nothing in it is trusted)."""
    choices = spec.choices
    if spec.type is bool:
        return (True, text == "1") if text in ("0", "1") else (False, None)
    if choices is not None:
        index = parse_int(text)
        return (True, choices[index]) if index is not None and 0 <= index < len(choices) else (False, None)
    if spec.type in (int, float):
        lo = int(spec.min) if spec.min is not None else -(10 ** 9)
        hi = int(spec.max) if spec.max is not None else 10 ** 9
        number = parse_int(text)
        return (True, spec.type(number)) if number is not None and lo <= number <= hi else (False, None)
    return False, None


def number_steps(spec: OptionSpec) -> list[int]:
    """The steps a number option moves by: 1 for a short span, else 1 (or a tenth) and a bigger step."""
    span = (spec.max - spec.min) if spec.max is not None and spec.min is not None else 100.0
    if span <= 30:
        return [1]
    big = 10 ** max(1, int(math.log10(span)) - 2)
    return [max(1, big // 10), big] if big >= 100 else [1, big]
