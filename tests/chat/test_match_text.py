"""How long a match lasts and how it ended (`match_text`), in the reader's language."""

from __future__ import annotations

from unobot.chat.match_text import match_length, match_winner, rounds_result
from unobot.chat.views import PlayerLine, TableView


def view(*scores: int, round: int = 3, winner: int = -1) -> TableView:
    players = [PlayerLine(i, str(i), name, 0, score=s) for i, (name, s) in enumerate(zip(("Ana", "Ben", "Cat"), scores))]
    return TableView("finished", "official", "Official", 9, players, round=round, winner=winner)


def test_rounds_win_over_the_target() -> None:
    assert match_length("en", rounds=3, target=500) == "The match ends after 3 rounds."
    assert match_length("en", rounds=1) == "The match ends after 1 round."
    assert match_length("en", target=500) == "First to 500 points wins the match."
    assert match_length("en") is None
    assert match_length("es", target=500) != match_length("en", target=500)


def test_after_the_last_round_the_leaders_win() -> None:
    assert rounds_result(view(120, 80, 40), "en") == "After 3 rounds, Ana wins with 120 points!"
    assert rounds_result(view(120, 120, 40, round=1), "en") == \
        "After 1 round, Ana, Ben share the lead with 120 points."
    assert rounds_result(view(120, 80, 40), "en", hidden=["0"]) == "After 3 rounds, Ben wins with 80 points!"


def test_the_match_s_winner() -> None:
    assert match_winner(view(512, 80, 40, winner=0), "en") == "Ana wins the match with 512 points!"
    assert match_winner(view(512, 80, 40), "en") is None


def test_a_lowest_wins_match_says_how_it_ends_and_who_leads() -> None:
    """Progressive scoring: reaching the target ends the match, the lowest
    total wins; after a set number of rounds the lowest total leads."""
    from unobot.chat.status_text import status_text
    from unobot.chat.table import Seat, Table

    low = view(120, 80, 40)
    low.lowest_wins = True
    assert match_length("en", target=60, lowest=True) == \
        "The match ends when someone reaches 60 points; the lowest total wins."
    assert rounds_result(low, "en") == "After 3 rounds, Cat wins with 40 points!"
    lobby = Table("-1", "1", overrides={"progressive-scoring": {"target": 60}},
                  seats=[Seat("1", "Ana")])
    lines = status_text(lobby).lines
    assert "🏁 The match ends when someone reaches 60 points; the lowest total wins." in lines, lines
