"""The rule-of-thumb levels: `easy`, `normal`, `hard`.

Every level chooses among the engine's legal moves (plugin moves too: a
move that puts several cards down is scored as those cards leaving the
hand, plus what its rule says it is worth, `Rule.move_value`, or what it
does to the hand on a copy: `worth`), so it plays every variant and house
rule and never an illegal move. Every level says UNO with a move that
leaves it one card (`says_uno_with`: the chat and the simulator make the
move "with UNO", as a person's).

- `normal`: sound habits. Says UNO and catches; plays rather than draws;
  keeps wilds for when nothing else fits and never bluffs a Wild Draw Four;
  follows the colour it holds most; when an opponent is close to going out,
  hits the next one with skips and draw cards and dumps its high cards;
  answers a stack rather than take it; challenges a Wild Draw Four when the
  odds (its hand, the cards seen) say it is likely a bluff.
- `hard`: `normal` plus counting. It knows which cards are still unseen,
  which colours each opponent drew on rather than follow, their counts; it
  names and changes to colours the next player is unlikely to hold, and its
  challenges learn how often each player at this table bluffed. With three
  seats or more it weighs who plays next (`handing_risk`): a seat close to
  going out that likely follows the card left is handed the turn last.
- `easy`: `normal` making a person's mistakes on purpose: a card picked
  without looking ahead (any that fits, in the wrong colour), an UNO
  forgotten now and then, a catch missed, a challenge only when sure. Its
  mistakes are always legal moves.
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections import Counter

from ..cards import COLORS, REVERSE, SKIP, Card
from ..cards import KINDS as PLUGIN_KINDS
from ..engine import apply
from ..errors import MoveError
from ..events import Event
from ..moves import CATCH, CHALLENGE, COLOR, DRAW, KINDS, PASS, PLAY, UNO, Move
from ..state import GameState
from .knowledge import TableMemory, bluff_chance, colour_counts, p_follows, p_holds, unseen


def cards_of(move: Move) -> tuple[Card, ...]:
    """The cards a move puts down (a play's card, a plugin move's several)."""
    if move.card is None:
        return ()
    return (move.card, *move.cards)


def is_play(move: Move) -> bool:
    """A move that puts cards down: a play, or a plugin's move with cards."""
    return move.card is not None and (move.kind == PLAY or move.kind not in KINDS)


def system_kinds(state: GameState) -> frozenset[str]:
    """Move kinds only the chat applies (a round clock): never chosen."""
    rules = state.rules
    if rules is None:
        return frozenset()
    key = rules.fingerprint
    found = _SYSTEM.get(key)
    if found is None:
        found = _SYSTEM[key] = frozenset(
            k for r in rules.rules.values() for k in getattr(r, "system_moves", ()))
    return found


#: By rule set (its fingerprint): the move kinds its rules keep for the chat.
_SYSTEM: dict[str, frozenset[str]] = {}


def next_seat(state: GameState, player: int) -> int:
    rules = state.rules
    if rules is not None:
        return int(rules.next_turn(state, player, 0))
    return (player + state.direction) % len(state.players)


def seat_after(state: GameState, player: int, card: Card) -> int:
    """The seat that plays after `player` puts `card` down, by the official
    effects (a Skip or a draw card passes over the next seat, a Reverse with
    three seats or more turns play back). A variant's own effects may differ:
    this only weighs a play, the engine still decides what is legal."""
    rules = state.rules
    skip = 1 if card.draw or card.rank == SKIP else 0
    if card.rank == REVERSE and not card.is_wild:
        if len(state.active()) > 2:
            turned = copy.copy(state)  # a shallow copy: only the direction differs
            turned.direction = -state.direction
            state = turned
        else:
            skip = 1
    if rules is not None:
        return int(rules.next_turn(state, player, skip))
    return (player + state.direction * (1 + skip)) % len(state.players)


#: A card out of the hand in `score_plays`' points (a move's cards beyond
#: the first count this much each): what a move's worth in cards weighs.
CARD = 9.0


