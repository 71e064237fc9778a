"""What a rule plugin is: a `Rule` subclass with a name, options and hooks.

    class Stacking(Rule):
        '''Stacking: a player hit by a draw card may answer with one.'''
        name = "stacking"

        @dataclass(frozen=True)
        class Options:
            draw_two_on_draw_two: bool = True
            optional: bool = True

        @hookimpl
        def can_stack(self, state, card):
            ...

A variant turns a rule on with options; the rule set instantiates the class
with its validated `Options` (available as `self.options`) and registers the
instance with pluggy. Rules the game always has set `base = True`; a variant
may still turn them off (`challenge: false`).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, get_args, get_origin

import pluggy

from .chat.i18n import N_, Msg, rule_text
from .hookspecs import PROJECT

hookimpl = pluggy.HookimplMarker(PROJECT)


@dataclass(frozen=True)
class NoOptions:
    """A rule without options."""


class Rule:
    #: The name variants use to turn the rule on (kebab-case).
    name: ClassVar[str] = ""
    #: A short title per language, for menus. Falls back to the name.
    title: ClassVar[dict[str, str]] = {}
    #: Options, validated from the variant's YAML. A frozen dataclass.
    Options: ClassVar[type] = NoOptions
    #: Rules that cannot be on together with this one.
    conflicts: ClassVar[tuple[str, ...]] = ()
    #: Rules that must be on for this one to work.
    requires: ClassVar[tuple[str, ...]] = ()
    #: On in every variant unless the variant turns it off.
    base: ClassVar[bool] = False
    #: The move kinds this rule's `check_move` looks at (None: every kind).
    #: Declaring them lets the rule set skip the rule for other moves.
    checks: ClassVar[tuple[str, ...] | None] = None
    #: The promise that lets the engine take its fast path (`unobot.plain_turn`):
    #: in a plain turn, this rule's hooks answer and change nothing beyond what
    #: the shared rules do. A rule that implements one of the plain-turn hooks
    #: without it makes every turn of its variant go through the hooks.
    plain_turn: ClassVar[bool] = False
    #: With `plain_turn`: the rule's one say in a plain turn is that `draw` is
    #: not offered while a card may be played (must-play's), which the fast
    #: path then applies itself.
    plain_no_draw_while_fitting: ClassVar[bool] = False
    #: With `plain_turn`: the rule's one say in a plain turn is that `pass` is
    #: not offered after drawing a card that may be played (force-play's),
    #: which the fast path then applies itself.
    plain_no_pass_while_fitting: ClassVar[bool] = False
    #: With `plain_turn`: the rule owns the UNO calls as uno-call does (UNO
    #: offered holding two cards, a play down to one card unsaid opens a catch),
    #: which the fast path then offers and opens itself.
    plain_uno_calls: ClassVar[bool] = False
    #: Rules this one takes the place of: when it is on, they are off (and
    #: `unobot variants NAME` does not list them as active).
    replaces: ClassVar[tuple[str, ...]] = ()
    #: The match is won by the lowest score (progressive scoring's totals are
    #: points against): what ranks the others behind the winner, in the
    #: players' records and their ratings, reads it.
    lowest_score_wins: ClassVar[bool] = False

    # -- what the rule says to players (English msgids, translated through
    # -- the rule's own catalogue, `locale`) ---------------------------------
    #: One line per event kind the rule emits: {kind: text}. Placeholders:
    #: {player} {other} {n} {card} {color}. A (singular, plural) pair is
    #: chosen by {n}. `describe_event` uses these for kinds core does not know.
    event_texts: ClassVar[dict[str, str | tuple[str, str]]] = {}
    #: The refusal codes the rule's `check_move` returns, with their message.
    refusals: ClassVar[dict[str, str]] = {}
    #: Card kinds the rule adds (see `unobot.CardKind`).
    cards: ClassVar[tuple[Any, ...]] = ()
    #: Move kinds the rule adds: {kind: title}, e.g. {"time_up": "Time is up"}.
    #: Their text form is `KIND [CARD...] [COLOUR] [PLAYER]`; the engine asks
    #: `check_move` and applies them through the `on_move` hook.
    move_kinds: ClassVar[dict[str, str]] = {}
    #: What follows a move kind's word when typed, as help shows it: {kind:
    #: example}, e.g. {"multi": "R5 G5 B5"} (cards, a colour, a player).
    #: Said through the rule's catalogue, so a word in it may be marked and
    #: translated (`{"poke": N_("NAME")}`: "poke NOMBRE" in Spanish). None
    #: listed: the word alone.
    move_usage: ClassVar[dict[str, str]] = {}
    #: The mark a move's label starts with on every front-end (buttons,
    #: inline results, the console's list, the web table): {kind: symbol},
    #: e.g. {"knock": "✊"}. For the rule's own move kinds and for the
    #: built-in kinds a rule carries out (uno-call gives UNO's 📢 and
    #: catch's 🫵, challenge its ⚖️). A short mark without spaces
    #: (`MOVE_SYMBOL_MAX` characters at most); none given: ✨.
    move_symbols: ClassVar[dict[str, str]] = {}
    #: What a move does, in a few words, shown beside its label as every
    #: built-in move's is (a Telegram inline result's second line, a Discord
    #: option's description, the web table's tooltip): {kind: N_("text")},
    #: through the rule's catalogue. None given: the label alone.
    move_hints: ClassVar[dict[str, str]] = {}
    #: Move kinds of the rule's own that only the chat applies (the round
    #: clock's `time_up`): a person sending one is refused.
    system_moves: ClassVar[tuple[str, ...]] = ()
    #: The rule's own gettext catalogues: (domain, folder holding
    #: `<lang>/LC_MESSAGES/<domain>.po`). None: texts are shown in English.
    locale: ClassVar[tuple[str, Any] | None] = None

    def __init__(self, options: Any = None) -> None:
        self.options = options if options is not None else self.Options()

    def __repr__(self) -> str:
        return f"<rule {self.name} {self.options}>"

    def team(self, state: Any, seat: int) -> int | None:
        """The team ``seat`` plays in, when this rule makes teams (seats of
        one team win a match together: the players' records count the win
        for each of them and rate them as a team); None: each plays alone."""
        return None

    def wild_colours(self, state: Any, player: int, card: Any) -> tuple[str, ...] | None:
        """The colours worth naming for the wild `card` that `player` plays
        now (or, on the discard pile, a Wild starter they name), when this
        rule rather than the player gives wilds their colour: () when the
        rule alone decides (random colour), a few when the colour named only
        breaks a tie (automatic colour). None: any colour, as named.

        Why: the engine offers a wild in these colours only, or naming none,
        so no front-end asks a question whose answer would be ignored. A
        colour named anyway (older logs, scenarios) is still accepted."""
        return None

    def match_target(self) -> int | None:
        """The points that end the match under this rule, when it decides the
        match by a target (the lobby's "First to 500 points wins the match");
        None: it sets none. A house rule's answer wins over a shared rule's
        (progressive scoring's total over scoring's target)."""
        return None

    def seconds_per_turn(self) -> int | None:
        """The seconds a turn lasts under this rule's options, when it sets a
        turn timer (turn-timer's `seconds`): what the lobby and the status say
        before a round is dealt, where no state exists to ask the
        `turn_seconds` hook (which decides during a round). None: it sets none."""
        return None

    def reverse_skips_with_two(self) -> bool | None:
        """Whether a Reverse acts as a Skip while two players are left, when
        this rule decides what a Reverse does (card-effects' option
        `two_player_reverse_skips`): the plain turn and the AI ask it. None:
        this rule says nothing."""
        return None

    def timeouts_before_removal(self) -> int | None:
        """After how many timeouts in a row a person is removed from the
        round, when this rule decides it (turn-timer's `kick_after`): the chat
        removes them then, unless they are the last person playing. 0: never;
        None: this rule says nothing. A house rule's answer wins over a
        shared rule's, as for `match_target`."""
        return None

    def move_value(self, state: Any, move: Any) -> float | None:
        """What `move` is worth to the player making it, in cards, beyond the
        cards it puts down, when this rule gives the move its effect (one of
        its own move kinds, a play of one of its cards, a play it changes):
        the cards it takes out of their hand besides those (a Discard All's
        others of its colour), the cards they are spared or win (a hand
        swapped for a smaller one: the difference), less the cards it costs
        them (a move that makes them draw two: -2). Asked of the state before
        the move; the answers of every rule in force add up.

        Why: the AI sees a card leave the hand and nothing of what a rule
        then does; with an answer here `normal`, `hard` and `expert` take a
        move that clearly helps and leave one that clearly hurts, and try it
        on no copy. None: this rule says nothing (the AI then weighs the
        cards the move puts down, and a move of a rule's own kind by how it
        leaves the hand on a copy)."""
        return None

    def place(self, state: Any, seat: int) -> int | None:
        """The seat's place in the match when this rule decides it by more
        than the points (lower is better; equal places tie, and the points
        then decide between them): elimination's players who left later are
        ahead of those who left before, where every score is 0. The final
        table, the players' records and their ratings order by it. None:
        the points alone decide."""
        return None

    @classmethod
    def doc(cls) -> str:
        """The rule explained for players: the class docstring (a subclass
        without one keeps its base's: the tutorial grows a rule by
        subclassing it step by step, and its `rules` entry went blank),
        else its module's."""
        import sys

        own = next((k.__doc__ for k in cls.__mro__ if k is not Rule and k.__doc__
                    and issubclass(k, Rule)), None)
        text = own or getattr(sys.modules.get(cls.__module__), "__doc__", None) or ""
        return text.strip()

    @classmethod
    def label(cls, lang: str = "en") -> str:
        """The rule's title in `lang`: its own `title` entry, else its English
        title through its catalogue (so a language added as a catalogue needs
        no edit of the rule), else its name."""
        if lang in cls.title:
            return cls.title[lang]
        english = cls.title.get("en")
        if not english:
            return cls.name
        return rule_text(cls, english, lang) if lang and lang != "en" else english

    @classmethod
    def translated(cls, text: str, lang: str | None = None) -> str:
        """One of the rule's own texts (marked with `N_`) in `lang`, through
        its catalogue (`locale`; unobot's for its own rules); English as
        written when there is no translation."""
        return rule_text(cls, text, lang) if lang else text

    @classmethod
    def label_with(cls, options: Mapping[str, Any], lang: str = "en") -> str:
        """The rule's title with these options in force (a variant's, a
        chat's): `label`, unless an option changes what the rule is, as
        no-action-finish's `forbid: draw` does (not "Finish on a number"
        then). What the lobby's list of house rules shows."""
        return cls.label(lang)

    @classmethod
    def option_help(cls, name: str, lang: str | None = None) -> str:
        """What option `name` does (its `option(help=...)`), in `lang`,
        through the rule's own catalogue (unobot's for its own rules); the
        English text when the catalogue has no translation, "" when the
        option has no help. Every front-end shows option help through this."""
        spec = next((o for o in option_specs(cls) if o.name == name), None)
        if spec is None or not spec.help:
            return ""
        return rule_text(cls, spec.help, lang) if lang else spec.help

    @classmethod
    def option_title(cls, name: str, lang: str | None = None) -> str:
        """A short title of option `name` for a button or a menu (its
        `option(title=...)`), in `lang`, through the rule's own catalogue;
        the option's name when it has no title."""
        spec = next((o for o in option_specs(cls) if o.name == name), None)
        if spec is None or not spec.title:
            return name
        return rule_text(cls, spec.title, lang) if lang else spec.title

    @classmethod
    def option_value(cls, name: str, value: Any, lang: str | None = None) -> str | None:
        """What `value` of option `name` is called (its `option(words=...)`),
        in `lang`, through the rule's own catalogue; None when the option
        names no word for it (a number, a switch: `value_words` says those)."""
        spec = next((o for o in option_specs(cls) if o.name == name), None)
        word = dict(spec.words).get(value) if spec is not None else None
        if not word:
            return None
        return rule_text(cls, word, lang) if lang else word


class OptionError(ValueError):
    """An option value that does not fit the rule's Options.

    `msg` keeps the message's English template and parameters: `text(lang)`
    renders it for a reader, `str()` and `message` are the English text."""

    def __init__(self, option: str, message: str | Msg) -> None:
        self.option = option
        self.msg = message if isinstance(message, Msg) else Msg.plain(message)
        super().__init__(self.msg.text())

    @property
    def message(self) -> str:
        return self.msg.text()

    def text(self, lang: str | None = None) -> str:
        return self.msg.text(lang)


def option(default: Any, *, min: float | None = None, max: float | None = None,
           help: str = "", title: str = "", words: Mapping[Any, str] | None = None) -> Any:
    """An option with bounds, a one-line help and a short title, for a rule's Options:

        @dataclass(frozen=True)
        class Options:
            limit: int = option(25, min=2, max=200, help="cards that end a player's round",
                                title="Card limit")

    Bounds are checked wherever options are set (a variant file, `--rule`,
    a chat's `/rules`), with the file, line and fix in the message; chat
    adapters use them to offer only values that fit. `help` and `title` are
    English msgids of the rule's catalogue: `unobot i18n extract` collects
    them, and every front-end shows them translated (`Rule.option_help`,
    `Rule.option_title`). `words` names the values of a `Literal` option for
    a player (`{"dealer": "the dealer", "other_side": "the dealer's other
    side"}`), also msgids of the rule's catalogue (`Rule.option_value`): the
    value itself is an id a variant file writes, not a word to show.

    A number default outside its own bounds is a ValueError here, when the
    rule's class is made: otherwise every variant that leaves the option
    unset would quietly use a value no admin could set (a plugin's mistake,
    said when it loads, with the line in the traceback).
    """
    if isinstance(default, (int, float)) and not isinstance(default, bool) and (
            (min is not None and default < min) or (max is not None and default > max)):
        raise ValueError(f"option default {default!r} is outside its own bounds "
                         f"(min={min!r}, max={max!r}): make the default fit, or widen the bounds")
    return dataclasses.field(default=default, metadata={"min": min, "max": max, "help": help, "title": title,
                                                        "words": dict(words or {})})


@dataclass(frozen=True)
class OptionSpec:
    """What an adapter needs to offer one option: its type, default, bounds
    and, for a Literal or bool, the allowed values."""

    name: str
    type: Any
    default: Any
    min: float | None = None
    max: float | None = None
    help: str = ""
    title: str = ""
    #: What each value is called (English msgids of the rule's catalogue), by value.
    words: tuple[tuple[Any, str], ...] = ()

    @property
    def choices(self) -> tuple[Any, ...] | None:
        """The allowed values of a bool or Literal option, else None."""
        if self.type is bool:
            return (True, False)
        if get_origin(self.type) is Literal:
            return get_args(self.type)
        return None

    def describe(self, lang: str | None = None) -> str:
        """What the option takes, `a whole number from 1 to 30`, in `lang` (None: English)."""
        return self.describe_msg().text(lang)

    def describe_msg(self) -> Msg:
        kind = describe_type_msg(self.type)
        if self.min is not None and self.max is not None:
            return Msg(N_("{kind} from {min} to {max}"), kind=kind, min=_num(self.min), max=_num(self.max))
        if self.min is not None:
            return Msg(N_("{kind} of at least {min}"), kind=kind, min=_num(self.min))
        if self.max is not None:
            return Msg(N_("{kind} of at most {max}"), kind=kind, max=_num(self.max))
        return kind


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def option_specs(rule: type[Rule]) -> list[OptionSpec]:
    """Every option of a rule, with its bounds."""
    hints = typing.get_type_hints(rule.Options)
    out = []
    for f in dataclasses.fields(rule.Options):
        default = f.default if f.default is not dataclasses.MISSING else None
        meta: Mapping[str, Any] = f.metadata or {}
        out.append(OptionSpec(f.name, hints.get(f.name, Any), default,
                              meta.get("min"), meta.get("max"), meta.get("help", ""), meta.get("title", ""),
                              tuple(meta.get("words", {}).items())))
    return out


def option_fields(rule: type[Rule]) -> list[tuple[str, Any, Any]]:
    """(name, type, default) of every option of a rule."""
    return [(o.name, o.type, o.default) for o in option_specs(rule)]


def describe_type(tp: Any, lang: str | None = None) -> str:
    """What a value of type `tp` is, for a person: `true or false`, `a whole number`."""
    return describe_type_msg(tp).text(lang)


def describe_type_msg(tp: Any) -> Msg:
    if tp is bool:
        return Msg(N_("true or false"))
    if tp is int:
        return Msg(N_("a whole number"))
    if tp is float:
        return Msg(N_("a number"))
    if tp is str:
        return Msg(N_("a text"))
    if get_origin(tp) is Literal:
        return Msg(N_("one of {values}"), values=", ".join(repr(a) for a in get_args(tp)))
    if get_origin(tp) in (types.UnionType, typing.Union):
        kinds = [describe_type_msg(a) for a in get_args(tp) if a is not type(None)]
        either = kinds[0]
        for kind in kinds[1:]:
            either = Msg(N_("{first} or {second}"), first=either, second=kind)
        return Msg(N_("{kind} (or null)"), kind=either)
    return Msg.plain(getattr(tp, "__name__", str(tp)))


def _coerce(tp: Any, value: Any) -> Any:
    if tp is Any:
        return value
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise TypeError
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise TypeError
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise TypeError
    if tp is str:
        if isinstance(value, str):
            return value
        raise TypeError
    if get_origin(tp) is Literal:
        if value in get_args(tp):
            return value
        raise TypeError
    if get_origin(tp) in (types.UnionType, typing.Union):
        if value is None and type(None) in get_args(tp):
            return None
        for arg in get_args(tp):
            if arg is type(None):
                continue
            try:
                return _coerce(arg, value)
            except TypeError:
                continue
        raise TypeError
    return value


def build_options(rule: type[Rule], raw: dict[str, Any] | None) -> Any:
    """Validate `raw` against the rule's Options; raise OptionError naming the option."""
    raw = raw or {}
    specs = {o.name: o for o in option_specs(rule)}
    values = {}
    for key, value in raw.items():
        spec = specs.get(key)
        if spec is None:
            if specs:
                raise OptionError(key, Msg(N_("rule '{rule}' has no option '{option}' (its options: {options})"),
                                           rule=rule.name, option=key, options=", ".join(specs)))
            raise OptionError(key, Msg(N_("rule '{rule}' has no option '{option}' (it has no options)"),
                                       rule=rule.name, option=key))
        wrong = Msg(N_("option '{option}' of rule '{rule}' must be {kind}, not {value}"),
                    option=key, rule=rule.name, kind=spec.describe_msg(), value=repr(value))
        try:
            values[key] = _coerce(spec.type, value)
        except TypeError:
            raise OptionError(key, wrong) from None
        got = values[key]
        if isinstance(got, (int, float)) and not isinstance(got, bool) and (
            (spec.min is not None and got < spec.min) or (spec.max is not None and got > spec.max)
        ):
            raise OptionError(key, wrong)
    return rule.Options(**values)
