"""Matching (shared rule): which card may go on which.

A card fits when it has the colour in play, or the top card's number or
symbol; a wild always fits (a Wild Draw Four too: bluffing is possible, see
`challenge`). After drawing, only the drawn card may be played. While a draw
penalty is pending, only what `can_stack` allows fits (nothing, unless a
stacking rule says so). Nobody plays out of turn unless a rule allows it
(`can_jump_in`). The engine asks these hooks for every play; rules that
refuse plays for other reasons implement `check_move`.
"""

from collections.abc import Iterable

from unobot import Card, GameState, Rule, hookimpl
from unobot.cards import clear_on_new_card, known_cards

#: top card -> colour in play -> every card that fits on it (emptied when a
#: card kind is added, by unobot.cards).
_FITS: dict[Card, dict[str, frozenset[Card]]] = clear_on_new_card({})


def _fitting_set(top: Card, color: str) -> frozenset[Card]:
    """Every card that fits on `top` with `color` in play (a wild, the colour,
    or the rank), so that a hand is filtered with one set lookup a card: the
    engine asks this every turn."""
    rank = top.rank
    found = _FITS.setdefault(top, {})[color] = frozenset(
        c for c in known_cards() if c.color is None or c.color == color or c.rank == rank)
    return found


class Matching(Rule):
    name = "matching"
    title = {"en": "Matching cards", "es": "Cartas que casan"}
    base = True
    plain_turn = True  # see unobot.plain_turn

    @hookimpl(trylast=True)
    def card_fits(self, state: GameState, player: int, card: Card) -> bool:
        if state.pending:
            return bool(state.rules.can_stack(state, player, card))
        drawn = state.drawn
        if drawn is not None and card is not drawn:
            return False
        if card.is_wild:
            return True
        color = state.color
        if color is None or card.color == color:
            return True
        return card.rank == state.discard[-1].rank

    def fitting_set(self, state: GameState, player: int) -> frozenset[Card]:
        """Every card that fits now, in a plain turn (nothing pending, nothing
        drawn, a colour in play): the engine's fast path filters the hand
        with it itself, a set lookup a card, without the calls a turn into
        `cards_that_fit` (a sixth of a plain listing's time, measured)."""
        top = state.discard[-1]
        color: str = state.color  # type: ignore[assignment]  # a plain turn has one
        try:
            return _FITS[top][color]  # subscripts, not .get(): no method calls, every turn
        except KeyError:
            return _fitting_set(top, color)

    def cards_that_fit(self, state: GameState, player: int, cards: Iterable[Card]) -> list[Card]:
        """`card_fits` for many cards at once (the engine uses it to list legal
        moves while this rule is the only one answering `card_fits`)."""
        if state.pending:
            rules = state.rules
            if not rules.stack_possible:
                return []  # only this rule answers can_stack, and it says no
            batch = rules.cards_stackable
            if batch is not None:
                return list(batch(state, player, cards))  # the whole hand in one call
            can_stack = rules.can_stack
            return [c for c in cards if can_stack(state, player, c)]
        color = state.color
        drawn = state.drawn
        if color is None:
            return list(cards) if drawn is None else [c for c in cards if c is drawn]
        top = state.discard[-1]
        by_color = _FITS.get(top)
        fits = by_color.get(color) if by_color is not None else None
        if fits is None:
            fits = _fitting_set(top, color)
        if drawn is not None:
            return [drawn] if drawn in fits and drawn in cards else []
        # A comprehension, not filter(fits.__contains__, ...): binding a
        # frozenset's __contains__ costs more than the whole test of a hand.
        return [c for c in cards if c in fits]

    @hookimpl(trylast=True)
    def can_stack(self, state: GameState, player: int, card: Card) -> bool:
        return False

    @hookimpl(trylast=True)
    def hold_penalty(self, state: GameState, victim: int, card: Card) -> bool:
        return False

    @hookimpl(trylast=True)
    def can_jump_in(self, state: GameState, player: int, card: Card) -> bool:
        return False

    @hookimpl(trylast=True)
    def card_targets(self, state: GameState, player: int, card: Card) -> None:
        return None

    def cards_targets(self, state: GameState, player: int, cards: Iterable[Card]) -> dict[Card, list[int]]:
        """`card_targets` for many cards at once: none names a target."""
        return {}

    cards_targets.names_none = True  # type: ignore[attr-defined]  # the rule set need not ask it
