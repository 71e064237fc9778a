"""The engine: start a game, list legal moves, apply a move.

Why one module of about 540 lines: starting, listing legal moves and
applying them share the hot path's private helpers (the cached move
objects, the legal-move list the next `apply` trusts); split apart, every
move would pay an import indirection and the helpers would become API.

`apply(state, move) -> (new_state, events)` never changes the game data of
the state it is given (unless the caller, who owns that state, asks with
`inplace=True`), and a refused move raises `MoveError` with a stable code
before anything changes. Every rule decision is asked of the variant's
compiled `RuleSet`; the engine itself knows only the shape of a turn (who
may move, that a card leaves a hand and lands on the pile, that a wild
names a colour).

What the engine writes into a state it is given, exactly (the OpenSpiel
split: the game's rules are compiled once and shared, the state is plain
data; these are caches beside the data, never serialized or compared):

- `state.rules`: the compiled rule set, attached by `rules_of` on first use
  and carried by clones;
- `state.rule_spec` and `state.fingerprint`: filled once by `rules_of` for a
  state that does not have them yet (a new game, or one saved before games
  kept their rules); they are then part of the data and never change;
- `state.legal`: the legal moves of the player to move, set by
  `legal_moves`, so that `apply` of one of those very move objects skips the
  checks they passed (cleared by every change).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from .actions import shuffle
from .cards import COLORS, Card
from .errors import (
    BAD_TARGET,
    COLOR_REQUIRED,
    DOES_NOT_FIT,
    NAME_COLOR_FIRST,
    NO_COLOR_TO_NAME,
    NO_SUCH_MOVE,
    NOT_ALLOWED,
    NOT_IN_HAND,
    NOT_YOUR_TURN,
    ONLY_DRAWN_CARD,
    PENDING_DRAW,
    ROUND_OVER,
    TARGET_REQUIRED,
    UNEXPECTED_COLOR,
    UNEXPECTED_TARGET,
    UNKNOWN_PLAYER,
    MoveError,
)
from .events import (
    CARD_PLAYED,
    CARDS_DRAWN,
    JUMPED_IN,
    PASSED,
    PENALTY_TAKEN,
    ROUND_STARTED,
    STARTER,
    TIMED_OUT,
    TURN,
    Event,
)
from .moves import (
    CATCH,
    CHALLENGE,
    COLOR,
    DRAW,
    KINDS,
    PASS,
    PLAY,
    UNO,
    Move,
    catch_move,
    color_move,
    play_move,
    simple_move,
)
from .plain_turn import PlainMoves, drawn_fits, plain_step, use_can_play
from .rule_failure import raise_rule_failure, refusing_rule_failures
from .ruleset import RuleSet
from .state import PLAYING, GameState
from .variants import rules_for, rules_from_spec

__all__ = [
    "apply", "awaiting_color", "legal_moves", "new_game", "next_round", "play_moves",
    "remove_player", "rules_of", "timeout", "setup_round", "deal_round",
]


def rules_of(state: GameState) -> RuleSet:
    """The state's compiled rules.

    A game keeps the rules it started with: they are saved in the state
    (`rule_spec`) and compiled from there, whatever the variant's file says
    today. A state without them (a new game, or one saved before they were
    kept) resolves its variant once and records them. The compiled set is a
    cache on the object (`state.rules`, carried by clones), never data.
    """
    rules: RuleSet | None = state.rules
    if rules is None:
        if state.rule_spec:
            rules = rules_from_spec(state.variant, state.rule_spec)
        else:
            rules = rules_for(state.variant, state.overrides or None)
            state.rule_spec = rules.spec
        state.fingerprint = rules.fingerprint
        state.rules = rules
    return rules


# -- starting -------------------------------------------------------------------

@refusing_rule_failures
def new_game(variant: str, players: list[str], seed: int = 0,
             overrides: dict[str, Any] | None = None, dealer: int | None = None,
             rule_spec: list[list[Any]] | None = None) -> tuple[GameState, list[Event]]:
    """A new match: shuffle the variant's deck with `seed` and deal round one.

    `rule_spec` deals under rules saved before (a replay), not the variant's
    file as it is today."""
    if len(players) < 2:
        raise ValueError("a game needs at least two players")
    if len(set(players)) != len(players):
        raise ValueError("player names must be different")
    state = GameState(variant, players, seed, overrides)
    if rule_spec:
        state.rule_spec = [list(item) for item in rule_spec]
    if dealer is not None:
        state.dealer = dealer % len(players)
    rules = rules_of(state)
    events: list[Event] = []
    rules.round_start(state, None, events)
    deck = _deck(rules, len(state.active()))
    shuffle(state, deck)
    events += deal_round(state, deck)
    return state, events


def _deck(rules: RuleSet, players: int) -> list[Card]:
    """The deck for a round: `build_deck`, plus every rule's `more_cards`."""
    deck = list(rules.build_deck(players))
    for extra in rules.more_cards(players):
        deck.extend(extra)
    return deck


