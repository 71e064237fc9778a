"""A chat's settings menu, as every front-end offers it: the model.

Why in core: Telegram's keyboards and Discord's components each worked out
which rules are listed and in what order, what goes on which page, what an
option's panel offers (a switch, its allowed values, number steps, a typed
number), how entries are labelled, and what a press means; the two copies
drifted (Discord cut at 25, Telegram showed no option help, each read a
forged press its own way). Here is the one answer: for a chat's settings, a
reader's language and a platform's page size, the pages of switchable
rules, of options and of variants, an option's panel, the timer and
language choices, each entry with a short press id; and `decode`, which
turns a press id (and a typed value) back into a neutral command or a view
to show. A front-end only draws entries (a select, a button, a keyboard
row) and prefixes their ids with its own tag.

Press ids are ASCII, at most `MAX_ID` bytes (Telegram's 64-byte
callback_data and Discord's 100-character custom_id both leave room for a
prefix), and name the wanted end state ("turn stacking on", not "toggle"),
so a press that arrives twice cannot flip a rule back:

    on:<rule>  off:<rule>        switch a rule (`#<key>` for a name too long)
    s:<key>:<i>:<value>          set option <i> of a rule (`option_values.encode_value`)
    t:<key>:<i>                  type a number for it (decoded with the typed text)
    var:<name>                   choose a variant (`#<key>` for a name too long)
    tm:<seconds>  lang:<code>  reset
    m:<key>                      show a rule's options     o:<key>:<i>[:<page>]  one option's panel
    pr:<page>  pv:<page>  back   a page of the rules, of the variants; the rules again

Nothing in an id is trusted: every part is checked against the registry and
the option's spec, and anything that does not check out is refused with a
translated message and changes nothing (the service then judges who asks).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..rule import OptionSpec, Rule, option_specs
from . import commands as c
from .i18n import LANGUAGE_NAMES, LANGUAGES, N_, gettext_for, joined, ngettext_for
from .markup import Line, bold, plain
from .option_values import (
    decode_value,
    encode_value,
    number_steps,
    option_rules,
    option_spec,
    resolved_options,
)
from .paging import NavButton, Window, nav, window
from .render import error_text
from .rules_text import switchable_rules, value_words
from .views import RulesSummary, rules_summary

#: A press id's longest form in bytes: a platform's prefix fits beside it.
MAX_ID = 48
#: The turn timer's choices offered as entries (`/timer N` sets any other).
TIMER_CHOICES = (0, 30, 60, 120)
#: What `decode` may return as the view to show.
RULES, VARIANTS, RULE, OPTION, TYPE = "rules", "variants", "rule", "option", "type"
ON_MARK, OFF_MARK, CHOSEN_MARK = "✅ ", "▫️ ", "🔘 "


@dataclass(frozen=True)
class Entry:
    """One thing to press: its press id, its label, whether it is on (a rule
    on, the current variant, an option's value), and a hint (a rule's
    options, a variant's description, an option's help)."""

    id: str
    label: str
    on: bool = False
    hint: str = ""
    #: The rule's or variant's name, for a front-end that shows it (`/variant NAME`).
    name: str = ""

    def marked(self, on: str = ON_MARK, off: str = OFF_MARK) -> str:
        """The label with its state in front: `✅ Stacking`, `▫️ Teams`."""
        return (on if self.on else off) + self.label


@dataclass(frozen=True)
class Page:
    """One page of a list: its entries, its number (from 0) of `count`, and
    the press ids of the pages before and after (None at either end)."""

    entries: tuple[Entry, ...]
    number: int = 0
    count: int = 1
    prev: str | None = None
    next: str | None = None
    #: The press id of page n of this list (`paged` sets it; `nav` reads it).
    page_id: Callable[[int], str] = field(default=str, compare=False, repr=False)

    def nav(self) -> list[NavButton]:
        """◀ n/N ▶ for this page, their ids press ids of the menu (core's `paging.nav`)."""
        return nav(Window(self.number, self.count), self.page_id)


@dataclass(frozen=True)
class RulesPage:
    """Page `number` of the rules view: the switches, one entry per option
    of the rules on (Discord's select), and one per rule on with options
    (Telegram's ⚙ buttons); all three page together."""

    switches: tuple[Entry, ...]
    options: tuple[Entry, ...]
    rules_with_options: tuple[Entry, ...]
    number: int = 0
    count: int = 1
    prev: str | None = None
    next: str | None = None

    def nav(self) -> list[NavButton]:
        """◀ n/N ▶ for this page of the rules (core's `paging.nav`)."""
        return nav(Window(self.number, self.count), rules_page)


@dataclass(frozen=True)
class OptionPanel:
    """One option of a rule and how to change it: its help and what it takes,
    its value now, its choices (on/off, or each allowed value, the current
    one on), the number steps (−10 −1 +1 +10 within bounds), whether a
    number may be typed (`typed`: that entry's press id), and its own id."""

    id: str
    rule: str
    option: str
    rule_label: str
    title: str
    help: str
    takes: str
    value: Any
    value_text: str
    choices: Page
    steps: tuple[Entry, ...] = ()
    typed: str | None = None
    is_switch: bool = False


@dataclass(frozen=True)
class Show:
    """A view to show: the rules (a page), the variants (a page), a rule's
    options, one option's panel, or the box to type an option's number in."""

    view: str
    rule: str = ""
    option: str = ""
    page: int = 0


@dataclass(frozen=True)
class Decoded:
    """What a press means: a command to send (None: only a view to show)
    and the view to show after it."""

    show: Show
    command: c.Command | None = None


@dataclass(frozen=True)
class Refused:
    """A press that does not check out: its refusal code and the message, translated."""

    code: str
    text: str


def rules_page(number: int) -> str:
    """The press id of page `number` of the rules view."""
    return f"pr:{number}"


# -- short keys: any name fits in an id -------------------------------------------------

def key_of(name: str) -> str:
    """A name's key in a press id: 8 hex digits of its hash."""
    return hashlib.sha1(name.encode()).hexdigest()[:8]


def rule_ref(name: str) -> str:
    """A rule in a switch's id: its name, or `#<key>` when the name is too long or not plain."""
    return name if _plain(name) and len(f"off:{name}") <= MAX_ID else "#" + key_of(name)


def rule_by_key(key: str) -> type[Rule] | None:
    from ..registry import available_rules

    return next((cls for name, cls in available_rules().items() if key_of(name) == key), None)


def rule_by_ref(ref: str) -> type[Rule] | None:
    """The rule a switch's id names (by name or by `#<key>`), if it exists."""
    from ..registry import available_rules

    return rule_by_key(ref[1:]) if ref.startswith("#") else available_rules().get(ref)


def variant_ref(name: str) -> str:
    return name if _plain(name) and len(f"var:{name}") <= MAX_ID else "#" + key_of(name)


def variant_by_ref(ref: str) -> str | None:
    from ..variants import variant_names

    names = variant_names()
    if ref.startswith("#"):
        return next((n for n in names if key_of(n) == ref[1:]), None)
    return ref if ref in names else None


def _plain(name: str) -> bool:
    """A name that may travel as it is: ASCII, none of the ids' separators, not read as a key."""
    return bool(name) and name.isascii() and not name.startswith("#") and not any(ch in name for ch in ":| ")


def _int(text: str) -> int | None:
    """ASCII digits, an optional minus; never what only isdigit takes (`²`)."""
    body = text[1:] if text.startswith("-") else text
    return int(text) if body.isascii() and body.isdecimal() and len(body) <= 12 else None


def paged(entries: Sequence[Entry], size: int, number: int, page_id: Callable[[int], str]) -> Page:
    """Page `number` (past the end: the last) of `entries`, `size` a page."""
    at, part = window(len(entries), size, number)
    return Page(tuple(entries[part]), at.number, at.count, None if at.prev is None else page_id(at.prev),
                None if at.next is None else page_id(at.next), page_id)


# -- the menu ---------------------------------------------------------------------------

@dataclass
class SettingsMenu:
    """The settings menu of one chat for one reader: `settings` as the
    service gives them (variant, rules, timer, lang), the reader's `lang`,
    and `size`, how many entries a platform shows in one list (Discord: 25
    options in a select; Telegram: what its keyboard holds)."""

    settings: dict[str, Any]
    lang: str
    size: int = 25
    #: How many of an option's choices a page shows (Discord: 4 rows of 5 buttons).
    choice_size: int = 20
    _values: dict[str, dict[str, Any]] | None = field(default=None, repr=False)

    @cached_property
    def enabled(self) -> set[str]:
        """The rules on (a broken setting shows the official rules)."""
        return self.summary.enabled

    @cached_property
    def summary(self) -> RulesSummary:
        return rules_summary(self.settings, self.lang)

    def summary_lines(self) -> list[str]:
        """The settings in words, under a title the front-end writes: variant,
        house rules on, shared rules off, turn timer, language."""
        _ = gettext_for(self.lang)
        s = self.summary
        off = [cls.label(self.lang) for cls in switchable_rules() if cls.base and cls.name not in s.enabled]
        lines = [_("Variant: {variant}").format(variant=s.title),
                 _("House rules on: {rules}").format(rules=joined(s.house, self.lang) or _("none"))]
        if off:
            lines.append(_("Shared rules off: {rules}").format(rules=joined(off, self.lang)))
        lines.append(_("Turn timer: {n} seconds").format(n=s.timer) if s.timer else _("Turn timer: off"))
        # The chat's language, not the reader's: a web page or a Discord panel is read in its
        # reader's own language, which is not what the chat is set to (that is what this says).
        chat_lang = str(self.settings.get("lang") or self.lang)
        lines.append(_("Language: {language}").format(language=LANGUAGE_NAMES.get(chat_lang, chat_lang)))
        return lines

    def option_panels(self) -> list[list[OptionPanel]]:
        """Every option of every rule on, a list per rule (house rules first)."""
        rules = sorted(option_rules(self.enabled), key=lambda cls: (cls.base, cls.name))
        return [self.rule_panel(cls.name) for cls in rules]

    def values(self, rule: str) -> dict[str, Any]:
        """A rule's options in this chat (the variant's, with the chat's changes)."""
        if self._values is None:
            self._values = resolved_options(self.settings)
        return self._values.get(rule, {})

    # -- the rules view

    def switches(self) -> list[Entry]:
        """Every switchable rule (core's `switchable_rules`, house rules first), on or off."""
        enabled = self.enabled
        return [Entry(("off:" if cls.name in enabled else "on:") + rule_ref(cls.name), cls.label(self.lang),
                      cls.name in enabled, self.options_hint(cls), cls.name) for cls in switchable_rules()]

    def options_hint(self, cls: type[Rule]) -> str:
        """A rule's hint: what its options are, by title in the reader's
        language ("" without options). Not its id: a hint is shown beside
        the title (Discord's select, the web's tooltip), and nobody types a
        rule's id in a chat."""
        return joined((cls.option_title(spec.name, self.lang) for spec in option_specs(cls)), self.lang)

    def options(self) -> list[Entry]:
        """One entry per option of the rules on: `Rule: option = value`, its help as hint."""
        out = []
        for cls in option_rules(self.enabled):
            for index, spec in enumerate(option_specs(cls)):
                value = self.values(cls.name).get(spec.name, spec.default)
                label = f"{cls.label(self.lang)}: {cls.option_title(spec.name, self.lang)} = " \
                    f"{self.value_text(cls, spec, value)}"
                out.append(Entry(f"o:{key_of(cls.name)}:{index}", label, hint=cls.option_help(spec.name, self.lang),
                                 name=f"{cls.name}:{spec.name}"))
        return out

    def rules_with_options(self) -> list[Entry]:
        """One entry per rule on that has options (a rule's panel of all of them)."""
        return [Entry(f"m:{key_of(cls.name)}", cls.label(self.lang), hint=self.options_hint(cls), name=cls.name)
                for cls in option_rules(self.enabled)]

    def rules(self, number: int = 0) -> RulesPage:
        """Page `number` of the rules view; its three lists page together."""
        lists = (self.switches(), self.options(), self.rules_with_options())
        at, part = window(max(len(x) for x in lists), self.size, number)
        switches, options, with_options = (tuple(x[part]) for x in lists)
        return RulesPage(switches, options, with_options, number=at.number, count=at.count,
                         prev=None if at.prev is None else rules_page(at.prev),
                         next=None if at.next is None else rules_page(at.next))

    # -- variants, timer, language, reset

    def variant_entries(self) -> list[Entry]:
        from ..variants import VariantError, load_variant, variant_names

        out = []
        for name in variant_names():
            try:
                variant = load_variant(name)
            except VariantError:
                continue
            out.append(Entry("var:" + variant_ref(name), variant.label(self.lang), name == self.settings["variant"],
                             variant.describe(self.lang) or name, name))
        return out

    def variants(self, number: int = 0) -> Page:
        """Page `number` of every variant, the chat's marked, each with its description."""
        return paged(self.variant_entries(), self.size, number, lambda p: f"pv:{p}")

    def timers(self) -> list[Entry]:
        _, ngettext = gettext_for(self.lang), ngettext_for(self.lang)
        timer = int(self.settings.get("timer") or 0)
        # A button's short "30 s", in the reader's words (30 с, 30 ث, 30 秒): a bare "30s" is English.
        return [Entry(f"tm:{s}", ngettext("{n} s", "{n} s", s).format(n=s) if s else _("no timer"), s == timer)
                for s in TIMER_CHOICES]

    def languages(self) -> list[Entry]:
        current = self.settings.get("lang")
        return [Entry(f"lang:{code}", LANGUAGE_NAMES.get(code, code), code == current) for code in LANGUAGES]

    def reset(self) -> Entry:
        _ = gettext_for(self.lang)
        return Entry("reset", _("↩️ Variant defaults"))

    # -- options

    def value_text(self, cls: type[Rule], spec: OptionSpec, value: Any) -> str:
        """An option's value as a player reads it (`on`/`off` for a switch)."""
        _ = gettext_for(self.lang)
        if spec.type is bool:
            return _("on") if value else _("off")
        return value_words(value, self.lang, cls, spec.name)

    def takes(self, cls: type[Rule], spec: OptionSpec) -> str:
        """What the option takes, said as its panel's choices name the values
        ("on or off", "one of the dealer, ..."); a number's kind and bounds.

        Why not `spec.describe`: that is the variant file's syntax ("true or
        false", "one of 'dealer', 'other_side'"), which a chat admin never
        types; a Spanish panel read "true o false" above its "sí" and "no"."""
        if spec.choices is None:
            return spec.describe(self.lang)
        _ = gettext_for(self.lang)
        words = [self.value_text(cls, spec, choice) for choice in spec.choices]
        if len(words) == 2:
            return _("{first} or {second}").format(first=words[0], second=words[1])
        return _("one of {values}").format(values=joined(words, self.lang))

    def rule_panel(self, rule: str) -> list[OptionPanel]:
        """Every option of a rule, each as its panel (Telegram shows them all at once)."""
        from ..registry import available_rules

        cls = available_rules().get(rule)
        return [self.option(cls, i) for i in range(len(option_specs(cls)))] if cls is not None else []

    def option(self, cls: type[Rule], index: int, number: int = 0) -> OptionPanel:
        """Option `index` of rule `cls` as its panel; `number` pages its choices."""
        _ = gettext_for(self.lang)
        spec = option_specs(cls)[index]
        key = f"{key_of(cls.name)}:{index}"
        value = self.values(cls.name).get(spec.name, spec.default)
        entries: list[Entry] = []
        steps: list[Entry] = []
        typed = None
        if spec.type is bool:
            entries = [Entry(f"s:{key}:1", _("on"), bool(value)), Entry(f"s:{key}:0", _("off"), not value)]
        elif spec.choices is not None:
            entries = [Entry(f"s:{key}:{i}", value_words(choice, self.lang, cls, spec.name), choice == value)
                       for i, choice in enumerate(spec.choices)]
        elif spec.type in (int, float) and isinstance(value, (int, float)):
            lo = spec.min if spec.min is not None else -(10 ** 9)
            hi = spec.max if spec.max is not None else 10 ** 9
            moves = [-s for s in reversed(number_steps(spec))] + number_steps(spec)
            steps = [Entry(f"s:{key}:{encode_value(spec, value + s)}", f"−{-s}" if s < 0 else f"+{s}")
                     for s in moves if lo <= value + s <= hi]
            typed = f"t:{key}"
        return OptionPanel(
            id=f"o:{key}", rule=cls.name, option=spec.name, rule_label=cls.label(self.lang),
            title=cls.option_title(spec.name, self.lang), help=cls.option_help(spec.name, self.lang),
            takes=self.takes(cls, spec), value=value, value_text=self.value_text(cls, spec, value),
            choices=paged(entries, self.choice_size, number, lambda p: f"o:{key}:{p}"), steps=tuple(steps),
            typed=typed, is_switch=spec.type is bool)

    def find_option(self, rule: str, option: str, number: int = 0) -> OptionPanel | None:
        """Option `option` of rule `rule` as its panel (page `number` of its choices), if both exist."""
        from ..registry import available_rules

        cls = available_rules().get(rule)
        names = [s.name for s in option_specs(cls)] if cls is not None else []
        return self.option(cls, names.index(option), number) if cls is not None and option in names else None

    def view(self, show: Show) -> OptionPanel | Page | RulesPage:
        """What `show` draws on a front-end that shows one list at a time
        (Discord): an option's panel (the box to type its number opens over
        it), the variants (a `Page`), or a page of the rules, which also
        stands in for an option that no longer exists."""
        if show.view in (OPTION, TYPE):
            found = self.find_option(show.rule, show.option, show.page)
            if found is not None:
                return found
        return self.variants(show.page) if show.view == VARIANTS else self.rules(show.page)

    def decode(self, press: str, typed: str | None = None) -> Decoded | Refused:
        """`decode` with this menu's language and page size."""
        return decode(press, typed, lang=self.lang, size=self.size)


# -- what a press means ----------------------------------------------------------------

def decode(press: str, typed: str | None = None, *, lang: str, size: int = 25) -> Decoded | Refused:
    """The command or view a press id names (with the text typed for a `t:`
    id), and the view to show after it; a forged or stale id is refused, in
    `lang`, and changes nothing. It reads no settings, so a front-end may
    decode before it asks the store (Discord must open a modal at once)."""
    if not press.isascii() or len(press.encode()) > MAX_ID:
        return _refuse("unknown_rule", lang)
    verb, _sep, rest = press.partition(":")
    parts = rest.split(":") if rest else []
    if verb in ("on", "off") and len(parts) == 1:
        cls = rule_by_ref(parts[0])
        names = [r.name for r in switchable_rules()]
        if cls is None or cls.name not in names:
            return _refuse("unknown_rule", lang)
        return Decoded(Show(RULES, page=names.index(cls.name) // size), c.SetRule(rule=cls.name,
                                                                                 enabled=verb == "on"))
    if verb in ("s", "t", "o") and len(parts) in (2, 3):
        return _option_press(verb, parts, typed, lang)
    if verb == "m" and len(parts) == 1:
        cls = rule_by_key(parts[0])
        return Decoded(Show(RULE, cls.name)) if cls is not None and option_specs(cls) \
            else _refuse("unknown_rule", lang)
    if verb == "var" and len(parts) == 1:
        from ..variants import variant_names

        name = variant_by_ref(parts[0])
        return Decoded(Show(VARIANTS, page=variant_names().index(name) // size), c.SetVariant(name=name)) \
            if name is not None else _refuse("unknown_variant", lang)
    if verb == "tm" and len(parts) == 1:
        seconds = _int(parts[0])
        return Decoded(Show(RULES), c.SetTimer(seconds=seconds)) if seconds in TIMER_CHOICES \
            else _refuse("bad_option", lang)
    if verb == "lang" and len(parts) == 1:
        return Decoded(Show(RULES), c.SetLanguage(lang=parts[0])) if parts[0] in LANGUAGES \
            else _refuse("bad_language", lang)
    if press == "reset":
        return Decoded(Show(RULES), c.ResetRules())
    if press == "back":
        return Decoded(Show(RULES))
    number = _int(parts[0]) if verb in ("pr", "pv") and len(parts) == 1 else None
    if number is not None and number >= 0:
        return Decoded(Show(RULES if verb == "pr" else VARIANTS, page=number))
    return _refuse("unknown_rule", lang)


def _option_press(verb: str, parts: list[str], typed: str | None, lang: str) -> Decoded | Refused:
    """`s:<key>:<i>:<value>`, `t:<key>:<i>` (+ typed), `o:<key>:<i>[:<page>]`."""
    cls = rule_by_key(parts[0])
    specs = option_specs(cls) if cls is not None else []
    index = _int(parts[1])
    if cls is None or index is None or not 0 <= index < len(specs):
        return _refuse("bad_option", lang)
    spec = specs[index]
    if verb == "o":
        page = _int(parts[2]) if len(parts) == 3 else 0
        return Decoded(Show(OPTION, cls.name, spec.name, page)) if page is not None and page >= 0 \
            else _refuse("bad_option", lang)
    if verb == "s" and len(parts) == 3:
        ok, value = decode_value(spec, parts[2])
    elif verb == "t" and len(parts) == 2 and spec.choices is None and spec.type in (int, float):
        if typed is None:
            return Decoded(Show(TYPE, cls.name, spec.name))
        ok, value = typed_number(spec, typed)
    else:
        ok, value = False, None
    if not ok:
        return _refuse("bad_option", lang)
    return Decoded(Show(OPTION, cls.name, spec.name), c.SetRule(rule=cls.name, option=spec.name, value=value))


def _refuse(code: str, lang: str) -> Refused:
    return Refused(code, error_text(code, lang))


def prompt(rule: str, option: str, lang: str) -> tuple[str, str, str] | None:
    """What the box to type an option's number in says: the rule's title,
    the option's title, what it takes; None for no such option."""
    found = option_spec(rule, option)
    if found is None:
        return None
    cls, spec = found
    return cls.label(lang), cls.option_title(option, lang), spec.describe(lang)


def typed_number(spec: OptionSpec, text: str) -> tuple[bool, Any]:
    """A number typed for a number option: (ok, value). Its bounds are the
    service's to judge, so the refusal says what they are."""
    text = text.strip()
    try:
        number: float = int(text) if spec.type is int else float(text)
    except ValueError:
        return False, None
    return (True, number) if math.isfinite(number) else (False, None)


RULES_TITLE = N_("Rules here")


def rules_lines(m: SettingsMenu, note: str = "", *, options: bool = False) -> list[Line]:
    """The settings in words under their title (after a `note`, if any);
    with `options`, then every option of the rules on and its value, a line
    per rule, each option said as the rules in words say it (its help, else
    its title: `rules_text.option_words`). Never the options' ids: nobody
    types an id in a chat (the panels' buttons set them), so an id would
    only be English code in a translated text."""
    _ = gettext_for(m.lang)
    lines = ([plain(note)] if note else []) + [bold(_(RULES_TITLE)), *map(plain, m.summary_lines())]
    panels = m.option_panels() if options else []
    if panels:
        lines += [[], bold(_("Options"))]
    for rule in panels:
        # The colon as the language writes it (French " : "), after the rule as after each option.
        said = "; ".join(_("{option}: {value}").format(option=p.help or p.title, value=p.value_text) for p in rule)
        lines.append(plain(_("{option}: {value}").format(option=rule[0].rule_label, value=said)))
    return lines


def option_lines(p: OptionPanel, lang: str, note: str = "") -> list[Line]:
    """One option's panel in words (after a `note`, if any): the rule and the
    option's title in bold, its help, what it takes, and its value now."""
    _ = gettext_for(lang)
    head = ([plain(note)] if note else []) + [bold(f"{p.rule_label} · {p.title}")]
    return head + ([plain(p.help)] if p.help else []) + [plain(p.takes),
                                                         plain(_("Now: {value}").format(value=p.value_text))]
