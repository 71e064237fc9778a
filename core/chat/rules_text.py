"""The rules in force as a player reads them: one line per rule, in words.

Why in core: the console printed rule ids and raw options
(`(card-effects) two_player_reverse_skips=True`, `decks=0`) in English to a
Spanish player, while Telegram wrote its own summary. Every front-end now
shows these lines: the rule's title, then each option as its (translated)
help and a value in words (`yes`, `no`, `7`, `as many as needed`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..rule import OptionSpec, Rule, option_specs
from ..ruleset import RuleSet
from .i18n import N_, gettext_for

YES, NO = N_("yes"), N_("no")


@dataclass
class RuleLine:
    """One rule in force: its id, its title, whether it is a house rule, and its options in words."""

    name: str
    title: str
    house: bool
    #: One line per option, each already in words with the language's colon
    #: (`option_line`). No one-line form is offered: it would join the title
    #: and options with punctuation of one language (a `: ` and `; `), and
    #: every front-end shows them as separate lines anyway.
    options: list[str] = field(default_factory=list)


def option_words(rule: type[Rule], spec: OptionSpec, lang: str | None) -> str:
    """What an option is, in `lang`, in a list of the rules in force: its help
    when it has one (it explains: "seconds a turn (0: no timer)", where the
    title a settings button needs is short: "Seconds per turn"), else its
    title, else its name in words (both through the rule's own catalogue:
    `Rule.option_help` / `option_title`)."""
    return rule.option_help(spec.name, lang) or (rule.option_title(spec.name, lang) if spec.title else "") \
        or spec.name.replace("_", " ")


def value_words(value: Any, lang: str | None, rule: type[Rule] | None = None, option: str = "") -> str:
    """An option's value as a player reads it: the word its rule names it by
    (`option(words=...)`, a `Literal`'s values), else yes/no, the number, or
    the text through unobot's catalogue."""
    if rule is not None and option:
        named = rule.option_value(option, value, lang)
        if named is not None:
            return named
    _ = gettext_for(lang)
    if isinstance(value, bool):
        return _(YES) if value else _(NO)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return _(value)
    return str(value)


def option_line(rule: type[Rule], spec: OptionSpec, value: Any, lang: str | None) -> str:
    """`cards dealt to each player: 7`, the colon as the language writes it
    (French puts a space before it, Chinese uses its own): it was a
    hard-coded `: ` in every language."""
    _ = gettext_for(lang)
    return _("{option}: {value}").format(option=option_words(rule, spec, lang),
                                         value=value_words(value, lang, rule, spec.name))


def switchable_rules() -> list[type[Rule]]:
    """The rules a chat admin may switch on or off, house rules first: every
    house rule, and the shared rules a house rule conflicts with (turning
    `challenge` off makes room for `no-bluffing`). Every front-end's rules
    menu offers exactly these (Telegram's and Discord's had drifted apart)."""
    from ..registry import available_rules

    rules = available_rules()
    conflicting = {other for cls in rules.values() for other in cls.conflicts}
    shown = [cls for name, cls in rules.items() if not cls.base or name in conflicting]
    return sorted(shown, key=lambda cls: (cls.base, cls.name))


def rule_lines(rules: RuleSet, lang: str | None, *, house_only: bool = False) -> list[RuleLine]:
    """Every rule in force (house rules first), with its options in words."""
    out = []
    for name, rule in sorted(rules.rules.items(), key=lambda item: (type(item[1]).base, item[0])):
        cls = type(rule)
        if house_only and cls.base:
            continue
        options = rules.options.get(name)
        lines = [option_line(cls, spec, getattr(options, spec.name), lang)
                 for spec in option_specs(cls) if hasattr(options, spec.name)]
        values = {spec.name: getattr(options, spec.name) for spec in option_specs(cls) if hasattr(options, spec.name)}
        out.append(RuleLine(name, cls.label_with(values, lang or "en"), not cls.base, lines))
    return out