@refusing_rule_failures
def next_round(state: GameState) -> tuple[GameState, list[Event]]:
    """After a round (not the match) ended: the next dealer deals a new round."""
    s = state.clone()
    rules = rules_of(s)
    n = len(s.players)
    s.dealer = (s.dealer + 1) % n
    s.round += 1
    s.hands = [[] for _ in range(n)]
    s.draw_pile, s.discard = [], []
    _reset_round(s)
    events: list[Event] = []
    rules.round_start(s, state, events)
    deck = _deck(rules, len(s.active()))
    shuffle(s, deck)
    return s, events + deal_round(s, deck)


def _reset_round(s: GameState) -> None:
    s.direction = 1
    s.color = None
    s.pending = 0
    s.pending_rank = ""
    s.drawn = None
    s.draws = 0
    s.uno = 0
    s.exposed = -1
    s.out = []
    s.winner = -1
    s.phase = PLAYING
    s.ext = {}


def deal_round(state: GameState, deck_top_first: list[Card]) -> list[Event]:
    """Deal from `deck_top_first` (card 0 is the top): the variant's hand size
    one card at a time from the player after the dealer, then turn the starter
    and let the first-card rule apply. Mutates `state` (a fresh one)."""
    rules = rules_of(state)
    n = len(state.players)
    dealt = [s for s in range(n) if s not in state.out]  # seats a rule put out are dealt nothing
    size = rules.hand_size(state)
    if len(deck_top_first) < size * len(dealt) + 1:
        raise ValueError(f"a deck of {len(deck_top_first)} cards cannot deal {size} to {len(dealt)} players")
    pos = 0
    first = rules.next_turn(state, state.dealer, 0)
    order = dealt[dealt.index(first):] + dealt[:dealt.index(first)]
    for _ in range(size):
        for seat in order:
            state.hands[seat].append(deck_top_first[pos])
            pos += 1
    starter = deck_top_first[pos]
    state.draw_pile = list(reversed(deck_top_first[pos + 1:]))
    state.discard = [starter]
    state.turn = first
    state.color = starter.color
    events = [Event(ROUND_STARTED, state.dealer, n=state.round), Event(STARTER, card=starter)]
    rules.first_card(state, starter, events)
    events.append(Event(TURN, state.turn))
    return events


def setup_round(variant: str, players: list[str], hands: list[list[Card]], discard: list[Card],
                draw_top_first: list[Card], turn: int = 0, direction: int = 1,
                color: str | None = None, seed: int = 0,
                overrides: dict[str, Any] | None = None) -> GameState:
    """A table laid out card by card (scenario files, tests, puzzles)."""
    state = GameState(variant, players, seed, overrides)
    rules_of(state)
    state.hands = [list(h) for h in hands]
    state.discard = list(discard)
    state.draw_pile = list(reversed(draw_top_first))
    state.turn = turn
    state.direction = direction
    top = state.top
    state.color = color if color is not None else (top.color if top is not None else None)
    return state


