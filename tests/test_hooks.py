"""One test per hook: a throwaway rule implements it and the engine obeys.

The meta-test at the end fails when a hook of core/hookspecs.py has no
`test_hook_<name>` here (the datasette habit).
"""

from __future__ import annotations

import sys

from tests.rulekit import extra_rule, table
from unobot import (
    CHALLENGE,
    PASS,
    PLAY,
    UNO,
    Card,
    Event,
    GameState,
    Move,
    Rule,
    advance,
    dataclass,
    hookimpl,
    hookspecs,
)
from unobot.cards import Card as C
from unobot.cards import official_deck, parse_card
from unobot.engine import apply, legal_moves, new_game, timeout
from unobot.errors import MoveError
from unobot.events import CARD_PLAYED, HANDS_ROTATED, HANDS_SWAPPED
from unobot.moves import parse_move
from unobot.variants import rules_for


def play(state: GameState, who: str, text: str) -> tuple[GameState, list[Event]]:
    return apply(state, parse_move(text, state.seat(who), state.players))


def refused(state: GameState, who: str, text: str) -> str:
    try:
        play(state, who, text)
    except MoveError as exc:
        return exc.code
    raise AssertionError(f"{who}: {text} was accepted")


def test_hook_build_deck() -> None:
    class SmallDeck(Rule):
        name = "small-deck"

        @hookimpl
        def build_deck(self, players: int) -> list[C]:
            return [parse_card("R1")] * (players * 7 + 10)

    with extra_rule(SmallDeck):
        state, _ = new_game("official", ["a", "b"], seed=1, overrides={"small-deck": {}})
    assert {c.text for c in state.all_cards()} == {"R1"}
    assert len(state.all_cards()) == 24


def test_hook_hand_size() -> None:
    state, _ = new_game("official", ["a", "b", "c"], seed=3, overrides={"deck": {"hand_size": 5}})
    assert [len(h) for h in state.hands] == [5, 5, 5]


def test_hook_first_card() -> None:
    class SkipFirst(Rule):
        name = "always-skip-first"

        @hookimpl(tryfirst=True)
        def first_card(self, state: GameState, card: C, events: list[Event]) -> bool:
            state.turn = state.rules.next_turn(state, state.turn, 0)
            return True

    deck = official_deck()
    with extra_rule(SkipFirst):
        state, _ = new_game("official", ["a", "b", "c"], seed=1, dealer=2,
                            overrides={"always-skip-first": {}})
    assert state.turn == 1  # dealer 2 -> first is 0 -> skipped to 1
    assert len(deck) == 108


def test_hook_card_fits() -> None:
    class OnlyRed(Rule):
        name = "only-red"

        @hookimpl(tryfirst=True)
        def card_fits(self, card: C) -> bool | None:
            return card.color == "R" or None

    with extra_rule(OnlyRed):
        state = table(discard="G3", hands={"ana": "R5 G7", "ben": "B1", "cat": "Y1"},
                      overrides={"only-red": {}})
        plays = {m.card.text for m in legal_moves(state, 0) if m.kind == PLAY}
    assert plays == {"R5", "G7"}  # R5 now fits on G3; G7 still fits by colour


def test_hook_fit_refusal() -> None:
    """A rule that refuses a fit may say why: its own code, else `does_not_fit`."""
    class NoGreen(Rule):
        name = "no-green"
        refusals = {"no_green": "No green today."}

        @hookimpl(tryfirst=True)
        def card_fits(self, card: C) -> bool | None:
            return False if card.color == "G" else None

        @hookimpl
        def fit_refusal(self, card: C) -> str | None:
            return "no_green" if card.color == "G" else None

    with extra_rule(NoGreen):
        state = table(discard="G3", hands={"ana": "G5 B7", "ben": "B1", "cat": "Y1"},
                      overrides={"no-green": {}})
        assert refused(state, "ana", "play G5") == "no_green"
        assert refused(state, "ana", "play B7") == "does_not_fit"  # refused by the top card: no reason of the rule's
    # The shipped rules that refuse by a condition of the hand say so.
    state = table("reglas-de-uno", discard="R3", hands={"ana": "G3 R8 W+4", "ben": "B1", "cat": "Y1"})
    assert refused(state, "ana", "play G3") == "play_colour_first"
    assert refused(state, "ana", "play W+4 blue") == "bluff_refused"


