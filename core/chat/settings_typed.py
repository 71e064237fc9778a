"""A typed line that changes the house rules -> the settings commands it means.

Why in core: a front-end where people type (the console's `rules stacking
off`) must change the same settings, with the same checks and refusals,
as Telegram's /rules keyboard and Discord's /uno rules components do
through the settings menu (`settings_menu`): the line becomes the same
`SetRule` / `ResetRules` commands, which `settings.settings_command`
carries out (an unknown rule, a bad value, rules that clash are refused
there, translated, changing nothing).

The forms after the rules word are those of `unobot play --rule`, so what
works on the command line works at the table: `seven-o` (on), `seven-o=false`
(off), `stacking.optional=false` (an option; the value read as YAML), and
in words: `seven-o on`, `seven-o off` (`aus`, `desactivado`: the reader's
words for on and off), `stacking optional false`, and `reset` (back to the
variant's own rules). A rule may be named by its title as the list shows
it (`cortar no`, `ziehkarten stapeln aus`), not only by its id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import commands as c
from .grammar import Refusal
from .i18n import N_, NC_, gettext_for
from .render import error_text
from .typed import OFF, first_form, fold, forms, in_order
from .typos import closest, vocabulary

#: A rule switched on (`rules seven-o on`).
ON = NC_("typed", "on")
#: Back to the variant's own rules (`rules reset`).
RESET = NC_("typed", "reset")
#: What the line must look like, with examples in the reader's words.
USAGE = N_("To change a house rule, type {on}, {off}, {option} or {reset} (it applies from the next game).")


def _is(word: str, message: str) -> bool:
    w = " ".join(fold(word).split())
    return any(w in forms(language, message) for language in in_order(None))


def _switch(word: str) -> bool | None:
    """On (True), off (False) or neither (None): the reader's words, YAML's."""
    if _is(word, ON) or fold(word) in ("true", "yes"):
        return True
    if _is(word, OFF) or fold(word) in ("false", "no"):
        return False
    return None


def _value(raw: str) -> Any:
    """An option's value as `--rule` reads it: YAML (true, 15, other_side),
    else the text itself, for the option's check to refuse; a switch word
    of the reader's (`an`, `nein`, `sí`) is true or false."""
    import yaml

    switch = _switch(raw)
    if switch is not None:
        return switch

    try:
        return yaml.safe_load(raw)
    except yaml.YAMLError:
        return raw


def usage(lang: str, rules_word: str = "rules") -> str:
    """`USAGE` in `lang`, its examples spelt as the reader types them."""
    _ = gettext_for(lang)
    on, off, reset = first_form(lang, ON), first_form(lang, OFF), first_form(lang, RESET)
    return _(USAGE).format(on=f"{rules_word} seven-o {on}", off=f"{rules_word} seven-o {off}",
                           option=f"{rules_word} stacking.optional=false", reset=f"{rules_word} {reset}")


def _slip(rule: str, lang: str) -> Refusal | None:
    """A rule's name typed with a slip (`jump-on`): refused with the name it
    most likely was, as a typed command's slip is ("Did you mean ...?"),
    never switched for the person; None when the name is known, or nothing
    is near it (the settings then refuse it as any front-end's press)."""
    from ..registry import available_rules

    known = available_rules()
    if rule in known:
        return None
    meant = closest(rule, vocabulary((name, name) for name in known))
    if meant is None:
        return None
    _ = gettext_for(lang)
    return Refusal(" ".join((error_text("unknown_rule", lang), _("Did you mean {meant!r}?").format(meant=meant))),
                   "unknown_rule")


def setting_commands(words: Sequence[str], lang: str, rules_word: str = "rules") -> list[c.Command] | Refusal:
    """The settings commands the words after the rules word mean, in order
    (a rule on before its option is set), or a Refusal saying the forms, in
    `lang`. `rules_word`: how the front-end spells its rules command, for
    the examples."""
    words = [w for w in words if w]
    refused = Refusal(usage(lang, rules_word), "bad_setting")
    if len(words) == 1 and _is(words[0], RESET):
        return [c.ResetRules()]
    titled = _by_title(words, lang) if words and not any(ch in words[0] for ch in "=.") else None
    if titled is not None:  # `rules cortar off`, `rules acumular cartas de robo`
        return _switched(titled[0], titled[1], refused)
    if not words or len(words) > 3:
        return refused
    head, _sep, raw = words[0].partition("=")
    rule, _dot, option = head.partition(".")
    rule = rule.strip().lower()
    if not rule:
        return refused
    slip = _slip(rule, lang)
    if slip is not None:
        return slip
    rest = words[1:]
    if option:  # stacking.optional=false, stacking.optional false
        if raw and not rest:
            return [c.SetRule(rule=rule, option=option, value=_value(raw))]
        if not raw and len(rest) == 1:
            return [c.SetRule(rule=rule, option=option, value=_value(rest[0]))]
        return refused
    if raw:  # seven-o=false
        on = _switch(raw)
        return [c.SetRule(rule=rule, enabled=on)] if on is not None and not rest else refused
    return _switched(rule, rest, refused)


def _switched(rule: str, rest: Sequence[str], refused: Refusal) -> list[c.Command] | Refusal:
    """The rule named, then nothing (on), a switch word, or an option and its value."""
    if not rest:  # seven-o: on, as `--rule seven-o`
        return [c.SetRule(rule=rule, enabled=True)]
    if len(rest) == 1:  # seven-o off
        on = _switch(rest[0])
        return [c.SetRule(rule=rule, enabled=on)] if on is not None else refused
    if len(rest) == 2:
        return [c.SetRule(rule=rule, option=rest[0], value=_value(rest[1]))]  # stacking optional false
    return refused


def _by_title(words: Sequence[str], lang: str) -> tuple[str, list[str]] | None:
    """A rule named by its title, in the reader's language, English or another
    (as a typed word is read, `typed.in_order`): the longest run of the first
    words that is one (`acumular cartas de robo`), or its title's head before
    a parenthesis (`cortar` for "Cortar (jugar fuera de turno)"), and the
    words after it; None when no title starts the line (a rule's id then).
    Why: the console lists the rules by title beside their ids, and a person
    types what they read."""
    from ..registry import available_rules

    known = available_rules()
    titles: dict[str, str] = {}
    for name, cls in known.items():
        for language in in_order(lang):  # as a typed word is read: the reader's first
            full = cls.label(language)
            for title in (full, full.split(" (")[0]):
                titles.setdefault(" ".join(fold(title).split()), name)
    for end in range(len(words), 0, -1):
        found = titles.get(" ".join(fold(" ".join(words[:end])).split()))
        if found is not None:
            return found, list(words[end:])
    return None