# -- moves ----------------------------------------------------------------------

def awaiting_color(state: GameState) -> bool:
    """Is the round waiting for the first player to name the colour of a
    Wild starter? (No colour is in play; the only move is `color`.)"""
    return state.color is None and state.phase == PLAYING and bool(state.discard) \
        and state.discard[-1].is_wild


def _check(state: GameState, rules: RuleSet, move: Move) -> None:
    if state.phase != PLAYING:
        raise MoveError(ROUND_OVER)
    player = move.player
    if not 0 <= player < len(state.players) or player in state.out:
        raise MoveError(UNKNOWN_PLAYER)
    if awaiting_color(state):
        if move.kind != COLOR:
            raise MoveError(NAME_COLOR_FIRST if player == state.turn else NOT_YOUR_TURN)
        if player != state.turn:
            raise MoveError(NOT_YOUR_TURN)
        if move.color is None:
            raise MoveError(COLOR_REQUIRED)
    elif move.kind == COLOR:
        raise MoveError(NO_COLOR_TO_NAME)
    if move.kind != PLAY:
        if not rules.has_move(move.kind):
            raise MoveError(NO_SUCH_MOVE)
        verdict = rules.check_move(state, move)
        if verdict is not True:
            raise MoveError(verdict if isinstance(verdict, str) else NOT_ALLOWED)
        return
    card = move.card
    assert card is not None
    code = _play_code(state, rules, player, card)
    if code is not None:
        raise MoveError(code)
    if card.is_wild:
        if move.color is None and (rules.wild_colour_named or rules.wild_colours(state, player, card)[0] is not None):
            raise MoveError(COLOR_REQUIRED)
    elif move.color is not None:
        raise MoveError(UNEXPECTED_COLOR)
    targets = rules.card_targets(state, player, card)
    if targets is None:
        if move.target is not None:
            raise MoveError(UNEXPECTED_TARGET)
    elif move.target not in targets:
        raise MoveError(TARGET_REQUIRED if move.target is None else BAD_TARGET)
    if rules.play_checks:
        verdict = rules.check_by_kind[PLAY](state, move)
        if isinstance(verdict, str):
            raise MoveError(verdict)


def _play_code(state: GameState, rules: RuleSet, player: int, card: Card) -> str | None:
    """Why `player` may not play `card` now (the shape of a turn plus
    `can_jump_in` and `card_fits`), or None."""
    in_hand = card in state.hands[player]
    if player != state.turn:
        return None if in_hand and rules.can_jump_in(state, player, card) else NOT_YOUR_TURN
    if not in_hand:
        return NOT_IN_HAND
    drawn = state.drawn
    if drawn is not None and card is not drawn and not state.pending:
        return ONLY_DRAWN_CARD
    if not rules.card_fits(state, player, card):
        if state.pending:
            return PENDING_DRAW
        return rules.fit_refusal(state, player, card) or DOES_NOT_FIT
    return None


def apply(state: GameState, move: Move, *, inplace: bool = False) -> tuple[GameState, list[Event]]:
    """Apply one move; return the new state and what happened.

    `inplace=True` changes and returns `state` itself instead of a copy: for
    callers that drop the old state anyway (simulations, the chat service,
    which decodes a fresh state per command). A refused move still changes
    nothing, since every check runs before the first change. A rule whose
    hook raises refuses the move with `RuleFailure` (code `rule_failed`,
    naming the rule, its file and line): an in-place state may then be
    half changed, and the caller drops it, as the chat service drops its
    copy of the table on any refusal.
    """
    rules = state.rules or rules_of(state)
    try:
        legal = state.legal
        if legal is not None:
            for m in legal:  # noqa: SIM110 - is this very move object one legal_moves listed?
                if m is move:
                    break
            else:
                legal = None
        if legal.__class__ is PlainMoves:
            # A move of a plain turn (every one of them of a core kind): the
            # shared rules' answer without the hooks, unless the move itself
            # needs them (the last card, a target).
            if inplace:
                s = state
                s.legal = None
            else:
                s = state.clone()
            plain = plain_step(s, move, rules)
            if plain is not None:
                s.moves += 1
            else:
                plain = _apply_hooks(s, rules, move)
            if move.kind == DRAW:
                _if_blocked(s, rules, move.player, plain)
            return s, plain
        if legal is None:
            _check(state, rules, move)
        if inplace and move.kind in KINDS:
            s = state
            s.legal = None
        else:
            s = state.clone()
        events = _apply_hooks(s, rules, move)
        if move.kind == DRAW:
            _if_blocked(s, rules, move.player, events)
        return s, events
    except Exception as exc:  # a rule's hook raised: refused, naming it (core/rule_failure.py)
        raise_rule_failure(exc)