def test_hook_can_stack() -> None:
    state = table(hands={"ana": "R+2 R1", "ben": "B+2 G3", "cat": "Y7"})
    state, _ = play(state, "ana", "play R+2")
    assert state.turn == 2 and state.pending == 0  # official: ben drew and lost the turn
    state = table(hands={"ana": "R+2 R1", "ben": "B+2 G3", "cat": "Y7"}, overrides={"stacking": {}})
    state, _ = play(state, "ana", "play R+2")
    assert state.pending == 2 and state.turn == 1
    state, _ = play(state, "ben", "play B+2")
    assert state.pending == 4 and state.turn == 2


def test_hook_hold_penalty() -> None:
    class Hold(Rule):
        name = "hold-everything"

        @hookimpl(tryfirst=True)
        def hold_penalty(self) -> bool:
            return True

    with extra_rule(Hold):
        state = table(hands={"ana": "R+2 R1", "ben": "G3", "cat": "Y7"}, overrides={"hold-everything": {}})
        state, _ = play(state, "ana", "play R+2")
    assert state.pending == 2 and state.turn == 1
    assert refused(state, "ben", "play G3") == "pending_draw"


def test_hook_can_jump_in() -> None:
    state = table(discard="G3", hands={"ana": "R3", "ben": "B1", "cat": "G3 Y1"}, overrides={"jump-in": {}})
    state, events = play(state, "cat", "play G3")
    assert events[0].kind == "jumped_in"
    assert state.turn == 0  # after cat comes ana; ben lost the turn
    state = table(discard="G3", hands={"ana": "R3", "ben": "B1", "cat": "G3 Y1"})
    assert refused(state, "cat", "play G3") == "not_your_turn"


def test_hook_card_targets() -> None:
    state = table(discard="R3", hands={"ana": "R7 G1", "ben": "B1", "cat": "Y1 Y2 Y3"},
                  overrides={"seven-o": {}})
    targets = sorted(m.target for m in legal_moves(state, 0) if m.kind == PLAY and m.card.text == "R7")
    assert targets == [1, 2]
    assert refused(state, "ana", "play R7") == "target_required"
    state, _ = play(state, "ana", "play R7 cat")
    assert [c.text for c in state.hands[0]] == ["Y1", "Y2", "Y3"]


def test_hook_check_move() -> None:
    class NoPass(Rule):
        name = "no-pass"
        checks = (PASS,)

        @hookimpl(tryfirst=True)
        def check_move(self, move: Move) -> str | None:
            return "not_allowed" if move.kind == PASS else None

    with extra_rule(NoPass):
        state = table(discard="R3", hands={"ana": "G9", "ben": "B1", "cat": "Y1"}, draw="R8",
                      overrides={"no-pass": {}})
        state, _ = play(state, "ana", "draw")
        assert state.drawn is not None
        assert refused(state, "ana", "pass") == "not_allowed"
        assert not any(m.kind == PASS for m in legal_moves(state, 0))


def test_hook_extra_moves() -> None:
    state = table(hands={"ana": "R5 R6", "ben": "B1", "cat": "Y1"})
    assert Move(UNO, 0) in legal_moves(state, 0)
    state, _ = play(state, "ana", "play R5")
    assert any(m.kind == "catch" and m.target == 0 for m in legal_moves(state, 1))


def test_hook_before_play() -> None:
    seen: list[str] = []

    class Spy(Rule):
        name = "spy"

        @hookimpl
        def before_play(self, state: GameState, move: Move) -> None:
            seen.append(f"{move.card.text}:{len(state.hands[move.player])}")

    with extra_rule(Spy):
        state = table(overrides={"spy": {}})
        play(state, "ana", "play R5")
    assert seen == ["R5:3"]  # told before the card left the hand


def test_hook_on_wild() -> None:
    class AlwaysBlue(Rule):
        name = "always-blue"

        @hookimpl(tryfirst=True)
        def on_wild(self, state: GameState) -> bool:
            state.color = "B"
            return True

    with extra_rule(AlwaysBlue):
        state = table(hands={"ana": "W R1", "ben": "B1", "cat": "Y1"}, overrides={"always-blue": {}})
        state, _ = play(state, "ana", "play W red")
    assert state.color == "B"


def test_hook_on_play() -> None:
    state = table(hands={"ana": "RS R1", "ben": "B1", "cat": "Y1"})
    state, _ = play(state, "ana", "play RS")
    assert state.turn == 2
    state = table(hands={"ana": "RS R1", "ben": "B1", "cat": "Y1"}, overrides={"double-skip": {}})
    state, _ = play(state, "ana", "play RS")
    assert state.turn == 0  # the third-party rule (entry point) skips two