def worth(state: GameState, player: int, move: Move) -> float | None:
    """What `move` is worth to `player` beyond the cards it puts down, in
    cards: the rules' answer (`Rule.move_value`); else, for a rule's own
    kind of move or a play of a rule's own card, how it leaves the hand,
    tried on a copy (a card it makes the player draw counts against it, a
    hand swapped for a smaller one for it); None: nothing to add (a plain
    play, a refused move). Only the hand's size is read from the copy,
    which every seat can count."""
    rules = state.rules
    if rules is not None and rules.values_moves:
        said = rules.move_value(state, move)
        if said is not None:
            return float(said)
    if player != move.player or move.kind in KINDS and not (move.kind == PLAY and plugin_cards(move)):
        return None
    try:
        after, _ = apply(state, move)
    except MoveError:
        return None
    if player in after.out or after.phase != state.phase:
        return None
    return float(len(state.hands[player]) - len(cards_of(move)) - len(after.hands[player]))


def plugin_cards(move: Move) -> bool:
    """Does `move` put down a card of a kind a rule declared (`Rule.cards`)?
    Its effect is that rule's: `worth` tries it on a copy when the rule says
    nothing of it (`Rule.move_value`). A dictionary look-up a card."""
    return any((kind := PLUGIN_KINDS.get(c.rank)) is not None and kind.wild == c.is_wild for c in cards_of(move))


def best_colour(hand: list[Card], without: tuple[Card, ...] = ()) -> str:
    counts = Counter(c.color for c in hand if c.color)
    for c in without:
        if c.color:
            counts[c.color] -= 1
    return max(COLORS, key=lambda c: (counts.get(c, 0), -COLORS.index(c)))