def _got_cards(player: int, events: list[Event]) -> bool:
    """Whether `player` took a card in these events (a draw or a penalty)."""
    for e in events:  # noqa: SIM110 - one or two events: a loop, not a generator
        if e.player == player and e.n > 0 and (e.kind == CARDS_DRAWN or e.kind == PENALTY_TAKEN):
            return True
    return False


def _if_blocked(s: GameState, rules: RuleSet, player: int, events: list[Event]) -> None:
    """After a draw that brought `player` no card: when the round is blocked
    (`blocked`), let the rules end it (`round_blocked`). Asked only then, so
    an ordinary draw pays one look at its events."""
    if s.phase == PLAYING and not s.pending and not _got_cards(player, events) and blocked(s):
        rules.round_blocked(s, events)


def blocked(state: GameState) -> bool:
    """Whether the round can never move on: taking every seat's turn once
    from here, nobody may play a card, and each one's draw brings no card
    (a hand limit, or both piles empty), so the table would come back to
    exactly this state, for ever (a trap: like RULES.md §6's player with no
    legal move, a round that cannot end is one no rule set may make).

    Played out on a copy, through the rules, so whatever they say a draw or
    a play is counts; anything but draws and passes that bring nothing
    (a card played or offered, a colour to name, a total pending, a card
    drawn) means the round can go on.
    """
    rules = state.rules or rules_of(state)
    s = state.clone()
    for _ in range(len(s.active())):
        if s.phase != PLAYING or s.pending:
            return False
        player = s.turn
        s.legal = None
        moves = legal_moves(s, player)
        kinds = {m.kind for m in moves}
        if PLAY in kinds or COLOR in kinds or CHALLENGE in kinds or DRAW not in kinds:
            return False
        events = _apply_hooks(s, rules, simple_move(DRAW, player))
        if _got_cards(player, events):
            return False
        if s.phase == PLAYING and s.turn == player:  # the rules keep the turn: a pass ends it, or nothing does
            s.legal = None
            if simple_move(PASS, player) not in legal_moves(s, player):
                return False
            _apply_hooks(s, rules, simple_move(PASS, player))
    return s.phase == PLAYING


def _apply_hooks(s: GameState, rules: RuleSet, move: Move) -> list[Event]:
    """`apply` through the hooks, to `s` (a copy, or the caller's own state)."""
    events: list[Event] = []
    kind = move.kind
    player = move.player
    if kind == PLAY:
        _play(s, rules, move, events)
    elif kind == DRAW:
        rules.on_draw(s, player, events)
    elif kind == PASS:
        rules.on_pass(s, player, events)
    elif kind == UNO:
        rules.on_uno(s, player, events)
    elif kind == CATCH:
        rules.on_catch(s, player, move.target, events)
    elif kind == CHALLENGE:
        rules.on_challenge(s, player, events)
    elif kind == COLOR:
        rules.on_wild(s, move, move.color, events)
    elif not rules.on_move(s, move, events):
        raise MoveError(NOT_ALLOWED)  # a plugin kind nobody applies (s is a copy, or unchanged)
    rules.after_move(s, move, events)
    s.moves += 1
    return events