def test_hook_on_swap() -> None:
    class NoSwap(Rule):
        name = "no-swap"

        @hookimpl(tryfirst=True)
        def on_swap(self) -> bool:
            return True

    state = table(hands={"ana": "R7 R1", "ben": "B1", "cat": "Y1"}, overrides={"seven-o": {}})
    _, events = play(state, "ana", "play R7 ben")
    assert any(e.kind == HANDS_SWAPPED for e in events)
    with extra_rule(NoSwap):
        state = table(hands={"ana": "R7 R1", "ben": "B1", "cat": "Y1"},
                      overrides={"seven-o": {}, "no-swap": {}})
        state, _ = play(state, "ana", "play R7 ben")
    assert [c.text for c in state.hands[0]] == ["R1"]


def test_hook_on_rotate() -> None:
    state = table(hands={"ana": "R0 R1", "ben": "B1 B2", "cat": "Y1 Y2 Y3"}, overrides={"seven-o": {}})
    state, events = play(state, "ana", "play R0")
    assert any(e.kind == HANDS_ROTATED for e in events)
    assert [c.text for c in state.hands[1]] == ["R1"]
    assert [c.text for c in state.hands[2]] == ["B1", "B2"]
    assert [c.text for c in state.hands[0]] == ["Y1", "Y2", "Y3"]


def test_hook_on_draw() -> None:
    state = table(hands={"ana": "G9", "ben": "B1", "cat": "Y1"}, draw="G1 B2 R8",
                  overrides={"draw-to-match": {}})
    state, _ = play(state, "ana", "draw")
    assert sorted(c.text for c in state.hands[0]) == ["B2", "G1", "G9", "R8"]
    assert state.drawn is not None and state.drawn.text == "R8" and state.turn == 0


def test_hook_on_drawn_card() -> None:
    class Blind(Rule):
        name = "blind-draw"

        @hookimpl(tryfirst=True)
        def on_drawn_card(self) -> bool:
            return False

    with extra_rule(Blind):
        state = table(hands={"ana": "G9", "ben": "B1", "cat": "Y1"}, draw="R8",
                      overrides={"blind-draw": {}})
        state, _ = play(state, "ana", "draw")
    assert state.turn == 1  # the drawn R8 fits, but this rule ends the turn


def test_hook_on_pass() -> None:
    state = table(hands={"ana": "G9", "ben": "B1", "cat": "Y1"}, draw="R8")
    state, _ = play(state, "ana", "draw")
    state, events = play(state, "ana", "pass")
    assert state.turn == 1 and events[0].kind == "passed"


def test_hook_on_deck_empty() -> None:
    state = table(hands={"ana": "G9", "ben": "B1", "cat": "Y1"}, discard="B4 B6 R3", draw="")
    state, events = play(state, "ana", "draw")
    assert any(e.kind == "deck_reshuffled" for e in events)
    assert len(state.hands[0]) == 2 and [c.text for c in state.discard] == ["R3"]


def test_hook_on_challenge() -> None:
    state = table(hands={"ana": "W+4 R1", "ben": "B1", "cat": "Y1"})
    state, _ = play(state, "ana", "play W+4 green")
    assert Move(CHALLENGE, 1) in legal_moves(state, 1)
    state, events = play(state, "ben", "challenge")
    assert events[0].kind == "challenge_won"
    assert len(state.hands[0]) == 5 and state.turn == 1 and state.pending == 0


def test_hook_on_uno() -> None:
    state = table(hands={"ana": "R5 R6", "ben": "B1", "cat": "Y1"})
    state, _ = play(state, "ana", "uno")
    state, _ = play(state, "ana", "play R5")
    assert state.exposed == -1
    assert refused(state, "ben", "catch ana") == "nothing_to_catch"


def test_hook_on_catch() -> None:
    state = table(hands={"ana": "R5 R6", "ben": "B1", "cat": "Y1"}, overrides={"uno-call": {"penalty": 4}})
    state, _ = play(state, "ana", "play R5")
    state, events = play(state, "cat", "catch ana")
    assert len(state.hands[0]) == 5 and events[0].kind == "uno_caught"


