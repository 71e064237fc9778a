"""RLCard 1.2.0's rule-based UNO agent (`UNORuleAgentV1`) as a unobot player,
and a unobot level as a player inside RLCard's own game.

Why an adapter and not a copy: the agent itself decides (its `step` is
called with the raw state RLCard would give it), so the opponent is
RLCard's code, not our reading of it. In unobot's rules it is shown what
RLCard shows: its hand, the target card, and its legal actions in RLCard's
form (a play of any card that fits, a Wild Draw Four only when nothing else
fits, `draw` only with no play). What RLCard's game has no word for, the
adapter does the generous thing: it says UNO whenever it may, catches who
forgot, and never challenges (RLCard has no challenge).

Inside RLCard's game a unobot level sees a unobot state built from the
raw state of its seat: its own hand, the cards played, the counts; the
others' hands and the draw pile are filled with the unseen cards in a fixed
order (the levels never read them: tests/test_ai_hidden.py), under the
unobot rules closest to RLCard's (`RLCARD_RULES`).
"""

from __future__ import annotations

import random
from typing import Any

from unobot.cards import Card, parse_card
from unobot.engine import new_game
from unobot.moves import CATCH, DRAW, PASS, PLAY, UNO, Move, play_move, simple_move
from unobot.state import GameState

_COLOUR = {"r": "R", "g": "G", "b": "B", "y": "Y"}
_BACK = {v: k for k, v in _COLOUR.items()}
_TRAIT = {"skip": "S", "reverse": "R", "draw_2": "+2", "wild": "", "wild_draw_4": "+4"}
_RANK = {v: k for k, v in _TRAIT.items() if v not in ("", "+4")}

#: unobot's rules closest to RLCard's game: no voluntary draw, a drawn card
#: that fits is played (force-play; RLCard 1.2.0's `_perform_draw_action`
#: plays a drawn wild or a drawn card of the target's colour within the draw,
#: and keeps one that matches by rank only, which force-play plays), a Wild
#: Draw Four only without the colour, no challenge, no UNO call, a Reverse
#: with two players only reverses.
RLCARD_RULES = {
    "must-play": True, "force-play": True, "no-bluffing": True, "challenge": False, "uno-call": False,
    "card-effects": {"two_player_reverse_skips": False},
}


def to_card(text: str) -> Card:
    """RLCard's `r-5`, `g-skip`, `b-wild_draw_4` as a unobot card."""
    colour, trait = text.split("-", 1)
    if trait in ("wild", "wild_draw_4"):
        return parse_card("W" + _TRAIT[trait])
    return parse_card(_COLOUR[colour] + _TRAIT.get(trait, trait))


def to_action(move: Move) -> str:
    """A unobot move as RLCard's action string."""
    if move.kind == DRAW or move.kind == PASS:
        return "draw"
    card = move.card
    assert card is not None
    if card.is_wild:
        assert move.color is not None
        return f"{_BACK[move.color]}-{'wild_draw_4' if card.draw == 4 else 'wild'}"
    assert card.color is not None
    return f"{_BACK[card.color]}-{_RANK.get(card.rank, card.rank)}"


def card_text(card: Card, colour: str | None = None) -> str:
    """A unobot card as RLCard's card string (a wild takes `colour`, or black)."""
    if card.is_wild:
        c = _BACK[colour] if colour else "black"
        return f"{c}-{'wild_draw_4' if card.draw == 4 else 'wild'}"
    assert card.color is not None
    return f"{_BACK[card.color]}-{_RANK.get(card.rank, card.rank)}"


class RuleAgent:
    """`UNORuleAgentV1` choosing among unobot's legal moves."""

    def __init__(self) -> None:
        from rlcard.models.uno_rule_models import UNORuleAgentV1

        self.agent = UNORuleAgentV1()

    def __call__(self, state: GameState, player: int, moves: list[Move], rnd: random.Random) -> Move:
        for kind in (UNO, CATCH):
            for m in moves:
                if m.kind == kind:
                    return m  # what RLCard has no word for: the generous thing
        plays = [m for m in moves if m.kind == PLAY and m.card is not None and m.target is None]
        if not plays:
            for kind in (DRAW, PASS):
                for m in moves:
                    if m.kind == kind:
                        return m
            return moves[0]
        # RLCard's legal actions: any card that fits, a Wild Draw Four only without another.
        others = [m for m in plays if not (m.card is not None and m.card.is_wild and m.card.draw == 4)]
        offered = others or plays
        by_action = {to_action(m): m for m in offered}
        raw = {"hand": [card_text(c) for c in state.hands[player]],
               "target": card_text(state.discard[-1], state.color) if state.discard else "",
               "legal_actions": list(by_action)}
        action = self.agent.step({"raw_legal_actions": list(by_action), "raw_obs": raw})
        return by_action[str(action)]


def mirror(game: Any, seat: int, seed: int) -> tuple[GameState, list[Move]]:
    """A unobot state and legal moves for `seat` of an RLCard UnoGame, from
    what that seat sees (the others' cards are the unseen ones in a fixed
    order: no level reads them)."""
    raw = game.get_state(seat)
    n = game.num_players
    state, _ = new_game("official", [f"p{i}" for i in range(n)], seed=seed, overrides=RLCARD_RULES)
    hand = [to_card(t) for t in raw["hand"]]
    played = [to_card(t) for t in raw["played_cards"]]
    if not played or played[-1] is not to_card(raw["target"]):
        played.append(to_card(raw["target"]))
    from collections import Counter

    from unobot.cards import official_deck

    pool = Counter(official_deck())
    pool.subtract(hand)
    pool.subtract(played)
    rest = sorted((+pool).elements(), key=lambda c: c.text)
    hands: list[list[Card]] = []
    for s in range(n):
        if s == seat:
            hands.append(hand)
        else:
            k = raw["num_cards"][s]
            hands.append(rest[:k])
            rest = rest[k:]
    state.hands = hands
    state.discard = played
    state.draw_pile = rest
    target = raw["target"]
    state.color = _COLOUR.get(target.split("-")[0])
    state.turn = seat
    state.direction = game.round.direction
    state.pending = 0
    state.drawn = None
    state.draws = 0
    state.uno = 0
    state.exposed = -1
    state.legal = None
    moves: list[Move] = []
    for action in raw["legal_actions"]:
        if action == "draw":
            moves.append(simple_move(DRAW, seat))
            continue
        colour, trait = action.split("-", 1)
        card = to_card(action)
        moves.append(play_move(seat, card, _COLOUR[colour] if card.is_wild else None))
    return state, moves


def public_move(game: Any, pid: int, action: str) -> Any:
    """What the other seats see of `pid`'s `action` in RLCard's game, as
    unobot moves, once the step is made: a play, or a draw (and, when the
    drawn card fitted, RLCard plays it at once: that play too). Returned as
    a function of the game after the step and the played-cards count
    before it, so a level can `observe` it like any public move."""

    def moves(after: Any, played_before: int) -> list[Move]:
        if action != "draw":
            colour, _ = action.split("-", 1)
            card = to_card(action)
            return [play_move(pid, card, _COLOUR[colour] if card.is_wild else None)]
        out = [simple_move(DRAW, pid)]
        pile = after.round.played_cards
        if len(pile) > played_before:  # the drawn card fitted and was played
            card = to_card(pile[-1].str)
            out.append(play_move(pid, card, _COLOUR.get(pile[-1].color) if card.is_wild else None))
        return out

    return moves