class Level:
    """A level of play: called as a policy `(state, player, moves, rnd) -> move`.

    `memory` holds the public facts seen at this table (`observe` feeds it);
    a level used without observing still plays, on what the state shows.
    """

    name = "normal"
    counts_cards = False
    learns_bluffs = False
    bluffs = False
    #: The weights of `score_plays` (tuned with bench/ai.py).
    keep_wild = 30.0
    keep_four = 40.0
    per_same = 3.0
    two_player_action = 6.0
    edge = 1.0
    threat_action = 40.0
    #: `hard`, three seats or more: points off a play by the chance that the
    #: seat it hands the turn to can follow, when that seat holds one card
    #: (it goes out) or two (it says UNO). Measured against `hard` without
    #: it (bench/ai.py's deals, four players, paired games): see `Counting`.
    follow_risk: tuple[float, float] = (0.0, 0.0)

    def __init__(self, memory: TableMemory | None = None) -> None:
        self.memory = memory if memory is not None else TableMemory()
        self._pool_cache: tuple[GameState, tuple[int, int, int], Counter[Card]] | None = None

    def observe(self, state: GameState, move: Move, events: list[Event], colour_before: str | None,
                pending_before: int) -> None:
        self.memory.observe(state, move, events, colour_before, pending_before)

    def __call__(self, state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
        self.memory.sync(state)
        return self.choose(state, player, moves, rnd)

    # -- the decision ----------------------------------------------------------------
    def choose(self, state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
        system = system_kinds(state)
        if system:
            moves = [m for m in moves if m.kind not in system] or moves
        said = self.talk(state, player, moves, rnd)
        if said is not None:
            return said
        challenge = next((m for m in moves if m.kind == CHALLENGE), None)
        if challenge is not None and self.should_challenge(state, player):
            return challenge
        free = self.free_move(state, player, moves)
        if free is not None:
            return free
        plays = [m for m in moves if is_play(m)]
        valued = self.valued_move(state, player, moves, plays)
        if valued is not None:
            return valued
        if plays:
            keep = self.keep_drawn(state, player, plays, moves)
            return keep if keep is not None else self.pick_play(state, player, plays, rnd)
        if not any(m.kind == PASS for m in moves):
            ender = self.ends_turn_free(state, player, moves)
            if ender is not None:
                return ender
        for kind in (DRAW, PASS):
            found = next((m for m in moves if m.kind == kind), None)
            if found is not None:
                return found
        others = [m for m in moves if m.kind not in (UNO, CATCH, CHALLENGE)]
        return (others or moves)[0]

    def keep_drawn(self, state: GameState, player: int, plays: list[Move], moves: list[Move]) -> Move | None:
        """Pass on a drawn wild while nobody is close to going out: a wild
        kept is the answer to any colour later (measured with bench/ai.py: a
        little better than playing it at once)."""
        if state.drawn is None or state.turn != player or not all(
                m.card is not None and m.card.is_wild for m in plays):
            return None
        found = next((m for m in moves if m.kind == PASS), None)
        if found is None:
            return None
        others = [len(state.hands[s]) for s in state.active() if s != player]
        return found if others and min(others) > 3 else None

    def free_move(self, state: GameState, player: int, moves: list[Move]) -> Move | None:
        """A plugin's move without cards (a knock, a call) that costs nothing:
        tried on a copy, it leaves this seat to move with no more cards. Made
        once a round for each kind, so a move always offered cannot loop."""
        hand = len(state.hands[player])
        self.memory.sync(state)  # its `free`: this round's, whoever asks
        made = self.memory.free
        for m in moves:
            if m.kind in KINDS or m.card is not None or player != state.turn:
                continue
            if (m.kind, player) in made:
                continue
            made.add((m.kind, player))
            try:
                after, _ = apply(state, m)
            except MoveError:
                continue
            if after.phase == state.phase and after.turn == player and len(after.hands[player]) <= hand \
                    and (m.kind, player) not in self.memory.made:
                self.memory.made.add((m.kind, player))
                return m
        return None

    def valued_move(self, state: GameState, player: int, moves: list[Move], plays: list[Move]) -> Move | None:
        """A rule's move without cards worth more than the best play (or,
        with none, than the draw): a swap of hands with the seat picked
        when theirs is much smaller. Weighed by `worth` in cards, against
        the play's points (a play puts a card down, this move none)."""
        best: tuple[float, Move] | None = None
        made = self.memory.made
        for m in moves:
            if m.kind in KINDS or m.card is not None or player != state.turn or (m.kind, player) in made:
                continue
            value = worth(state, player, m)
            if value is not None and value > 0 and (best is None or value > best[0]):
                best = (value, m)
        if best is None:
            return None
        if plays and CARD * (best[0] - 1) <= max(score for score, _ in self.score_plays(state, player, plays)):
            return None
        if _keeps_turn(state, best[1]):
            made.add((best[1].kind, player))  # a move that keeps the turn: once a round, as `free_move`
        return best[1]

    def ends_turn_free(self, state: GameState, player: int, moves: list[Move]) -> Move | None:
        """A plugin's move without cards that ends this seat's turn without a
        card taken (a knock, a paid pass), tried on a copy: better than the
        draw that is left otherwise, which costs a card. Asked only when no
        play fits and no pass is offered (a pass after a draw costs nothing)."""
        hand = len(state.hands[player])
        for m in moves:
            if m.kind in KINDS or m.card is not None or m.cards or player != state.turn:
                continue
            try:
                after, _ = apply(state, m)
            except MoveError:
                continue
            if after.phase == state.phase and after.turn != player and len(after.hands[player]) <= hand \
                    and after.pending <= state.pending:
                return m
        return None

    def talk(self, state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move | None:
        """Name a Wild starter's colour, catch who forgot UNO, say UNO with
        the play that leaves one card (or at one card before being caught)."""
        colour = [m for m in moves if m.kind == COLOR]
        if colour:
            best = self.name_colour(state, player, ())
            return next((m for m in colour if m.color == best), colour[0])
        catch = next((m for m in moves if m.kind == CATCH), None)
        if catch is not None:
            return catch
        uno = next((m for m in moves if m.kind == UNO), None)
        if uno is not None and (len(state.hands[player]) == 1 or any(is_play(m) for m in moves)):
            return uno
        return None

    def says_uno_with(self, state: GameState, player: int, moves: list[Move], rnd: random.Random) -> bool:
        """Whether to say UNO with the move chosen among `moves`, when that
        move leaves this seat one card (the caller knows: the table model's
        `carries_uno`). An UNO offered among `moves` was weighed by `talk`
        already; this is for the moves that must carry it themselves (a
        multi-play or a Discard All from three cards, whatever the UNO rule).
        Every level says it (`easy` forgets now and then, as in `talk`)."""
        return not any(m.kind == UNO for m in moves)

    def should_challenge(self, state: GameState, player: int) -> bool:
        """Challenge when winning it is worth the risk: a won challenge swings
        eight cards (four not taken, four given), a lost one costs two."""
        memory = self.memory if self.learns_bluffs else None
        return bluff_chance(state, player, memory) > 0.25

    def name_colour(self, state: GameState, player: int, played: tuple[Card, ...]) -> str:
        """The colour to name for a wild: the one held most (`hard`: and the
        next players are unlikely to hold)."""
        hand = state.hands[player]
        if not self.counts_cards:
            return best_colour(hand, played)
        counts = Counter(c.color for c in hand if c.color)
        for c in played:
            if c.color:
                counts[c.color] -= 1
        scores = {col: 3.0 * counts.get(col, 0) + self.colour_edge(state, player, col) for col in COLORS}
        return max(COLORS, key=lambda c: (scores[c], -COLORS.index(c)))

    def colour_edge(self, state: GameState, player: int, colour: str) -> float:
        """`hard`: how much the colour hurts the opponents, from what is known:
        the next seat lacking it weighs most, any seat close to going out next."""
        pool = self._pool(state, player)
        size = sum(pool.values())
        of_colour = colour_counts(pool)[colour]
        edge = 0.0
        nxt = next_seat(state, player)
        for seat in state.active():
            if seat == player:
                continue
            weight = 3.0 if seat == nxt else 1.0
            if len(state.hands[seat]) <= 2:
                weight *= 2.0
            if colour in self.memory.lacking(seat):
                edge += 2.0 * weight
            else:
                edge += weight * (1.0 - p_holds(size, of_colour, len(state.hands[seat])))
        return edge

    def _pool(self, state: GameState, player: int) -> Counter[Card]:
        """The unseen cards, once a position (asked for every colour and play).
        Why the state itself is kept, not its id: a caller that builds a
        fresh state for each decision (bench/ai.py inside RLCard's game, whose
        states all say 0 moves) may get a new state at a freed one's address,
        and its id would find the last decision's pool."""
        cached = self._pool_cache
        if cached is not None and cached[0] is state and cached[1] == (state.moves, player, len(state.discard)):
            return cached[2]
        pool = unseen(state, player)
        self._pool_cache = (state, (state.moves, player, len(state.discard)), pool)
        return pool

    def pick_play(self, state: GameState, player: int, plays: list[Move], rnd: random.Random) -> Move:
        scored = self.score_plays(state, player, plays)
        return max(scored, key=lambda pair: pair[0])[1]

    def score_plays(self, state: GameState, player: int, plays: list[Move]) -> list[tuple[float, Move]]:
        hand = state.hands[player]
        nxt = next_seat(state, player)
        others = [s for s in state.active() if s != player]
        fewest = min(others, key=lambda s: len(state.hands[s])) if others else player
        threat_next = len(state.hands[nxt]) <= 2
        threat = any(len(state.hands[s]) <= 2 for s in others)
        two = len(others) == 1
        reverse_skips = two and _reverse_skips(state)
        risky = self.follow_risk[0] > 0 and len(others) >= 2 and any(len(state.hands[s]) <= 2 for s in others)
        rules = state.rules
        valuing = rules is not None and rules.values_moves  # else only a rule's own kinds are tried (`worth`)
        colours_named: dict[tuple[Card, ...], str] = {}
        out: list[tuple[float, Move]] = []
        for m in plays:
            cards = cards_of(m)
            card = cards[-1]  # the last card sets the colour and has its effect
            s = 0.0
            left = len(hand) - len(cards)
            if left == 0:
                out.append((1000.0, m))
                continue
            s += 9.0 * (len(cards) - 1)  # several cards out in one move
            if card.is_wild:
                if any(not c.is_wild for c in (mm.card for mm in plays if mm.card is not None)):
                    s -= self.keep_four if card.draw else self.keep_wild  # keep wilds for when nothing else fits
                if card.draw and not self.bluffs and self._holds_colour(state, player, card):
                    s -= 60.0  # a bluff: `normal` and above never make one
                key = cards
                if key not in colours_named:
                    colours_named[key] = self.name_colour(state, player, cards)
                if m.color == colours_named[key]:
                    s += 8.0
                if card.draw and threat_next:
                    s += 50.0
                colour = m.color
            else:
                colour = card.color
            rest = _without(hand, *cards)  # one copy per card played (a multi-play may hold twins)
            same = sum(1 for c in rest if c.color == colour)
            s += self.per_same * same
            if self.counts_cards and colour is not None:
                s += self.edge * self.colour_edge(state, player, colour)
            if not card.is_wild:
                s += card.value / (4.0 if threat else 12.0)  # dump points when someone is close
                # a Reverse that does not skip with two players (RLCard's game,
                # house rules) is no action: the other seat still plays next
                action = card.draw or card.rank == SKIP or not card.is_number and (
                    card.rank != REVERSE or not two or reverse_skips)
                if action and threat_next:
                    s += self.threat_action
                if action and two and any(c.color == colour or c.rank == card.rank for c in rest):
                    s += self.two_player_action  # two players: an action card is another turn, with a card to follow
                if card.draw and state.pending:
                    s += 20.0  # answer a stack rather than take it
            value = worth(state, player, m) if valuing or m.kind not in KINDS or plugin_cards(m) else None
            if value is not None:
                s += CARD * value  # what its rule says it does beyond the cards (`Rule.move_value`)
            elif m.target is not None:
                s += 15.0 if m.target == fewest and len(state.hands[m.target]) < len(hand) else -15.0
            if left == 1 and not rest[0].is_number and card.is_number:
                s -= 2.0
            if left == 1 and rest[0].is_wild:
                s += 6.0  # a wild to finish on fits anything
            if risky:
                s -= self.handing_risk(state, player, m, card)
            out.append((s, m))
        return out

    def handing_risk(self, state: GameState, player: int, move: Move, card: Card) -> float:
        """Points off a play that hands the turn to a seat close to going out
        and likely able to follow the card it leaves (its colour, its rank,
        or any wild), from the unseen cards less what that seat was seen to
        lack. With three seats or more only one of them is hit by a Skip or
        a draw card; who plays next is what decides whether it goes out."""
        seat = seat_after(state, player, card)
        hand = len(state.hands[seat])
        if seat == player or not 0 < hand <= 2:
            return 0.0
        colour = move.color if card.is_wild else card.color
        rank = None if card.is_wild else card.rank
        chance = p_follows(self._pool(state, player), self.memory, seat, hand, colour, rank)
        return self.follow_risk[hand - 1] * chance

    @staticmethod
    def _holds_colour(state: GameState, player: int, card: Card) -> bool:
        colour = state.color
        return colour is not None and any(c.color == colour for c in state.hands[player] if c is not card)


def _keeps_turn(state: GameState, move: Move) -> bool:
    """Does `move` leave its player to move again (tried on a copy)?"""
    try:
        after, _ = apply(state, move)
    except MoveError:
        return False
    return after.phase == state.phase and after.turn == move.player


def _reverse_skips(state: GameState) -> bool:
    """Does a Reverse skip the other seat with two players (the rules'
    `reverse_skips_with_two`, card-effects' option; on unless a rule says not)?"""
    rules = state.rules
    answer = rules.reverse_skips_two if rules is not None else None
    return True if answer is None else answer


def _without(hand: list[Card], *cards: Card) -> list[Card]:
    rest = list(hand)
    for card in cards:
        with contextlib.suppress(ValueError):
            rest.remove(card)
    return rest


class Normal(Level):
    name = "normal"


class Counting(Level):
    """`hard`'s knowledge without its search (core/ai/search.py adds it)."""

    name = "hard"
    counts_cards = True
    learns_bluffs = True
    #: Measured over bench/ai.py's `play_official` deals, four players,
    #: paired game by game with `hard` without it (95% half-widths):
    #: against RLCard's agent +0.18 +-0.26 points and +0.26 +-0.19 (seeds 1
    #: and 2, 20,000 and 40,000 games), against three `normal`s +0.33 +-0.24
    #: and +0.29 +-0.18; weights (60, 15) and (120, 30) gave +0.11 / +0.34
    #: and +0.03 / +0.27; (30, 0), (30, 15) and (45, 8) within 0.1 points of
    #: (30, 8) both ways (seed 3, 20,000 games).
    follow_risk = (30.0, 8.0)


class Easy(Level):
    """`normal` with a person's slips, all of them legal moves."""

    name = "easy"
    #: A person's gamble: a Wild Draw Four on a player close to out while
    #: holding the colour (legal; a challenge catches it). `normal` and above never bluff.
    bluffs = True
    careless = 0.15    # a play picked without much thought
    forgets_uno = 0.05
    misses_catch = 0.3

    def talk(self, state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move | None:
        said = super().talk(state, player, moves, rnd)
        if said is not None:
            if said.kind == UNO and rnd.random() < self.forgets_uno:
                return None
            if said.kind == CATCH and rnd.random() < self.misses_catch:
                return None
        return said

    def says_uno_with(self, state: GameState, player: int, moves: list[Move], rnd: random.Random) -> bool:
        return super().says_uno_with(state, player, moves, rnd) and rnd.random() >= self.forgets_uno

    def should_challenge(self, state: GameState, player: int) -> bool:
        return bluff_chance(state, player, None) > 0.5

    def pick_play(self, state: GameState, player: int, plays: list[Move], rnd: random.Random) -> Move:
        if rnd.random() < self.careless:
            # a card picked without looking ahead (not a wild: those people keep)
            plain = [m for m in plays if m.card is not None and not m.card.is_wild] or plays
            return plain[int(rnd.random() * len(plain))]
        return super().pick_play(state, player, plays, rnd)