def test_hook_after_move() -> None:
    state = table(hands={"ana": "R5 R6", "ben": "R1 B1 B2", "cat": "Y1"})
    state, _ = play(state, "ana", "play R5")
    assert state.exposed == 0
    state, _ = play(state, "ben", "play R1")
    assert state.exposed == -1  # the window closed when the next player played


def test_hook_next_turn() -> None:
    class Backwards(Rule):
        name = "backwards"

        @hookimpl(tryfirst=True)
        def next_turn(self, state: GameState, player: int, skip: int) -> int:
            return (player - 1 - skip) % len(state.players)

    with extra_rule(Backwards):
        state = table(overrides={"backwards": {}})
        state, _ = play(state, "ana", "play R5")
    assert state.turn == 2


def test_hook_on_go_out() -> None:
    state = table(hands={"ana": "R5", "ben": "B1", "cat": "Y1 Y2"}, overrides={"one-winner": {"places": True}})
    state, _ = play(state, "ana", "play R5")
    assert state.phase == "play" and state.out == [0] and state.turn == 1


def test_hook_score() -> None:
    state = table(hands={"ana": "R5", "ben": "B1 W", "cat": "Y1 YS"})
    state, _ = play(state, "ana", "play R5")
    assert state.scores == [1 + 50 + 1 + 20, 0, 0]
    state = table(hands={"ana": "R5", "ben": "B1 W", "cat": "Y1 YS"}, overrides={"progressive-scoring": {}})
    state, _ = play(state, "ana", "play R5")
    assert state.scores == [0, 51, 21]


def test_hook_score_add() -> None:
    class Bonus(Rule):
        name = "bonus-points"

        @hookimpl
        def score_add(self, state: GameState, points: dict[int, int]) -> dict[int, int]:
            return {seat: 5 for seat in points}

    with extra_rule(Bonus):
        state = table(hands={"ana": "R5", "ben": "B1 W", "cat": "Y1 YS"}, overrides={"bonus-points": {}})
        state, _ = play(state, "ana", "play R5")
    assert state.scores == [72 + 5, 0, 0]


def test_hook_score_factor() -> None:
    class Bonus(Rule):
        name = "bonus-points"

        @hookimpl(tryfirst=True)  # asked before double-score, added before it multiplies all the same
        def score_add(self, state: GameState, points: dict[int, int]) -> dict[int, int]:
            return {state.winner: 8}

    with extra_rule(Bonus):
        state = table(hands={"ana": "R5", "ben": "B1 W", "cat": "Y1 YS"},
                      overrides={"bonus-points": {}, "double-score": {"factor": 3}})
        state, _ = play(state, "ana", "play R5")
    assert state.scores == [(72 + 8) * 3, 0, 0]


def test_hook_round_end() -> None:
    seen: list[tuple[int, dict[int, int], list[int]]] = []

    class Report(Rule):
        name = "round-report"

        @hookimpl
        def round_end(self, state: GameState, points: dict[int, int], events: list[Event]) -> None:
            seen.append((state.winner, points, list(state.scores)))
            events.append(Event("round_report", state.winner, n=points[state.winner]))

    with extra_rule(Report):
        state = table(hands={"ana": "R5", "ben": "B1 W", "cat": "Y1 YS"}, overrides={"round-report": {}})
        state, events = play(state, "ana", "play R5")
    assert seen == [(0, {0: 72}, [72, 0, 0])]
    assert [e.kind for e in events].count("round_report") == 1


