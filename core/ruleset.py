"""A compiled rule set: one pluggy PluginManager per variant, resolved once.

pluggy orders the implementations (tryfirst, trylast, registration order)
and validates them against the specs. Dispatching through pluggy costs a few
microseconds a call, which adds up at a dozen hook calls per move, so for each
hook we generate one plain function that calls the implementations in
pluggy's order with the arguments each asked for. A hook with a wrapper
falls back to pluggy's own dispatch, so `wrapper=True` still works.

A RuleSet is cached by the variant's resolved rules (`rules_for`), so two
chats playing different rules in one process each get their own.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

import pluggy

from . import hookspecs
from .cards import COLORS, Card
from .hookspecs import PROJECT
from .moves import CATCH, CHALLENGE, DRAW, KINDS, PASS, UNO, Move
from .plain_turn import plain_rules
from .rule import Rule

if TYPE_CHECKING:
    from .state import GameState

_FIRSTRESULT_TEMPLATE = """
def {name}({args}):
{body}    return None
"""


#: Core move kinds that exist only while a rule applies them, by the hook that does.
_RULED_KINDS = {CHALLENGE: "on_challenge", UNO: "on_uno", CATCH: "on_catch"}


class RuleSet:
    """The enabled rules of one variant, with a fast caller per hook.

    Every hook of core/hookspecs.py is an attribute: `rules.card_fits(state,
    player, card)`. `rules.options[name]` gives a rule's options.
    """

    # One compiled caller per hook of core/hookspecs.py (set in __init__).
    build_deck: Callable[..., Any]
    hand_size: Callable[..., Any]
    first_card: Callable[..., Any]
    round_start: Callable[..., Any]
    more_cards: Callable[..., Any]
    cards_to_draw: Callable[..., Any]
    on_move: Callable[..., Any]
    card_fits: Callable[..., Any]
    fit_refusal: Callable[..., Any]
    can_stack: Callable[..., Any]
    hold_penalty: Callable[..., Any]
    can_jump_in: Callable[..., Any]
    card_targets: Callable[..., Any]
    check_move: Callable[..., Any]
    extra_moves: Callable[..., Any]
    before_play: Callable[..., Any]
    on_wild: Callable[..., Any]
    on_play: Callable[..., Any]
    on_swap: Callable[..., Any]
    on_rotate: Callable[..., Any]
    on_draw: Callable[..., Any]
    on_drawn_card: Callable[..., Any]
    on_pass: Callable[..., Any]
    on_deck_empty: Callable[..., Any]
    on_challenge: Callable[..., Any]
    on_uno: Callable[..., Any]
    on_catch: Callable[..., Any]
    after_move: Callable[..., Any]
    next_turn: Callable[..., Any]
    on_go_out: Callable[..., Any]
    round_blocked: Callable[..., Any]
    score: Callable[..., Any]
    score_add: Callable[..., Any]
    score_factor: Callable[..., Any]
    round_end: Callable[..., Any]
    match_winner: Callable[..., Any]
    match_end: Callable[..., Any]
    turn_seconds: Callable[..., Any]
    round_seconds: Callable[..., Any]
    time_up: Callable[..., Any]
    on_timeout: Callable[..., Any]
    check_draw: Callable[..., Any]
    check_pass: Callable[..., Any]
    resolved: Any
    #: Whether this rule set may take the plain-turn fast path (core/plain_turn.py).
    plain_turn: bool
    #: ... with uno-call's offers and catches (off when a variant turns UNO calls off).
    plain_uno: bool
    #: ... leaving `draw` out while a card may be played (must-play).
    plain_must_play: bool
    #: ... leaving `pass` out after drawing a card that may be played (force-play).
    plain_force_play: bool
    #: The rules and their options, in registration order, as a game saves
    #: them ([[name, options], ...]): enough to compile this rule set again.
    spec: list[list[Any]]

    def __init__(self, variant: str, enabled: list[tuple[type[Rule], Any]]) -> None:
        self.variant = variant
        self.pm = pluggy.PluginManager(PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.rules: dict[str, Rule] = {}
        self.options: dict[str, Any] = {}
        # Base rules first: pluggy calls the last registered first, so house
        # rules (registered after) get asked before the shared rules.
        ordered = sorted(enabled, key=lambda item: not item[0].base)
        for cls, options in ordered:
            rule = cls(options)
            self.pm.register(rule, name=cls.name)
            self.rules[cls.name] = rule
            self.options[cls.name] = rule.options
        self.pm.check_pending()
        self.fingerprint = fingerprint(enabled)
        for name in hookspecs.spec_names():
            setattr(self, name, self._compile(name))
        # check_move is asked for every card of a hand when moves are listed:
        # give each move kind a caller with only the rules that check it.
        self.check_by_kind: dict[str, Any] = {}
        generic = self.check_move
        for kind in KINDS:
            self.check_by_kind[kind] = self._compile(
                "check_move", lambda impl, k=kind: _checks(impl, k))
        by_kind = self.check_by_kind

        def check_move(state: Any, move: Any) -> Any:
            return by_kind.get(move.kind, generic)(state, move)

        self.check_move = check_move
        #: The move kinds these rules have at all (`has_move`).
        self.move_kinds = frozenset(kind for kind in KINDS if kind not in _RULED_KINDS
                                    or self.count_impls(_RULED_KINDS[kind]) > 0) | frozenset(
            kind for rule in self.rules.values() for kind in type(rule).move_kinds)
        self.check_draw = by_kind[DRAW]
        self.check_pass = by_kind[PASS]
        # Shortcuts for the engine's hottest loop (legal moves): skip hooks
        # that only the shared rules answer, with their fixed answer.
        self.play_checks = self.count_impls("check_move", lambda i: _checks(i, "play")) > 0
        self.targets_possible = self.count_impls("card_targets") > 1
        #: Neither: a fitting card's plays are the seat's shared move objects.
        #: The rules that narrow a wild's colour choices (`Rule.wild_colours`);
        #: while there are any, wilds' plays are listed on the hooks' path only.
        self._colouring = [r for r in self.rules.values() if type(r).wild_colours is not Rule.wild_colours]
        self.wild_colour_named = not self._colouring
        #: The rules that say what a move is worth (`Rule.move_value`); while
        #: there are none, the AI asks nothing (`values_moves`).
        self._valuing = [r for r in self.rules.values() if type(r).move_value is not Rule.move_value]
        self.values_moves = bool(self._valuing)
        self.simple_plays = not (self.play_checks or self.targets_possible) and self.wild_colour_named
        # The same two questions for a whole hand at once, when every rule
        # asked offers the batch form (None otherwise: asked card by card).
        # keep_plays(state, player, cards): the cards whose play (no colour,
        # no target) the rule does not refuse, from rules that never accept
        # a play outright (True would end the chain before the others);
        # cards_targets(state, player, cards): {card: targets} for the cards
        # that name targets (card_targets not None), asked in the hook's order.
        self.keep_plays: Callable[..., Any] | None = _batched(
            [i for i in self.pm.hook.check_move.get_hookimpls() if _checks(i, "play")], "keep_plays", _keep_all)
        self.targets_of: Callable[..., Any] | None = _batched(
            self.pm.hook.card_targets.get_hookimpls(), "cards_targets", _first_targets)
        # can_stack for a whole hand: `cards_stackable(state, player, cards)`
        # of the rule asked first, which answers for every card (its
        # can_stack never says None, so no rule after it is ever asked).
        stackers = self.pm.hook.can_stack.get_hookimpls()
        self.cards_stackable: Callable[..., Any] | None = None
        if stackers and not any(i.hookwrapper or i.wrapper for i in stackers):
            self.cards_stackable = getattr(stackers[-1].plugin, "cards_stackable", None)
        # Only the shared rules answer can_stack (no): nothing is played on a pending penalty.
        self.stack_possible = self.count_impls("can_stack") > 1
        # Rules beyond the shared ones that may offer moves out of turn
        # (jump-in): the simulator gives other seats a chance only then,
        # or while a UNO call or catch is possible.
        self.out_of_turn_rules = any(
            not getattr(i.plugin, "base", False)
            for name in ("extra_moves", "can_jump_in") for i in getattr(self.pm.hook, name).get_hookimpls())
        # The plain turn (core/plain_turn.py): listed and applied without the
        # hooks, when every rule that could have a say promised it has none.
        self.plain_turn = plain_rules(self.pm) and self.wild_colour_named
        # UNO offered, a catch opened: uno-call's declared say (`Rule.plain_uno_calls`), not its name
        self.plain_uno = self.plain_turn and any(r.plain_uno_calls for r in self.rules.values())
        #: A Reverse with two players left is a Skip (`Rule.reverse_skips_with_two`,
        #: card-effects' option): the first rule that answers; None when none does.
        self.reverse_skips_two: bool | None = next(
            (a for a in (r.reverse_skips_with_two() for r in self.rules.values()) if a is not None), None)
        # no draw while a card fits: a rule's declared say (must-play's), not its name
        self.plain_must_play = self.plain_turn and any(r.plain_no_draw_while_fitting for r in self.rules.values())
        # no pass after drawing a card that fits: force-play's declared say
        self.plain_force_play = self.plain_turn and any(r.plain_no_pass_while_fitting for r in self.rules.values())
        # A rule that alone answers card_fits may offer `cards_that_fit(state,
        # player, cards)`, the same answer for a whole hand in one call.
        # So may one whose only company are rules that only ever refuse a
        # card (`keep_fitting`, e.g. no-bluffing): its answer, less theirs.
        fits = self.pm.hook.card_fits.get_hookimpls()
        batches = [getattr(i.plugin, "cards_that_fit", None) for i in fits]
        keeps = [getattr(i.plugin, "keep_fitting", None) for i in fits]
        batch = None
        #: The plain turn's own form of the same answer (core/plain_turn.py):
        #: the batch rule's `fitting_set(state, player)` (every card that fits
        #: in a plain turn), and the refusing rules' `keep_fitting` composed,
        #: or None. The engine filters a hand with the set itself: a call
        #: into the rule set less per turn.
        self.plain_fits: Callable[..., Any] | None = None
        self.plain_keep: Callable[..., Any] | None = None
        #: ... and the only cards plain_keep may take out (a live set), if known.
        self.plain_refusable: Collection[Any] | None = None
        for at, found in enumerate(batches):
            if found is not None and all(k is not None for j, k in enumerate(keeps) if j != at):
                others = [k for j, k in enumerate(keeps) if j != at]
                batch = _refined(found, others)
                self.plain_fits = getattr(fits[at].plugin, "fitting_set", None)
                if len(others) == 1:
                    self.plain_keep = others[0]
                    # Asked only of cards among those it may refuse, when it says which.
                    refusable = getattr(getattr(others[0], "__self__", None), "refusable", None)
                    self.plain_refusable = refusable() if refusable is not None else None
                elif others:
                    self.plain_keep = _keep_all(others)
                break
        self.cards_that_fit: Callable[..., list[Any]] = batch or self._fitting

    def _fitting(self, state: Any, player: int, cards: Any) -> list[Any]:
        fits = self.card_fits
        return [c for c in cards if fits(state, player, c)]

    def count_impls(self, name: str, keep: Any = None) -> int:
        impls = getattr(self.pm.hook, name).get_hookimpls()
        return sum(1 for i in impls if keep is None or keep(i))

    def has_move(self, kind: str) -> bool:
        """Do the rules in force have this kind of move at all? A challenge
        needs a rule that applies it (`on_challenge`: off with no-bluffing),
        UNO and catching theirs, a plugin's kind its rule in force (`multi`
        without multi-play). The engine refuses a move of a kind they lack
        as such (`no_such_move`), not as one that is "not allowed now":
        the player must not wait for a moment that never comes."""
        return kind in self.move_kinds

    def answering(self, method: str) -> Any:
        """The first rule in force that answers the plain method `method` (a
        challenge rule's `would_bluff`, `bluff_record`), or None: what core and
        the AI ask instead of a rule's name, so a third party's rule that
        answers the same is asked the same."""
        for rule in self.rules.values():
            if callable(getattr(rule, method, None)):
                return rule
        return None

    def enabled(self, name: str) -> bool:
        return name in self.rules

    def wild_colours(self, state: GameState, player: int, card: Card) -> tuple[str | None, ...]:
        """The colour choices of the wild `card` for `player` now: the four,
        narrowed by every rule that gives wilds their colour
        (`Rule.wild_colours`); `(None,)` when none is left to name."""
        colours: tuple[str, ...] = COLORS
        for rule in self._colouring:
            worth = rule.wild_colours(state, player, card)
            if worth is not None:
                colours = tuple(c for c in colours if c in worth)
        return colours or (None,)

    def move_value(self, state: GameState, move: Move) -> float | None:
        """What `move` is worth to its player beyond the cards it puts down,
        in cards (`Rule.move_value`): the answers of the rules in force added
        up; None when none answers (what the AI weighs then is its own)."""
        found: float | None = None
        for rule in self._valuing:
            worth = rule.move_value(state, move)
            if worth is not None:
                found = (found or 0.0) + float(worth)
        return found

    def teams(self, state: GameState) -> list[int] | None:
        """Each seat's team when a rule in force makes teams (`Rule.team`),
        else None (everyone plays for themself)."""
        for rule in self.rules.values():
            teams = [rule.team(state, seat) for seat in range(len(state.players))]
            if all(t is not None for t in teams):
                return [int(t) for t in teams if t is not None]
        return None

    def places(self, state: GameState) -> list[int] | None:
        """Each seat's place in the match when a rule in force decides it by
        more than the points (`Rule.place`: elimination), else None."""
        for rule in self.rules.values():
            places = [rule.place(state, seat) for seat in range(len(state.players))]
            if all(p is not None for p in places):
                return [int(p) for p in places if p is not None]
        return None

    @property
    def match_target(self) -> int | None:
        """The points that end the match (`Rule.match_target`): a house
        rule's answer before a shared rule's; None when no rule sets one."""
        return self._first_answer(lambda rule: rule.match_target())

    @property
    def seconds_per_turn(self) -> int:
        """The seconds per turn the rules set before a round is dealt
        (`Rule.seconds_per_turn`): a house rule's answer before a shared
        rule's; 0 (no timer) when no rule sets one."""
        return int(self._first_answer(lambda rule: rule.seconds_per_turn() or None) or 0)

    @property
    def timeouts_before_removal(self) -> int:
        """Timeouts in a row after which a person is removed
        (`Rule.timeouts_before_removal`): a house rule's answer before a
        shared rule's; 0 (never) when no rule says."""
        return max(int(self._first_answer(lambda rule: rule.timeouts_before_removal()) or 0), 0)

    def _first_answer(self, ask: Callable[[Rule], int | None]) -> int | None:
        """The first answer that is not None among the rules in force, a house
        rule's before a shared rule's (`Rule.base`): how a question every rule
        may answer, and a house rule may override, is asked."""
        for rule in sorted(self.rules.values(), key=lambda r: r.base):
            answer = ask(rule)
            if answer is not None:
                return answer
        return None

    @property
    def lowest_score_wins(self) -> bool:
        """Whether a rule in force ranks a lower score better (progressive
        scoring; `Rule.lowest_score_wins`): what orders the scores shown and
        the players' records, asked of the rules, never by a rule's name."""
        return any(getattr(rule, "lowest_score_wins", False) for rule in self.rules.values())

    def _compile(self, name: str, keep: Any = None) -> Any:
        caller = getattr(self.pm.hook, name)
        spec = caller.spec
        argnames = list(spec.argnames)
        impls = caller.get_hookimpls()
        if keep is not None and not any(i.hookwrapper or i.wrapper for i in impls):
            impls = [i for i in impls if keep(i)]
        if any(i.hookwrapper or i.wrapper for i in impls):
            def slow(*args: Any) -> Any:
                return caller(**dict(zip(argnames, args)))
            slow.__name__ = name
            return slow
        firstresult = spec.opts.get("firstresult", False)
        if firstresult and len(impls) == 1 and list(impls[0].argnames) == argnames:
            # One implementation taking every argument: call it directly.
            return impls[0].function
        ns: dict[str, Any] = {}
        lines = []
        if not firstresult:
            lines.append("    out = []\n")
        for i, impl in enumerate(reversed(impls)):
            ns[f"f{i}"] = impl.function
            call = f"f{i}({', '.join(impl.argnames)})"
            if firstresult:
                lines.append(f"    r = {call}\n    if r is not None:\n        return r\n")
            else:
                lines.append(f"    r = {call}\n    if r is not None:\n        out.append(r)\n")
        if firstresult:
            src = _FIRSTRESULT_TEMPLATE.format(name=name, args=", ".join(argnames), body="".join(lines))
        else:
            src = f"def {name}({', '.join(argnames)}):\n{''.join(lines)}    return out\n"
        exec(compile(src, f"<ruleset {self.variant}:{name}>", "exec"), ns)
        return ns[name]


def _refined(batch: Callable[..., list[Any]], keeps: list[Any]) -> Callable[..., list[Any]]:
    """`batch` (one rule's `cards_that_fit`) less what each refusing rule
    refuses. Exact because those rules' `card_fits` never says yes (only no
    or nothing), so which one is asked first does not matter."""
    if not keeps:
        return batch
    # One refusing rule is the common case (no-bluffing alone, RLCard's
    # rules): called directly, without the loop of several.
    keep = keeps[0] if len(keeps) == 1 else _keep_all(keeps)

    def cards_that_fit(state: Any, player: int, cards: Any) -> list[Any]:
        fitting = batch(state, player, cards)
        return keep(state, player, fitting) if fitting else fitting

    return cards_that_fit


def _batched(impls: list[Any], method: str, combine: Callable[..., Any]) -> Callable[..., Any] | None:
    """A hook's batch form for a whole hand (`method` of every rule that
    implements it, in the hook's calling order), or None when one does not
    offer it or wraps the hook."""
    if not impls or any(i.hookwrapper or i.wrapper for i in impls):
        return None
    found = [getattr(i.plugin, method, None) for i in reversed(impls)]  # pluggy calls the last first
    if any(f is None for f in found):
        return None
    # A batch marked `names_none` always answers nothing (matching's
    # cards_targets): left out, so that seven-o's is called alone.
    found = [f for f in found if not getattr(f, "names_none", False)] or found[:1]
    return found[0] if len(found) == 1 else combine(found)


def _keep_all(keeps: list[Any]) -> Callable[..., Any]:
    """Several refusing rules' batch answers as one: each takes out what it
    refuses from what the ones before left, until nothing is left."""

    def keep_plays(state: Any, player: int, cards: Any) -> Any:
        for keep in keeps:
            if not cards:
                break
            cards = keep(state, player, cards)
        return cards
    return keep_plays


def _first_targets(batches: list[Callable[..., Any]]) -> Callable[..., Any]:
    def cards_targets(state: Any, player: int, cards: Any) -> dict[Any, Any]:
        named: dict[Any, Any] = {}
        for batch in reversed(batches):  # the first asked has the last word, as firstresult
            named.update(batch(state, player, cards))
        return named
    return cards_targets


def _checks(impl: Any, kind: str) -> bool:
    """Does this check_move implementation look at moves of `kind`?"""
    kinds = getattr(impl.plugin, "checks", None)
    return kinds is None or kind in kinds


def fingerprint(enabled: list[tuple[type[Rule], Any]]) -> str:
    """A short digest of the resolved rules and options, stored with each game."""
    desc = sorted((cls.name, repr(opts)) for cls, opts in enabled)
    return hashlib.blake2b(json.dumps(desc).encode(), digest_size=4).hexdigest()
