"""Which rules exist: every class in the `unobot.rules` entry-point group.

The project's own rules are published through the same group (see
pyproject.toml) as third-party ones, so core never imports `plugins/` and a
rule shipped by anyone is found the same way (the pytest habit: built-ins
and third parties through one door). `register_rule` adds one at run time,
for tests and embedding.
"""

from __future__ import annotations

import logging
import unicodedata
from importlib.metadata import entry_points

from . import moves as _moves
from .hook_check import hook_problems
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
        problems = hook_problems(obj)
        if problems:  # refused now, said once, rather than a traceback when a game starts
            _broken[ep.name] = "; ".join(problems)
            log.warning("rule plugin %s (%s) has a wrong hook: %s", ep.name, ep.value, "; ".join(problems))
            continue
        found[ep.name] = obj
    return found


_loading = False


def available_rules() -> dict[str, type[Rule]]:
    """Every known rule by name (entry points, then rules registered at run time)."""
    global _rules, _loading
    if _rules is None:
        if _loading:
            return {}
        _loading = True
        try:
            found = _load()
            for cls in found.values():
                _declare(cls)
            _rules = found
        finally:
            _loading = False
    if _extra:
        return {**_rules, **_extra}
    return _rules


def _declare(cls: type[Rule]) -> None:
    """Make what a rule adds known everywhere: its card kinds, move kinds,
    event texts and refusal codes (so saved games with its cards load and
    adapters can show its texts)."""
    from dataclasses import replace

    from .cards import register_kind

    for kind in cls.cards:
        try:
            register_kind(replace(kind, rule=cls.name))
        except ValueError as exc:
            _broken[cls.name] = str(exc)
            log.warning("rule plugin %s: %s", cls.name, exc)
    taken: set[str] = set()
    for kind in cls.move_kinds:
        held = MOVE_KINDS.get(kind)
        if held is not None and held.name != cls.name:
            # Said, as a card rank declared twice is: the kind's title, parsing and symbol
            # were the first rule's, and the second rule's moves were silently read as its.
            taken.add(kind)
            _broken[cls.name] = f"move kind {kind!r} is declared twice ({held.name}, {cls.name})"
            log.warning("rule plugin %s: %s", cls.name, _broken[cls.name])
            continue
        MOVE_KINDS[kind] = cls  # the same rule registered again (grown step by step): the newer
    for kind, symbol in cls.move_symbols.items():
        if kind in taken:
            continue
        if not valid_move_symbol(symbol):
            log.warning("rule plugin %s: move symbol %r of %s is not a short mark without "
                        "spaces; its label keeps the default", cls.name, symbol, kind)
        elif kind in cls.move_kinds:
            MOVE_SYMBOLS[kind] = symbol
        else:  # a built-in kind the rule carries out (UNO): the first rule that gives one
            MOVE_SYMBOLS.setdefault(kind, symbol)
    for kind in cls.event_texts:
        EVENT_TEXTS.setdefault(kind, cls)
    for code in cls.refusals:
        REFUSALS.setdefault(code, cls)


#: Who declared what: move kind / event kind / refusal code -> rule class.
MOVE_KINDS: dict[str, type[Rule]] = _moves.MOVE_KINDS  # one table: moves.py parses with it
EVENT_TEXTS: dict[str, type[Rule]] = {}
#: Move kind -> the mark its label starts with (`Rule.move_symbols`).
MOVE_SYMBOLS: dict[str, str] = {}
#: The longest move symbol (in characters: an emoji with its variation selector,
#: a flag, a keycap); a label is a button's text, not a place for words.
MOVE_SYMBOL_MAX = 8


def valid_move_symbol(symbol: object) -> bool:
    """A move symbol is a short mark with no spaces nor control characters (it starts a
    button's text); a joiner is allowed, for emoji built of several (🧑‍🚀)."""
    return (isinstance(symbol, str) and 0 < len(symbol) <= MOVE_SYMBOL_MAX
            and not any(ch.isspace() or unicodedata.category(ch) == "Cc" for ch in symbol))


def move_symbol(kind: str, default: str = "✨") -> str:
    """The mark a move kind's label starts with: the one a rule declared, else `default`."""
    available_rules()
    return MOVE_SYMBOLS.get(kind, default)
REFUSALS: dict[str, type[Rule]] = {}


def declared(table: dict[str, type[Rule]], key: str) -> type[Rule] | None:
    """The rule that declared `key` in one of the tables above (loading the
    installed rules first)."""
    available_rules()
    return table.get(key)


def broken_rules() -> dict[str, str]:
    """Entry points that failed to load, with why (shown by `unobot variants`)."""
    available_rules()
    return dict(_broken)


def rule_package(name: str) -> str | None:
    """The distribution (pip's name) whose entry point declares rule `name`,
    when one is installed (a broken plugin's too), for a chat told the rule
    is missing: the package is what an operator reinstalls or fixes. None
    for a rule no installed package declares (uninstalled, or registered at
    run time)."""
    for ep in entry_points(group=GROUP, name=name):
        dist = getattr(ep, "dist", None)
        if dist is not None and getattr(dist, "name", None):
            return str(dist.name)
    return None


def register_rule(rule: type[Rule]) -> None:
    """Make a rule class available by its name without an entry point.

    A wrong hook (no such hook, an argument the hook does not pass) is a
    ValueError here, naming the file, the line and the fix, so a plugin's
    first test says it rather than the first game that uses the rule."""
    problems = hook_problems(rule)
    if problems:
        raise ValueError(f"rule {rule.name!r}: " + "; ".join(problems))
    _extra[rule.name] = rule
    _declare(rule)


def unregister_rule(name: str) -> None:
    """Forget a rule `register_rule` made known, and what it declared."""
    from .cards import unregister_kind

    cls = _extra.pop(name, None)
    if cls is None:
        return
    _broken.pop(name, None)
    unregister_kind(name)
    for table in (MOVE_KINDS, EVENT_TEXTS, REFUSALS):
        for key in [k for k, v in table.items() if v is cls]:
            del table[key]
    for kind, symbol in cls.move_symbols.items():
        if MOVE_SYMBOLS.get(kind) == symbol:
            del MOVE_SYMBOLS[kind]


def _install_discovery() -> None:
    from . import cards

    cards.set_discovery(available_rules)


_install_discovery()