def test_hook_match_end() -> None:
    """Told exactly once, however the match ends: a winner named by the
    rules, the other players leaving, the chat stopping it."""
    from unobot.actions import ROUNDS, STOPPED, end_match
    from unobot.engine import remove_player

    seen: list[tuple[int, str, list[int]]] = []

    class Report(Rule):
        name = "end-watcher"

        @hookimpl
        def match_end(self, state: GameState, winner: int, reason: str, events: list[Event]) -> None:
            assert state.phase == "match_over"
            seen.append((winner, reason, list(state.scores)))

    with extra_rule(Report):
        won = table(hands={"ana": "R5", "ben": "B1 W", "cat": "Y1 YS"},
                    overrides={"end-watcher": {}, "scoring": {"target": 60}})
        won, _ = play(won, "ana", "play R5")
        assert seen == [(0, "won", [72, 0, 0])]
        end_match(won, -1, STOPPED, [])  # over already: nobody is told again
        assert len(seen) == 1
        seen.clear()
        left = table(hands={"ana": "R5 G1", "ben": "B1 W", "cat": "Y1 YS"}, overrides={"end-watcher": {}})
        left, _ = remove_player(left, 2)
        assert left.phase == "play" and not seen
        left, events = remove_player(left, 1)
        assert seen == [(0, "left", [0, 0, 0])]  # their hands went under the pile and events[-1].kind == "match_won"
        seen.clear()
        stopped = table(hands={"ana": "R5 G1", "ben": "B1 W", "cat": "Y1 YS"}, overrides={"end-watcher": {}})
        end_match(stopped, -1, STOPPED, [])
        assert seen == [(-1, "stopped", [0, 0, 0])]
        seen.clear()
        rounds = table(hands={"ana": "R5", "ben": "B1 W", "cat": "Y1 YS"}, overrides={"end-watcher": {}})
        rounds, _ = play(rounds, "ana", "play R5")
        assert rounds.phase == "round_over" and not seen  # a match to 500 goes on ...
        end_match(rounds, -1, ROUNDS, [])                 # ... until the chat's `--rounds 1` ends it
        assert seen == [(-1, "rounds", [72, 0, 0])]


def test_hook_match_winner() -> None:
    state = table(hands={"ana": "R5", "ben": "B1 W", "cat": "Y1 YS"}, overrides={"scoring": {"target": 60}})
    state, events = play(state, "ana", "play R5")
    assert state.phase == "match_over" and events[-1].kind == "match_won"


def test_hook_turn_seconds() -> None:
    assert rules_for("official").turn_seconds(table()) is None
    assert rules_for("fast").turn_seconds(table("fast")) == 15


def test_hook_on_timeout() -> None:
    state = table(hands={"ana": "G9", "ben": "B1", "cat": "Y1"}, draw="Y8")
    state, events = timeout(state)
    assert state.turn == 1 and len(state.hands[0]) == 2
    assert events[0].kind == "timed_out"


def test_hook_wrapper_falls_back_to_pluggy() -> None:
    calls: list[str] = []

    class Wrap(Rule):
        name = "wrap-on-play"

        @hookimpl(wrapper=True)
        def on_play(self, card: Card):  # type: ignore[no-untyped-def]
            calls.append(card.text)
            return (yield)

    with extra_rule(Wrap):
        state = table(overrides={"wrap-on-play": {}})
        state, events = play(state, "ana", "play R5")
    assert calls == ["R5"] and state.turn == 1 and events[0].kind == CARD_PLAYED


def test_options_reach_rule() -> None:
    @dataclass(frozen=True)
    class Opts:
        n: int = 1

    class WithOpts(Rule):
        name = "with-opts"
        Options = Opts

        @hookimpl
        def on_play(self, state: GameState, card: C) -> bool | None:
            if card.rank == "5":
                advance(state, self.options.n)
                return True
            return None

    with extra_rule(WithOpts):
        state = table(overrides={"with-opts": {"n": 1}})
        state, _ = play(state, "ana", "play R5")
    assert state.turn == 2


def test_hook_round_start() -> None:
    """A rule sees the last round's result and puts a seat out before the deal."""
    seen: list[int] = []

    class Eliminate(Rule):
        name = "eliminate-last"

        @hookimpl
        def round_start(self, state: GameState, previous: GameState | None, events: list[Event]) -> None:
            if previous is None:
                return
            seen.append(previous.winner)
            most = max(range(len(previous.hands)), key=lambda s: len(previous.hands[s]))
            state.match = {**state.match, "out": sorted({*state.match.get("out", []), most})}
            state.out = list(state.match["out"])

    from unobot.engine import next_round

    with extra_rule(Eliminate):
        state, _ = new_game("official", ["a", "b", "c"], seed=3, overrides={"eliminate-last": {}})
        state.hands[2].extend(state.draw_pile[:5])  # c holds the most cards
        del state.draw_pile[:5]
        state.winner = 0
        state2, _ = next_round(state)
    assert seen == [0]
    assert state2.out == [2] and state2.hands[2] == [] and state2.match == {"out": [2]}
    assert len(state2.hands[0]) == 7 and state2.turn != 2


