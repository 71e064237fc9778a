"""What `unobot rules` and `unobot variants NAME` print, in the reader's language.

Why in its own module: both printed English descriptions and raw option
keys whatever the reader's language, although core already translates rule
titles, option titles and help, option kinds and variant titles (the
lobby, `/rules` and the console's `rules` use them). A rule author still
needs the keys a variant file and `--rule` write (`hand_size`, `true`), so
each line gives the key as typed beside its words in the reader's language.

A rule's explanation is its docstring, written for authors in English and
in no catalogue: it is printed to an English reader; any other is told
where to read it (`--lang en`) rather than given a page of English among
their own language.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

from ..rule import OptionSpec, Rule, option_specs
from .i18n import N_, gettext_for

WIDTH = 96
SHARED_RULE = N_("{rule}: {title} (shared rule)")
HOUSE_RULE = N_("{rule}: {title} (house rule)")


def _typed(value: Any) -> str:
    """A value as a variant file or `--rule` writes it: `true`, `7`, `other_side`."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _fill(text: str, first: str, rest: str) -> str:
    return textwrap.fill(text, width=WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


def rule_heading(cls: type[Rule], lang: str) -> str:
    """`stacking: Ziehkarten stapeln (Hausregel)`: the key, then the title in `lang`."""
    _ = gettext_for(lang)
    return _(SHARED_RULE if cls.base else HOUSE_RULE).format(rule=cls.name, title=cls.label(lang))


def option_words(cls: type[Rule], spec: OptionSpec, lang: str) -> str:
    """What an option is, in `lang`: its title and help (`+2 auf +2: eine Zieh
    Zwei auf eine Zieh Zwei`, the language's colon), or whichever it has."""
    _ = gettext_for(lang)
    title = cls.option_title(spec.name, lang) if spec.title else ""
    help_ = cls.option_help(spec.name, lang)
    if title and help_:
        return _("{option}: {value}").format(option=title, value=help_)
    return title or help_


def rules_lines(rules: dict[str, type[Rule]], lang: str) -> list[str]:
    """`unobot rules`: every installed rule, its options with what each takes
    and its default as typed, and what each is in `lang`."""
    _ = gettext_for(lang)
    out = [_fill(_("A rule's or an option's name before a colon, and an option's values, are written here as "
                   "a variant file and --rule take them."), "", "")]
    for cls in (rules[name] for name in sorted(rules)):
        out.append(rule_heading(cls, lang))
        if cls.replaces:
            out.append(_fill(_("Takes the place of: {rules}").format(rules=", ".join(cls.replaces)),
                             "    ", "    "))
        first = " ".join(cls.doc().split("\n\n")[0].split()) if lang == "en" else ""
        if first:  # the first paragraph of the rule's explanation, whole (never cut mid-sentence)
            out.append(_fill(first, "    ", "    "))
        for spec in option_specs(cls):
            out.append(_fill(_("{option}: {kind} (default {default})").format(
                option=spec.name, kind=spec.describe(lang), default=_typed(spec.default)), "    - ", "      "))
            words = option_words(cls, spec, lang)
            if words:
                out.append(_fill(words, "      ", "      "))
    if lang != "en":
        out.append(_("Each rule is explained in English: unobot rules --lang en"))
    return out


def variant_lines(name: str, title: str, parent: str | None, parent_title: str | None,
                  resolved: dict[str, dict[str, Any]], replaced: dict[str, str],
                  rules: dict[str, type[Rule]], lang: str) -> list[str]:
    """`unobot variants NAME`: the variant's rules in force (shared first), each
    option's value as typed with what the option is in `lang`, the rules it
    replaces and the shared rules it turns off."""
    _ = gettext_for(lang)
    out = [_("{option}: {value}").format(option=name, value=title)]
    if parent:
        out.append(_("Extends: {variant} ({title})").format(variant=parent, title=parent_title or parent))
    for gone, by in sorted(replaced.items()):
        out.append("  " + _("{gone} is replaced by {by}").format(gone=gone, by=by))
    for rule in sorted(resolved, key=lambda n: (not rules[n].base, n)):
        cls = rules[rule]
        out.append("  " + rule_heading(cls, lang))
        options = cls.Options(**resolved[rule])
        for spec in option_specs(cls):
            if not hasattr(options, spec.name):
                continue
            # the short title (a settings button's) beside the key; the help where there is none
            words = (cls.option_title(spec.name, lang) if spec.title else "") or cls.option_help(spec.name, lang)
            line = _("{key} ({words}): {value}") if words else _("{option}: {value}")
            out.append(_fill(line.format(key=spec.name, option=spec.name, words=words,
                                         value=_typed(getattr(options, spec.name))), "      ", "        "))
    off = sorted(n for n in rules if rules[n].base and n not in resolved)
    if off:
        out.append(_fill(_("Turned off: {rules}").format(rules=", ".join(off)), "  ", "    "))
    return out