def _play(s: GameState, rules: RuleSet, move: Move, events: list[Event]) -> None:
    player = move.player
    card = move.card
    assert card is not None
    rules.before_play(s, move, events)
    if player != s.turn:
        events.append(Event(JUMPED_IN, player, card))
        s.turn = player
        s.drawn = None
        s.draws = 0
    hand = s.hands[player]
    hand.remove(card)
    s.discard.append(card)
    events.append(Event(CARD_PLAYED, player, card))
    if card.is_wild:
        rules.on_wild(s, move, move.color, events)
    else:
        s.color = card.color
    rules.on_play(s, move, card, events)
    if not hand:
        rules.on_go_out(s, player, events)


def legal_moves(state: GameState, player: int) -> list[Move]:
    """Every move `player` may make now, each one accepted by `apply`.

    The list for the player to move is remembered on the state (states are
    never changed once made), so `apply` of one of these moves skips the
    checks it already passed. This is the engine's hottest function: in a
    plain turn (core/plain_turn.py) it filters the hand with the rule set's
    set of the cards that fit and reuses move objects; any other turn is
    `_hook_moves`.

    Why the odd shape (measured on CPython 3.11): the plain turn is this
    whole body, and everything else a call away. Kept in one function with
    the hook path, its jumps grew too long for the interpreter to specialise
    the comparisons along them; a comprehension made `player` a closure cell
    and built a function object every turn. The loops below are that
    comprehension unrolled (a quarter less for a six-card hand, measured).
    """
    try:  # a rule that raises while asked refuses with `RuleFailure` (core/rule_failure.py), as in `apply`
        rules = state.rules
        if rules is None:
            if state.phase != PLAYING:
                return []
            rules = rules_of(state)
        exposed = state.exposed
        if not rules.plain_turn or player != state.turn or state.pending or state.ext \
                or state.phase != PLAYING or state.color is None or player in state.out \
                or exposed >= 0 and (exposed == player or not rules.plain_uno):
            return _hook_moves(state, player)
        drawn = state.drawn
        hand = state.hands[player]
        try:
            seat = _SEATS[player]
        except IndexError:
            seat = _seat_moves(player)
        fitting: Collection[Card]
        if drawn is None:
            if state.draws:
                return _hook_moves(state, player)
            last = seat.draw
            fits = rules.plain_fits
            if fits is None:
                fitting = dict.fromkeys(rules.cards_that_fit(state, player, hand))
            else:
                # The rule set's answer for a whole hand (RuleSet.plain_fits),
                # filtered here: a call into the rules less a turn.
                fits = fits(state, player)
                found: dict[Card, None] = {}  # a card held twice is one play, in the hand's order
                for card in hand:
                    if card in fits:
                        found[card] = None
                fitting = found
                keep = rules.plain_keep
                if found and keep is not None:
                    refusable = rules.plain_refusable
                    if refusable is None or not refusable.isdisjoint(found):
                        fitting = keep(state, player, found)
        elif state.draws == 1:
            last = seat.pass_
            fitting = (drawn,) if drawn in hand and drawn_fits(state, player, drawn, rules) else ()
        else:
            return _hook_moves(state, player)
        plain = PlainMoves()
        if fitting:
            if not rules.simple_plays:
                _plays(state, rules, player, list(fitting), plain)
            else:
                plays = seat.plays
                for card in fitting:  # no card twice (a dict, or the drawn card)
                    plain += plays[card]
        if not (plain and (rules.plain_must_play if last is seat.draw else rules.plain_force_play)):
            plain.append(last)  # must-play: no draw while a card fits; force-play: no pass
        if len(hand) == 2 and rules.plain_uno and not state.uno >> player & 1:
            plain.append(seat.uno)  # uno-call: said with the next-to-last card
        if exposed >= 0:
            plain.append(catch_move(player, exposed))  # uno-call: who forgot it may be caught
        state.legal = plain
        return plain
    except Exception as exc:  # a rule's hook raised: refused, naming it (core/rule_failure.py)
        raise_rule_failure(exc)


