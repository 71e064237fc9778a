"""What the scenario files of the issue-11 rules cannot show: rules that
act between rounds (elimination, shuffled seats), the new decks, the
`time_up` move's text form, and their texts in Spanish."""

from __future__ import annotations

from collections import Counter

from unobot import Event, apply, legal_moves, new_game, next_round, parse_move
from unobot.chat.render import card_name, describe_event
from unobot.state import MATCH_OVER, ROUND_OVER
from unobot.variants import rules_for


def _deck(variant: str, players: int = 4) -> list[str]:
    rules = rules_for(variant)
    deck = list(rules.build_deck(players))
    for extra in rules.more_cards(players):
        deck.extend(extra)
    return [c.text for c in deck]


def test_official_2018_deck_has_112_cards() -> None:
    deck = Counter(_deck("official-2018"))
    assert sum(deck.values()) == 112
    assert deck["WSH"] == 1 and deck["WCU"] == 3


def test_no_mercy_deck() -> None:
    deck = Counter(_deck("no-mercy"))
    assert sum(deck.values()) == 164
    assert deck["W+10"] == 4 and deck["W+6"] == 4 and deck["WR+4"] == 8 and deck["WCR"] == 8
    assert deck["RSA"] == 2 and deck["RDA"] == 3 and deck["R+4"] == 2 and deck["R0"] == 2


def test_crazy_adds_the_new_cards_to_the_official_deck() -> None:
    deck = Counter(_deck("crazy"))
    assert sum(deck.values()) == 108 + 1 + 8 + 8
    assert deck["GSA"] == 1 and deck["WSH"] == 1


def _play_round(state, seat_policy=None):  # type: ignore[no-untyped-def]
    """Play the round with the first legal move each time (a quick, deterministic round)."""
    for _ in range(20_000):
        if state.phase != "play":
            return state
        moves = legal_moves(state, state.turn)
        plays = [m for m in moves if m.kind == "play"]
        state, _events = apply(state, (plays or moves)[0])
    raise AssertionError("the round did not end")


def test_elimination_puts_the_eliminated_out_of_the_next_rounds() -> None:
    state, _ = new_game("official", ["ana", "ben", "cat"], seed=3, overrides={"elimination": {}})
    state = _play_round(state)
    assert state.phase == ROUND_OVER
    gone = state.match["eliminated"]
    assert len(gone) == 1 and gone[0] != state.winner
    state, events = next_round(state)
    assert state.out == gone and not state.hands[gone[0]]
    assert state.dealer not in gone and state.turn not in gone
    assert any(e.kind == "eliminated" for e in events)
    state = _play_round(state)
    assert state.phase == MATCH_OVER
    assert len(state.match["eliminated"]) == 2


def test_elimination_by_cards_picks_the_biggest_hand() -> None:
    from unobot.plugins.elimination import Elimination

    state, _ = new_game("official", ["ana", "ben", "cat"], seed=1, overrides={"elimination": {}})
    rule = state.rules.rules["elimination"]
    assert isinstance(rule, Elimination)
    state.winner = 0
    state.hands = [[], state.hands[1][:2], state.hands[2][:3]]
    rule.score(state)
    assert state.match["eliminated"] == [2]


def test_shuffle_seats_changes_the_order_each_round() -> None:
    state, _ = new_game("official", ["a", "b", "c", "d", "e", "f"], seed=2,
                        overrides={"shuffle-seats": {}})
    orders = set()
    for _ in range(4):
        order = state.ext["seats"]
        assert sorted(order) == list(range(6))
        orders.add(tuple(order))
        follower = state.rules.next_turn(state, order[0], 0)
        assert follower == order[1]
        state = _play_round(state)
        if state.phase == MATCH_OVER:
            break
        state, _ = next_round(state)
    assert len(orders) > 1


