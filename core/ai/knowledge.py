"""What one seat may know: its own hand, the cards played, the counts, and
what it saw the others do.

Why a module of its own: every level above `easy` reads the same public
facts, and the promise that no level knows a hidden card is kept in one
place. Nothing here reads another seat's hand or the draw pile's order:
the cards not seen are worked out as the whole game's cards (a multiset,
the same however they lie) less the seat's own hand and the discard pile.

`TableMemory` is what a seat remembers beyond the state: who drew rather
than follow a colour (they likely hold none of it), and how each player's
Wild Draw Fours turned out when challenged. It learns only from public
moves and events (`observe`), shared by all the AI seats of a game since
everyone sees the same things.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..cards import COLORS, Card
from ..events import CHALLENGE_LOST, CHALLENGE_WON, Event
from ..moves import DRAW, PLAY, Move
from ..state import GameState


def unseen(state: GameState, player: int) -> Counter[Card]:
    """The cards `player` has not seen: in the others' hands or the draw pile
    (the same multiset however those cards are arranged)."""
    pool = Counter(state.all_cards())
    pool.subtract(state.hands[player])
    pool.subtract(state.discard)
    return +pool


def colour_counts(cards: Counter[Card]) -> dict[str, int]:
    out = dict.fromkeys(COLORS, 0)
    for card, n in cards.items():
        if card.color is not None:
            out[card.color] += n
    return out


def p_holds(pool_size: int, of_kind: int, hand: int) -> float:
    """The chance that `hand` cards dealt from `pool_size` unseen ones hold
    at least one of `of_kind` (hypergeometric, no replacement)."""
    if of_kind <= 0 or hand <= 0:
        return 0.0
    if hand > pool_size - of_kind:
        return 1.0
    none = 1.0
    for i in range(hand):
        none *= (pool_size - of_kind - i) / (pool_size - i)
    return 1.0 - none


def p_follows(pool: Counter[Card], memory: TableMemory, seat: int, hand: int, colour: str | None,
              rank: str | None) -> float:
    """The chance that `seat`, holding `hand` cards dealt from the unseen
    `pool` (less what it was seen to lack), holds one that fits a top card
    of `colour` and `rank` (None: a wild's, which only its colour matches),
    or a wild. What the heuristics weigh before handing the turn to a seat
    close to going out: one card that fits and that seat is out."""
    size = fits = 0
    may_hold = memory.may_hold
    for card, n in pool.items():
        if may_hold(seat, card):
            size += n
            if card.is_wild or card.color == colour or rank is not None and card.rank == rank:
                fits += n
    return p_holds(size, fits, hand)


def previous_colour(state: GameState) -> str | None:
    """The colour in play before the top card (the last coloured card under
    it: a wild's named colour is not on the pile)."""
    for card in reversed(state.discard[:-1]):
        if card.color:
            return card.color
    return None


@dataclass
class TableMemory:
    """Public facts a seat remembers across moves (and, for bluffs, rounds).

    `lacks[seat]` holds the colours that seat drew on rather than follow,
    `lacks_rank[seat]` the ranks of the cards it drew on (a card of that
    rank would have fitted, in any colour), and `lacks_wild` the seats that
    drew while a wild would have fitted (all cleared for a seat that takes
    two cards or more at once, since new cards may bring them; a colour or
    rank for a seat seen to play one). Why ranks and wilds too: a seat that
    drew held nothing that fitted, and the search deals the hidden hands
    from this. Measured against RLCard's agent (bench/ai.py's games, four
    players, a search of 150 rollouts played to the end, 2,400 games): dealt
    by colour alone 27.7%, by colour, rank and wilds 28.0%, knowing the
    hands (a cheat, for the bound) 39.8% over 600; two players, `hard`,
    6,000 games: 58.9% and 58.7%. It costs nothing, and what it buys is
    within the noise. One liberty, on purpose: a lack seen before a seat
    draws and keeps another card is kept, though that card may be of it;
    the sound belief (forgetting it) measured -0.09 +-0.08 points at four
    seats (160,000 games paired with `hard`): one unknown card among many.
    `bluffs[seat]` is [bluffs caught, honest cards shown] from every
    challenge seen at this table.
    """

    key: tuple[int, int] = (-1, -1)
    lacks: dict[int, set[str]] = field(default_factory=dict)
    lacks_rank: dict[int, set[str]] = field(default_factory=dict)
    lacks_wild: set[int] = field(default_factory=set)
    bluffs: dict[int, list[int]] = field(default_factory=dict)
    #: per seat, the weights of each bluff rate in RATES (a posterior)
    beliefs: dict[int, list[float]] = field(default_factory=dict)
    seed: int = -1
    #: The plugin moves without cards a seat already weighed this round
    #: (kind, seat): `Level.free_move` makes each once a round. Kept here, with
    #: the table, since a chat makes a new level object for every AI move.
    free: set[tuple[str, int]] = field(default_factory=set)
    #: The moves without cards that keep the turn a seat made this round
    #: (kind, seat): neither `free_move` nor `valued_move` makes one twice.
    made: set[tuple[str, int]] = field(default_factory=set)

    def sync(self, state: GameState) -> None:
        """Forget the round's facts when a new game or round starts (bluff
        records last for the game: the same people at the same table)."""
        key = (state.seed, state.round)
        if key != self.key:
            if state.seed != self.seed:
                self.bluffs = {}
                self.beliefs = {}
                self.seed = state.seed
            self.key = key
            self.lacks = {}
            self.lacks_rank = {}
            self.lacks_wild = set()
            self.free = set()
            self.made = set()

    def observe(self, state: GameState, move: Move, events: list[Event], colour_before: str | None,
                pending_before: int) -> None:
        """Learn from a move everybody saw (`state` is the state after it)."""
        self.sync(state)
        player = move.player
        if move.kind == DRAW and not pending_before and colour_before is not None:
            self.lacks.setdefault(player, set()).add(colour_before)
            top = state.discard[-1] if state.discard else None  # a draw leaves the top card
            if top is not None and not top.is_wild:
                self.lacks_rank.setdefault(player, set()).add(top.rank)
            self.lacks_wild.add(player)
        elif move.kind == PLAY and move.card is not None:
            card = move.card
            if card.color is not None and (lacks := self.lacks.get(player)):
                lacks.discard(card.color)
            if ranks := self.lacks_rank.get(player):
                ranks.discard(card.rank)
            if card.is_wild:
                self.lacks_wild.discard(player)
        for e in events:
            kind = e.kind
            if kind in (CHALLENGE_WON, CHALLENGE_LOST):
                caught = kind == CHALLENGE_WON
                self.bluffs.setdefault(e.other, [0, 0])[0 if caught else 1] += 1
                size = len(state.hands[e.other]) - (4 if caught else 0)
                colour = previous_colour(state)
                if colour is not None:
                    pool = Counter(state.all_cards())
                    pool.subtract(state.discard)
                    pool = +pool
                    holds = p_holds(sum(pool.values()), colour_counts(pool)[colour], size)
                    self.learn(e.other, caught, holds)
            elif e.n >= 2 and e.player >= 0 and kind in ("penalty_taken", "cards_drawn"):
                self.lacks.pop(e.player, None)
                self.lacks_rank.pop(e.player, None)
                self.lacks_wild.discard(e.player)

    def lacking(self, seat: int) -> set[str]:
        return self.lacks.get(seat, set())

    def knows_lack(self, seat: int) -> bool:
        """Was this seat seen to lack anything (a colour, a rank, a wild)?"""
        return bool(self.lacks.get(seat) or self.lacks_rank.get(seat) or seat in self.lacks_wild)

    def may_hold(self, seat: int, card: Card) -> bool:
        """May this seat hold `card`, from what it was seen to lack?"""
        if card.is_wild:
            return seat not in self.lacks_wild
        return card.color not in self.lacks.get(seat, ()) and card.rank not in self.lacks_rank.get(seat, ())

    def belief(self, seat: int) -> list[float]:
        found = self.beliefs.get(seat)
        return found if found is not None else PRIOR

    def learn(self, seat: int, caught: bool, holds: float) -> None:
        """Bayes over the bluff rate: a challenge showed whether the card was
        a bluff, when its player held the colour with chance `holds`."""
        weights = []
        for rate, w in zip(RATES, self.belief(seat)):
            bluff = rate * holds / (rate * holds + 1.0 - holds) if rate * holds + 1.0 - holds > 0 else 0.0
            weights.append(w * (bluff if caught else 1.0 - bluff))
        total = sum(weights)
        self.beliefs[seat] = [w / total for w in weights] if total > 0 else list(PRIOR)


#: The bluff rates a player may have: how much likelier they play a Wild
#: Draw Four holding the colour in play than without it (0: never bluffs).
RATES = tuple(i / 10 for i in range(11))
#: Before any challenge at this table: a player never bluffs with chance
#: 0.4, else any rate alike.
PRIOR = [0.4] + [0.6 / 10] * 10


def bluff_chance(state: GameState, player: int, memory: TableMemory | None) -> float:
    """The chance that the Wild Draw Four pending on `player` was played
    while its player held the colour in play (a bluff), from what `player`
    may know: the unseen cards, the bluffer's hand size, and how often that
    player bluffed at this table. Bayes: a player who never bluffs holds the
    colour with chance 0 when they play it; one who bluffs at rate b plays it
    holding the colour b times as often as without it."""
    rules = state.rules
    rule = rules.answering("bluff_record") if rules is not None else None  # the challenge rule, or a plugin's
    record = rule.bluff_record(state) if rule is not None else None
    if not record:
        return 0.0
    bluffer = record[0]  # who played it; whether it was a bluff is hidden (never read here)
    colour = previous_colour(state)
    if colour is None:
        return 0.0
    pool = unseen(state, player)
    of_colour = colour_counts(pool)[colour]
    holds = p_holds(sum(pool.values()), of_colour, len(state.hands[bluffer]))
    belief = memory.belief(bluffer) if memory is not None else PRIOR
    chance = 0.0
    for rate, w in zip(RATES, belief):
        bluffing = rate * holds
        if bluffing > 0:
            chance += w * bluffing / (bluffing + 1.0 - holds)
    return chance