def _hook_moves(state: GameState, player: int) -> list[Move]:
    """`legal_moves` outside a plain turn: every rule asked (or, out of turn
    while no rule keeps data for the round, uno-call's offers)."""
    if state.phase != PLAYING or player in state.out:
        return []
    rules = state.rules or rules_of(state)
    if state.color is None and awaiting_color(state):
        return [color_move(player, c) for c in _starter_colours(state, rules, player)] if player == state.turn else []
    exposed = state.exposed
    if player != state.turn:
        moves = []
        if rules.plain_turn and not state.ext:
            # Out of turn with no rule data (core/plain_turn.py): uno-call's
            # offers are all there is.
            if rules.plain_uno:
                size = len(state.hands[player])
                if size == 2 and not state.uno >> player & 1 or size == 1 and exposed == player:
                    moves.append(simple_move(UNO, player))
                if exposed >= 0 and exposed != player:
                    moves.append(catch_move(player, exposed))
            return moves
        for extra in rules.extra_moves(state, player):
            moves.extend(extra)
        return moves
    moves = play_moves(state, player, rules)
    seat = _seat_moves(player)
    if rules.check_draw(state, seat.draw) is True:
        moves.append(seat.draw)
    if rules.check_pass(state, seat.pass_) is True:
        moves.append(seat.pass_)
    for extra in rules.extra_moves(state, player):
        moves.extend(extra)
    state.legal = moves
    return moves


def play_moves(state: GameState, player: int, rules: RuleSet | None = None) -> list[Move]:
    """The plays the whole rule set accepts now from the player to move:
    `card_fits`, every `check_move` and the card's targets (RULES.md §6:
    "playable" always means this). Rules that force or forbid drawing
    (must play, forced stacking, force play) ask this, so that a card that
    fits but that another rule refuses never traps a player.
    """
    if state.phase != PLAYING or player != state.turn or awaiting_color(state):
        return []
    if rules is None:
        rules = state.rules or rules_of(state)
    drawn = state.drawn
    hand = state.hands[player]
    if drawn is not None and not state.pending:
        cards: Iterable[Card] = (drawn,) if drawn in hand else ()
    elif rules.cards_that_fit is rules._fitting:
        cards = dict.fromkeys(hand)  # card_fits asked once a kind of card
    else:
        cards = hand  # one batch call: a set lookup a card, then the fitting ones made unique
    moves: list[Move] = []
    fitting = rules.cards_that_fit(state, player, cards)
    if cards is hand and len(fitting) > 1:
        fitting = list(dict.fromkeys(fitting))
    if fitting:
        if not rules.simple_plays:
            _plays(state, rules, player, fitting, moves)
        else:
            table = _seat_moves(player).plays
            for card in fitting:
                moves += table[card]
    return moves


def can_play(state: GameState, player: int) -> bool:
    """Has the player to move any play the whole rule set accepts now?"""
    rules = state.rules or rules_of(state)
    if not (rules.play_checks or rules.targets_possible):
        # Only card_fits has a say: no move objects needed (the drawn-card check).
        if state.phase != PLAYING or player != state.turn or awaiting_color(state):
            return False
        drawn = state.drawn
        if drawn is not None and not state.pending:
            cards: Iterable[Card] = (drawn,) if drawn in state.hands[player] else ()
        else:
            cards = state.hands[player]
        return bool(rules.cards_that_fit(state, player, cards))
    return bool(play_moves(state, player, rules))


use_can_play(can_play)  # the plain turn's drawn-card check asks the engine, without importing it back