def test_time_up_is_a_move_the_engine_applies() -> None:
    state, _ = new_game("official", ["ana", "ben"], seed=1, overrides={"blitz": {"minutes": 2}})
    move = parse_move("time_up", 1, state.players)
    assert move.kind == "time_up"
    after, events = apply(state, move)
    assert after.phase in (ROUND_OVER, MATCH_OVER)
    assert events[0].kind == "time_up"
    assert not any(m.kind == "time_up" for m in legal_moves(state, state.turn))


def test_new_texts_in_spanish() -> None:
    names = ["Ana", "Ben"].__getitem__
    line = describe_event(Event("deflected", 0, n=4, other=1), names, "es")
    assert line == "¡Ana desvía las 4 cartas a Ben!"
    line = describe_event(Event("mercy_out", 1, n=25), names, "es")
    assert line is not None and "piedad" in line
    from unobot import parse_card

    assert card_name(parse_card("RSA"), "es").startswith("Salta a todos")
    assert "baraja manos" in card_name(parse_card("WSH"), "es").lower()


def test_elimination_tie_goes_against_the_player_further_from_the_winner() -> None:
    state, _ = new_game("official", ["ana", "ben", "cat"], seed=1, overrides={"elimination": {}})
    rule = state.rules.rules["elimination"]
    state.winner = 1
    state.hands = [state.hands[0][:2], [], state.hands[2][:2]]
    rule.score(state)
    assert state.match["eliminated"] == [0]  # from ben: cat, then ana


def test_shuffle_seats_first_player_follows_the_dealer_in_the_new_order() -> None:
    for seed in range(40):
        state, _ = new_game("official", ["a", "b", "c", "d", "e"], seed=seed,
                            overrides={"shuffle-seats": {}})
        if not state.discard[-1].is_number:
            continue
        order = state.ext["seats"]
        assert state.turn == order[(order.index(state.dealer) + 1) % 5]


def test_a_discard_all_with_no_other_card_of_its_colour_tells_nothing_more() -> None:
    """Played with no other card of its colour, a Discard All said "Root
    discards 0 more cards of that colour." in every game (seen in the console,
    in English and Spanish); with some, it says how many."""
    from unobot.cards import parse_card
    from unobot.engine import setup_round
    from unobot.moves import play_move

    def said(hand: str) -> list[str]:
        game = setup_round("no-mercy", ["ana", "ben"], [[parse_card(t) for t in hand.split()],
                                                        [parse_card("B1"), parse_card("B2")]],
                           [parse_card("R3")], [parse_card("Y5"), parse_card("Y6")], turn=0)
        _game, events = apply(game, play_move(0, parse_card("RDA")))
        return [line for e in events if (line := describe_event(e, ["Ana", "Ben"].__getitem__, "en"))]

    assert not any("more card" in line for line in said("RDA G2 B5")), said("RDA G2 B5")
    assert "Ana discards 2 more cards of that colour." in said("RDA R1 R5 G2")


def test_a_colour_roulette_that_stops_at_the_first_card_says_one_card() -> None:
    """Seen in a console game of crazy in Spanish: "Tess levanta 1 cartas hasta
    que sale una de color verde." (the text had no plural form)."""
    from unobot.cards import parse_card
    from unobot.engine import setup_round
    from unobot.moves import play_move

    def said(draw: str, lang: str) -> list[str]:
        game = setup_round("no-mercy", ["ana", "ben"], [[parse_card("WCR"), parse_card("B2")],
                                                        [parse_card("B1"), parse_card("B3")]],
                           [parse_card("R3")], [parse_card(t) for t in draw.split()], turn=0)
        _game, events = apply(game, play_move(0, parse_card("WCR"), "G"))
        return [line for e in events if e.kind == "roulette_drawn"
                and (line := describe_event(e, ["Ana", "Ben"].__getitem__, lang))]

    assert said("G5 Y1", "en") == ["Ben turns up 1 card, and it is green."]
    assert said("G5 Y1", "es") == ["Ben levanta 1 carta, y es de color verde."]
    assert said("Y1 R2 G5", "en") == ["Ben turns up 3 cards until a green one comes."]
    assert said("Y1 R2 G5", "es") == ["Ben levanta 3 cartas hasta que sale una de color verde."]
