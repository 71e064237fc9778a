"""Rule points: one pluggy hook per decision the rules of a turn make.

Every hook is documented here and in docs/hooks.md. Implementations are
methods of a `Rule` (see core/rule.py); they may take any subset of a hook's
arguments, by name. The rules every game shares implement each hook with
`trylast=True`, so a house rule's implementation runs first and wins.

Conventions:
- `state` is the engine's working copy during a move: hooks that apply an
  effect mutate it and append `Event`s to `events`. Hooks that only answer a
  question (`card_fits`, `hold_penalty`, ...) must not mutate it.
- `firstresult` hooks stop at the first implementation that returns a value
  other than None; returning None means "no opinion, ask the next rule".
- Seats (`player`, `target`, ...) are indexes into `state.players`.
- Hooks that apply an effect and return True have handled it; the engine
  moves on.

The engine calls a compiled `RuleSet` (core/ruleset.py), not pluggy's
dispatcher: implementations are resolved and ordered once per variant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from .cards import Card
    from .events import Event
    from .moves import Move
    from .state import GameState

PROJECT = "unobot"
hookspec = pluggy.HookspecMarker(PROJECT)


# -- setting a round up --------------------------------------------------------

@hookspec(firstresult=True)
def build_deck(players: int) -> list[Card]:  # type: ignore[empty-body]
    """The whole deck for a round with `players` players, in any order.

    Asked once per round before the deal. Stops at the first non-None result.
    """


@hookspec
def more_cards(players: int) -> list[Card]:  # type: ignore[empty-body]
    """Cards a rule adds to the deck `build_deck` gave (a plugin's own card
    kinds: a Skip Everyone per colour). Every rule's list is added."""


@hookspec(firstresult=True)
def hand_size(state: GameState) -> int:  # type: ignore[empty-body]
    """How many cards each player is dealt. Stops at the first non-None result."""


@hookspec
def round_start(state: GameState, previous: GameState | None, events: list[Event]) -> None:
    """A round is about to be dealt: hands are empty, the deck not built yet.

    `previous` is the state at the end of the last round (None for the
    first round of a match), so a rule can act on its result. Every rule is
    told. A rule may put seats out of the round before the deal
    (`state.out`: elimination; they are dealt no cards and never move),
    change the dealer (`state.dealer`: dealing and play start after that
    seat), or keep data for the whole match (`state.match`, which a new
    round does not clear; `state.ext` is cleared every round). Returns
    nothing.
    """