def test_hook_cards_to_draw() -> None:
    """A cap inside drawing: nobody holds more than five cards."""
    class Cap(Rule):
        name = "cap-five"

        @hookimpl
        def cards_to_draw(self, state: GameState, player: int, n: int, reason: str) -> int:
            return max(0, min(n, 5 - len(state.hands[player])))

    with extra_rule(Cap):
        state = table(hands={"ana": "R+2 G5", "ben": "B7 G3 Y9 Y1", "cat": "Y7"},
                      overrides={"cap-five": {}})
        after, _ = play(state, "ana", "play R+2")
    assert len(after.hands[1]) == 5  # took 1 of the 2


def test_hook_on_move() -> None:
    """A plugin move kind: parsed, offered, checked and applied through on_move."""
    from unobot import registry
    from unobot.moves import Move as M

    class Shout(Rule):
        name = "shout"
        move_kinds = {"shout": "Shout"}

        @hookimpl
        def extra_moves(self, state: GameState, player: int) -> list[Move]:
            return [M("shout", player)]

        @hookimpl
        def check_move(self, state: GameState, move: Move) -> bool | None:
            return True if move.kind == "shout" else None

        @hookimpl
        def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
            if move.kind != "shout":
                return None
            state.ext = {**state.ext, "shouts": state.ext.get("shouts", 0) + 1}
            events.append(Event("shouted", move.player))
            return True

    with extra_rule(Shout):
        assert registry.declared(registry.MOVE_KINDS, "shout") is Shout
        state = table(overrides={"shout": {}})
        assert any(m.kind == "shout" for m in legal_moves(state, 1))
        after, events = play(state, "ben", "shout")
        assert after.ext["shouts"] == 1 and events[0].kind == "shouted"
        assert after.turn == state.turn
    state = table()
    assert refused(state, "ben", "play R5") == "not_your_turn"


def test_hook_more_cards() -> None:
    """Every rule's extra cards join the deck the deck rule built."""
    class Extra(Rule):
        name = "extra-cards"

        @hookimpl
        def more_cards(self, players: int) -> list[C]:
            return [parse_card("G5")] * players

    with extra_rule(Extra):
        state, _ = new_game("official", ["a", "b", "c"], seed=1, overrides={"extra-cards": {}})
    assert len(state.all_cards()) == 108 + 3
    assert sum(c.text == "G5" for c in state.all_cards()) == 2 + 3


def test_hook_round_seconds() -> None:
    """A rule gives the round a clock (blitz: minutes x 60); none by default."""
    state = table(overrides={"blitz": {"minutes": 3}})
    assert state.rules.round_seconds(state) == 180
    assert table().rules.round_seconds(table()) is None


def test_hook_time_up() -> None:
    """When the round's clock rings, the rule's move ends the round (fewest points in hand wins)."""
    state = table(hands={"ana": "R9 G9", "ben": "B1", "cat": "Y7 G9 B1"}, overrides={"blitz": {}})
    move = state.rules.time_up(state)
    assert move.kind == "time_up"
    after, events = apply(state, move)
    assert after.winner == 1 and after.phase != "play"
    assert events[0].kind == "time_up"


def test_hook_round_blocked() -> None:
    """When nobody can play or get a card, the engine asks the rules to end
    the round: a rule's answer wins over the shared one (fewest points)."""
    blocked = {"ana": "G1 G2", "ben": "B4 Y7", "cat": "Y1 G8"}  # nothing red, no 3; both piles empty
    state = table(hands=blocked, draw="")
    after, events = play(state, "ana", "draw")
    assert after.winner == 0 and [e.kind for e in events][-3:] == ["round_blocked", "round_won", "scores"]

    class LastSeatWins(Rule):
        name = "last-seat-wins"

        @hookimpl
        def round_blocked(self, state: GameState, events: list[Event]) -> bool:
            from unobot import end_round

            end_round(state, len(state.players) - 1, events)
            return True

    with extra_rule(LastSeatWins):
        state = table(hands=blocked, draw="", overrides={"last-seat-wins": {}})
        after, events = play(state, "ana", "draw")
    assert after.winner == 2 and "round_blocked" not in [e.kind for e in events]
    # A draw that brings a card is never a block, nor one that leaves anyone a play.
    assert play(table(hands=blocked, draw="G5"), "ana", "draw")[0].winner == -1
    assert play(table(hands={**blocked, "cat": "Y1 R8"}, draw=""), "ana", "draw")[0].winner == -1


def test_every_hook_has_a_test() -> None:
    module = sys.modules[__name__]
    missing = [n for n in hookspecs.spec_names() if not hasattr(module, f"test_hook_{n}")]
    assert not missing, f"hooks without a test_hook_<name>: {missing}"

