"""Seven-O: a 7 swaps hands with a chosen player; a 0 passes every hand to
the next player in the direction of play. A 7 or 0 played as the last card
just ends the round.

`mandatory: true`: a 7 must name its target (`play R7 ben`); with `false`
naming one is optional and a 7 without a target swaps nothing.
"""

from collections.abc import Collection

from unobot import Card, Event, GameState, Move, Rule, advance, dataclass, hookimpl, option


class SevenO(Rule):
    name = "seven-o"
    title = {"en": "Seven-O (7 swaps, 0 rotates)", "es": "Siete-Cero (7 cambia, 0 rota)"}

    @dataclass(frozen=True)
    class Options:
        mandatory: bool = option(True, title="A 7 must swap", help="a 7 must name a player to swap hands with")

    @hookimpl
    def card_targets(self, state: GameState, player: int, card: Card) -> list[int | None] | None:
        if card.rank != "7" or card.is_wild or len(state.hands[player]) <= 1:
            return None
        others: list[int | None] = [s for s in state.active() if s != player]
        return others if self.options.mandatory else [None, *others]

    def cards_targets(self, state: GameState, player: int,
                      cards: Collection[Card]) -> dict[Card, list[int | None]]:
        """`card_targets` for many cards at once (the engine lists a hand's
        moves with it): the 7s among them, each with the same targets."""
        if len(state.hands[player]) <= 1:
            return {}
        sevens = [c for c in cards if c.rank == "7" and not c.is_wild]
        if not sevens:
            return {}
        others: list[int | None] = [s for s in state.active() if s != player]
        return dict.fromkeys(sevens, others if self.options.mandatory else [None, *others])

    def move_value(self, state: GameState, move: Move) -> float | None:
        """A 7 aimed at a seat (played alone or last of several) swaps the
        hand it leaves for theirs: worth the difference, for the AI."""
        last = move.cards[-1] if move.cards else move.card
        if move.target is None or last is None or last.is_wild or last.rank != "7":
            return None
        left = len(state.hands[move.player]) - 1 - len(move.cards)
        return float(left - len(state.hands[move.target]))

    @hookimpl
    def on_play(self, state: GameState, move: Move, card: Card, events: list[Event]) -> bool | None:
        if card.is_wild or card.rank not in ("7", "0") or not state.hands[move.player]:
            return None
        rules = state.rules
        if card.rank == "7":
            if move.target is not None:
                rules.on_swap(state, move.player, move.target, events)
        else:
            rules.on_rotate(state, move.player, events)
        advance(state)
        return True