def _plays(state: GameState, rules: RuleSet, player: int, cards: Collection[Card], moves: list[Move]) -> None:
    """Play moves for fitting cards when rules refuse plays or name targets.

    Where every rule with a say answers for the whole hand at once
    (`RuleSet.keep_plays`, `RuleSet.targets_of`), it is asked once, not once
    a card: what kept a rich variant's move growing with the hand."""
    if rules.play_checks:
        keep = rules.keep_plays
        if keep is not None:
            cards = keep(state, player, cards)
        else:
            check = rules.check_by_kind[PLAY]
            cards = [c for c in cards if not isinstance(check(state, play_move(player, c)), str)]
    table = _seat_moves(player).plays
    if not rules.targets_possible:
        for card in cards:
            if card.is_wild and not rules.wild_colour_named:
                _targeted(player, card, [None], moves, rules.wild_colours(state, player, card))
            else:
                moves += table[card]
        return
    targets_of = rules.targets_of
    if targets_of is None:
        for card in cards:
            _expand(state, rules, player, card, moves)
        return
    named = targets_of(state, player, cards)
    for card in cards:
        targets = named.get(card)
        if targets is None and not (card.is_wild and not rules.wild_colour_named):
            moves += table[card]
        else:
            _targeted(player, card, [None] if targets is None else targets, moves, _colours(state, rules, player, card))


class _SeatMoves:
    """One seat's shared move objects, for the plain turn's listing."""

    __slots__ = ("draw", "pass_", "uno", "plays")

    def __init__(self, player: int) -> None:
        self.draw = simple_move(DRAW, player)
        self.pass_ = simple_move(PASS, player)
        self.uno = simple_move(UNO, player)
        #: card -> its untargeted play moves (no key tuple to build per card)
        self.plays = _Plays(player)


class _Plays(dict[Card, tuple[Move, ...]]):
    """A seat's untargeted play moves by card, made on first use (`plays[card]`
    is one C lookup a card in the hot path, with no miss to test for)."""

    __slots__ = ("player",)

    def __init__(self, player: int) -> None:
        super().__init__()
        self.player = player

    def __missing__(self, card: Card) -> tuple[Move, ...]:
        colors: tuple[str | None, ...] = COLORS if card.is_wild else (None,)
        found = self[card] = tuple(play_move(self.player, card, c) for c in colors)
        return found


_SEATS: list[_SeatMoves] = []


def _seat_moves(player: int) -> _SeatMoves:
    while len(_SEATS) <= player:
        _SEATS.append(_SeatMoves(len(_SEATS)))
    return _SEATS[player]


def _expand(state: GameState, rules: RuleSet, player: int, card: Card, out: list[Move]) -> None:
    """A playable card becomes one move per colour (wild) and target (7-0)."""
    targets = rules.card_targets(state, player, card)
    if targets is None and (rules.wild_colour_named or not card.is_wild):
        out.extend(_seat_moves(player).plays[card])
        return
    _targeted(player, card, [None] if targets is None else targets, out, _colours(state, rules, player, card))


def _starter_colours(state: GameState, rules: RuleSet, player: int) -> tuple[str, ...]:
    """The colours a Wild starter may be named: the four, or those a rule
    that gives wilds their colour says are worth naming (a rule that leaves
    none settles it at the deal; should it not, all four are offered)."""
    if rules.wild_colour_named:
        return COLORS
    return tuple(c for c in rules.wild_colours(state, player, state.discard[-1]) if c is not None) or COLORS


def _colours(state: GameState, rules: RuleSet, player: int, card: Card) -> tuple[str | None, ...]:
    """A card's colour choices: none but a wild's, and a wild's as the rules
    in force narrow them (`Rule.wild_colours`: none left, the play names none)."""
    if not card.is_wild:
        return (None,)
    return COLORS if rules.wild_colour_named else rules.wild_colours(state, player, card)


def _targeted(player: int, card: Card, targets: list[int | None], out: list[Move],
              colors: tuple[str | None, ...] | None = None) -> None:
    """A card's play moves naming each of `targets`, in each of `colors`
    (default: a wild's four)."""
    if colors is None:
        colors = COLORS if card.is_wild else (None,)
    for color in colors:
        out.extend(play_move(player, card, color, t) for t in targets)