@hookspec(firstresult=True)
def first_card(state: GameState, card: Card, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """Apply the starting card's effect (the card is already on the discard pile).

    `state.turn` is the player after the dealer when this is asked. Set the
    colour, the turn, the direction, pending draws; a rule may also put the
    card back and turn another. Return True when handled.
    """


# -- whether a move is allowed -------------------------------------------------

@hookspec(firstresult=True)
def card_fits(state: GameState, player: int, card: Card) -> bool:  # type: ignore[empty-body]
    """May `player` play `card` on the current top card, colour and pending draw?

    True or False decides; None defers to the next rule. Called for every
    card of a hand when legal moves are listed, so keep it cheap.
    """


@hookspec(firstresult=True)
def fit_refusal(state: GameState, player: int, card: Card) -> str:  # type: ignore[empty-body]
    """`card_fits` said no to `player`'s `card`: the refusal code to give
    (one the rule declares in `Rule.refusals`, with its text), or None for
    the plain `does_not_fit` ("That card does not fit the top card").

    Asked only when a typed play is refused, so that a card refused by a
    rule's condition rather than by the top card (a Wild Draw Four while
    holding the colour in play, a same-number card under colour first)
    is refused with the reason the player can act on.
    """


@hookspec(firstresult=True)
def can_stack(state: GameState, player: int, card: Card) -> bool:  # type: ignore[empty-body]
    """While a draw penalty is pending on `player`, may `card` answer it?

    The shared rules say no; stacking rules say which draw cards go on which
    (`state.pending_rank` is the rank of the card that made the total).
    """


@hookspec(firstresult=True)
def hold_penalty(state: GameState, victim: int, card: Card) -> bool:  # type: ignore[empty-body]
    """Does the penalty `card` just made stay pending on `victim`?

    Asked by `unobot.penalize` for every penalty: a draw card's, and any a
    rule puts on a player for a card that is not a draw card (a 7 that
    makes the next player draw 2; `state.pending` and `state.pending_rank`
    are already set). True when the rules give the victim any answer
    (stacking, challenging a Wild Draw Four), whatever the victim holds;
    the victim then takes it with `draw`. False or None: the victim draws
    at once and loses the turn.
    """


@hookspec(firstresult=True)
def can_jump_in(state: GameState, player: int, card: Card) -> bool:  # type: ignore[empty-body]
    """May `player`, whose turn it is not, play `card` out of turn now?"""


@hookspec(firstresult=True)
def card_targets(state: GameState, player: int, card: Card) -> list[int | None]:  # type: ignore[empty-body]
    """The players a play of `card` may or must name (a 7 under seven-o).

    None (the default): the card names nobody. A list: the seats allowed;
    a None in the list means naming nobody is allowed too.
    """


@hookspec(firstresult=True)
def check_move(state: GameState, move: Move) -> bool | str:  # type: ignore[empty-body]
    """Accept or refuse a move before it applies.

    For draw, pass, UNO, catch, challenge and moves of plugins' own: return
    True to accept, an error code (see core/errors.py) to refuse, None to
    defer to the next rule; a move no rule accepts is refused with
    `not_allowed`. A move of a kind the rules in force do not have at all
    (a challenge with no rule that applies one, a plugin's kind with its
    rule off) is refused with `no_such_move` before any rule is asked.

    For a play, the engine has already checked the shape of the turn (the
    card is in the hand; it is the player's turn or `can_jump_in` allows it;
    after a draw only the drawn card; `card_fits`; a wild names a colour; the
    target fits `card_targets`). Rules return an error code to refuse it for
    reasons of their own (no-action-finish); None or True lets it through.

    A rule may set the class attribute `checks = ("draw", ...)` to say which
    move kinds it looks at, so the rule set skips it for the others.
    """


@hookspec
def extra_moves(state: GameState, player: int) -> list[Move]:  # type: ignore[empty-body]
    """Moves `player` may make beyond playing from the hand, drawing and
    passing: say UNO, catch, challenge, jump in. Every rule's list is
    collected (this hook does not stop at the first result).
    """


# -- playing a card ------------------------------------------------------------

@hookspec
def before_play(state: GameState, move: Move, events: list[Event]) -> None:
    """A card is about to leave `move.player`'s hand (nothing has changed yet).

    Every rule is told: the place to note what the rules need later (the
    colour in play before a Wild Draw Four, for a challenge).
    """


@hookspec(firstresult=True)
def on_wild(state: GameState, move: Move, color: str | None, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """A wild card landed and names `color`: set the colour in play.

    Also asked when the first player names the colour of a Wild starter
    (`move.kind == "color"`, `move.card` None), so a rule that decides
    colours (drawn at random, the colour held most) decides that one too.
    """


@hookspec(firstresult=True)
def on_play(state: GameState, move: Move, card: Card, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """Apply the effect of `card`, which just landed on the discard pile.

    Skip, reverse, draw penalties, hand swaps, and passing the turn on
    (`unobot.advance`, `unobot.penalize`) all happen here. Return True when handled.
    """


@hookspec(firstresult=True)
def on_swap(state: GameState, player: int, target: int, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """`player` swaps hands with `target` (seven-o's 7)."""


@hookspec(firstresult=True)
def on_rotate(state: GameState, player: int, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """Every hand passes to the next player in the direction of play (seven-o's 0)."""


# -- drawing -------------------------------------------------------------------

@hookspec(firstresult=True)
def on_draw(state: GameState, player: int, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """`player` draws: take the pending penalty, or draw as the variant says
    (one card, until a playable one, ...). Decide whether the turn passes.
    """


@hookspec(firstresult=True)
def cards_to_draw(state: GameState, player: int, n: int, reason: str) -> int:  # type: ignore[empty-body]
    """`player` is about to draw `n` cards (`reason`: "draw" for a draw of
    their own, "penalty" for a penalty or pending total): how many do they
    really take? A cap (a hand limit) or a change. Stops at the first
    non-None result; the shared rule answers `n`. The engine then draws that
    many (fewer if the piles run out).
    """


@hookspec(firstresult=True)
def on_drawn_card(state: GameState, player: int, card: Card, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """After a voluntary draw of `card`: may `player` play it now?

    `state.drawn` is already `card` when this is asked. True: the turn stays
    and the player may play the drawn card (or pass, unless a rule such as
    force-play refuses that). False: the turn passes at once. The shared rule
    answers whether the whole rule set accepts a play of it
    (`unobot.can_play`).
    """


@hookspec(firstresult=True)
def on_pass(state: GameState, player: int, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """`player` ends the turn without playing."""


@hookspec(firstresult=True)
def on_deck_empty(state: GameState, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """The draw pile is empty and a card is wanted: refill it (reshuffle).

    Return True when cards can be drawn again, False when there are none.
    """


# -- challenges and UNO --------------------------------------------------------

@hookspec(firstresult=True)
def on_challenge(state: GameState, challenger: int, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """`challenger` challenges the Wild Draw Four just played on them."""


@hookspec(firstresult=True)
def on_uno(state: GameState, player: int, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """`player` says UNO."""


@hookspec(firstresult=True)
def on_catch(state: GameState, catcher: int, target: int, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """`catcher` calls out `target`, who holds one card and did not say UNO."""


@hookspec(firstresult=True)
def on_move(state: GameState, move: Move, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """Apply a move of a kind a plugin added (`Rule.move_kinds`): the engine
    has already had it accepted by `check_move`. Return True when handled;
    a move no rule handles is refused with `not_allowed` before anything
    changes.
    """


@hookspec
def after_move(state: GameState, move: Move, events: list[Event]) -> None:
    """A move has been applied. Every rule is told (bookkeeping: the UNO
    catch window closes when the next player plays or draws)."""


# -- turn order, going out, scoring -------------------------------------------

@hookspec(firstresult=True)
def next_turn(state: GameState, player: int, skip: int) -> int:  # type: ignore[empty-body]
    """The seat that moves after `player`, passing over `skip` players."""


@hookspec(firstresult=True)
def on_go_out(state: GameState, player: int, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """`player` played their last card: deal pending draws, end the round or
    play on for places, and score (`unobot.end_round`)."""


@hookspec(firstresult=True)
def round_blocked(state: GameState, events: list[Event]) -> bool:  # type: ignore[empty-body]
    """Nobody still in the round can play a card or get one (every hand at a
    hand limit, or both piles empty), so without an answer here the turn
    would pass round the table for ever. The engine asks this after a draw
    that brought no card, once a whole round of turns would change nothing.
    End the round (`unobot.end_round`) and return True; the shared rule
    gives it to the fewest points in hand (a round must always be able to
    end, whatever rules are on together).
    """


@hookspec(firstresult=True)
def score(state: GameState) -> dict[int, int]:  # type: ignore[empty-body]
    """Count the points each seat gains this round ({seat: points}): the
    first step of the round's points (`unobot.round_points`), answered by
    the one rule that counts (scoring, progressive scoring, teams).

    Rules that change the count take the later steps, so that they compose
    whatever the order of their hooks: `score_add`, then `score_factor`.
    """


@hookspec
def score_add(state: GameState, points: dict[int, int]) -> dict[int, int]:  # type: ignore[empty-body]
    """Points a rule adds to the round's count (`points`, what `score`
    counted): {seat: points to add}. The second step: every rule's answer
    is added before any factor multiplies (mercy adds the hands it took
    to the winner's count)."""


@hookspec
def score_factor(state: GameState, points: dict[int, int]) -> int:  # type: ignore[empty-body]
    """A factor for the whole round's points (`points`: counted and added):
    the last step. Every rule's factor multiplies (double-score's 2), so
    (count + additions) x factors."""


@hookspec
def round_end(state: GameState, points: dict[int, int], events: list[Event]) -> None:
    """A round has ended and is scored: `points` is what each seat gained,
    already in `state.scores`; `state.winner` won it. Every rule is told,
    once per round, before the match's end is decided (`match_winner`).
    A rule may append events (a report) and keep data in `state.match`."""


@hookspec(firstresult=True)
def match_winner(state: GameState) -> int:  # type: ignore[empty-body]
    """After scoring, the seat that won the match, or None to play another round."""


@hookspec
def match_end(state: GameState, winner: int, reason: str, events: list[Event]) -> None:
    """The match is over: every rule is told exactly once, however it ended,
    with the final scores in `state.scores` (`state.phase` is already
    `match_over`). `winner` is the match's winner (-1: nobody was named).
    `reason`: `"won"` (the rules named a winner: a target reached, the last
    player not eliminated), `"left"` (the other players left the match),
    `"rounds"` (the chat played the number of rounds it was told to,
    `--rounds N`) or `"stopped"` (the chat ended it otherwise: an admin's
    stop). A rule may append events (a final report) to `events`."""


@hookspec(firstresult=True)
def turn_seconds(state: GameState) -> int:  # type: ignore[empty-body]
    """Seconds a player has for a turn (0 or None: no timer). Adapters run the clock."""


@hookspec(firstresult=True)
def round_seconds(state: GameState) -> int:  # type: ignore[empty-body]
    """Seconds a round may last (0 or None: no round clock). Adapters' chat
    layer runs the clock from the deal and, when it rings, applies the move
    `time_up` gives; players cannot send that move themselves."""


@hookspec(firstresult=True)
def time_up(state: GameState) -> Move:  # type: ignore[empty-body]
    """The round's clock ran out: the move the chat applies for the table
    (a kind of the rule's own, listed in its `system_moves`)."""


@hookspec(firstresult=True)
def on_timeout(state: GameState, player: int) -> Move:  # type: ignore[empty-body]
    """The turn timer ran out for `player`: the next move to make for them.

    The engine asks again until the turn has passed (draw, then pass).
    """


def spec_names() -> list[str]:
    """Every hook name, in the order of this module."""
    import inspect
    import sys

    module: Any = sys.modules[__name__]
    return [
        name for name, obj in inspect.getmembers(module, inspect.isfunction)
        if hasattr(obj, PROJECT + "_spec")
    ]