def expand_play(state: GameState, player: int, card: Card) -> list[Move]:
    """The legal full forms of playing `card` (for rules listing extra moves,
    such as jump-in): one per colour and target, less those a rule's
    `check_move` refuses (RULES.md §6: a play is legal only when the whole
    rule set accepts it, out of turn too)."""
    rules = rules_of(state)
    out: list[Move] = []
    _expand(state, rules, player, card, out)
    if rules.play_checks:
        check = rules.check_by_kind[PLAY]
        out = [m for m in out if not isinstance(check(state, m), str)]
    return out


@refusing_rule_failures
def timeout(state: GameState) -> tuple[GameState, list[Event]]:
    """The current player's turn timer ran out: apply what `on_timeout` says
    until the turn has passed (by default: name a starter's colour if needed,
    then take the penalty, or draw one card and pass).

    A timeout always moves the game on (RULES.md §6): when the moves the
    rules offer do not pass the turn (a turn that must end with a card
    played), the player takes the pending total or draws one card, and the
    turn passes anyway.
    """
    from .actions import advance, draw_cards, take_pending

    rules = rules_of(state)
    player = state.turn
    events = [Event(TIMED_OUT, player)]
    s = state
    drew = False
    for _ in range(8):
        if s.phase != PLAYING or s.turn != player:
            return s, events
        move = rules.on_timeout(s, player)
        if move is None:
            break
        drew = drew or move.kind == DRAW
        s, more = apply(s, move)
        events.extend(more)
    if s.phase == PLAYING and s.turn == player:
        s = s.clone() if s is state else s
        forced: list[Event] = []
        if s.pending:
            take_pending(s, player, forced)
        elif not drew:
            draw_cards(s, player, 1, forced)
        if s.color is None and s.discard and s.discard[-1].is_wild:
            s.color = COLORS[0]
        forced.append(Event(PASSED, player))
        advance(s)
        rules.after_move(s, simple_move(DRAW, player), forced)  # the rules' bookkeeping, as for a draw
        forced.append(Event(TURN, s.turn))
        events.extend(forced)
        s.moves += 1
    return s, events


@refusing_rule_failures
def remove_player(state: GameState, seat: int) -> tuple[GameState, list[Event]]:
    """A player leaves a running round (left, kicked, timed out too often).

    Their cards go under the draw pile, the seat is passed over from now on,
    a penalty pending on them lapses, and when one player is left that
    player wins the round. The seat has left the match too
    (`state.match["left"]`): when one player is left in it, the match ends
    (`end_match`, reason `left`; `match_end` is told once).
    """
    from .actions import LEFT, end_match, end_round
    from .events import PLAYER_LEFT

    s = state.clone()
    rules = rules_of(s)
    events = [Event(PLAYER_LEFT, seat)]
    if s.phase != PLAYING or seat in s.out:
        return s, events
    s.draw_pile[0:0] = s.hands[seat]
    s.hands[seat] = []
    s.ext = {**s.ext, "left": [*s.ext.get("left", []), seat]}
    was_turn = s.turn == seat
    s.out.append(seat)
    if s.exposed == seat:
        s.exposed = -1
    if was_turn:
        s.pending = 0
        s.pending_rank = ""
        s.turn = rules.next_turn(s, seat, 0)
        s.drawn = None
        s.draws = 0
    gone = s.match.get("left", [])
    if seat not in gone:
        s.match = {**s.match, "left": [*gone, seat]}
    active = s.active()
    if len(active) == 1:
        end_round(s, active[0], events)
        staying = [p for p in range(len(s.players)) if p not in s.match["left"]]
        if len(staying) == 1:
            end_match(s, staying[0], LEFT, events)  # nobody left to play another round with
    elif was_turn:
        events.append(Event(TURN, s.turn))
    s.moves += 1
    return s, events
