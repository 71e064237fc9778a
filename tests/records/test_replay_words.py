"""A kept game told in words (`unobot replay --last`, core's `narrate`) says
each thing once, in every language.

Before, a caught bluff read "Ann challenged Root's Wild Draw Four: a bluff!
Root draws 4. Root takes 4 cards." (in Spanish "Root roba 4. Root roba 4
cartas."): the challenge's line told the bluffer's draw that the draw's own
event tells next, with the cards actually drawn."""

from __future__ import annotations

import re

import pytest

from unobot.chat.audit import narrate
from unobot.chat.i18n import LANGUAGES
from unobot.engine import legal_moves
from unobot.service import deal_entry, replay


def caught_bluff_log() -> list[str]:
    """A two-player official game where the first player bluffs a Wild Draw
    Four (holding the colour in play) and is challenged: its log."""
    for seed in range(500):
        log = [deal_entry("official", ["Ann", "Root"], seed)]
        state = replay(log)
        seat = state.turn
        plays = [m for m in legal_moves(state, seat) if m.kind == "play" and m.card is not None
                 and m.card.text == "W+4"]
        if plays and any(card.color == state.color for card in state.hands[seat]):
            log.append(f"{seat} {plays[0].text}")
            after = replay(log)
            challenges = [m for m in legal_moves(after, after.turn) if m.kind == "challenge"]
            if challenges:
                return [*log, f"{after.turn} {challenges[0].text}"]
    raise AssertionError("no seed deals a bluff")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_caught_bluff_tells_the_bluffers_draw_once(lang: str) -> None:
    record = {"log": caught_bluff_log(), "players": [{"name": "Ann"}, {"name": "Root"}]}
    told = narrate(record, lang)
    last = told[-1]
    assert "4" in last, last
    # The four cards are counted once: one "4" in the line (the move number aside).
    assert len(re.findall(r"(?<![\d+])4(?!\d)", last.split(None, 1)[1].replace("+4", ""))) == 1, last


def test_the_english_words() -> None:
    told = narrate({"log": caught_bluff_log(), "players": [{"name": "Ann"}, {"name": "Root"}]}, "en")
    assert told[-1].split(None, 1)[1] == "Ann challenged Root's Wild Draw Four: a bluff! Root takes 4 cards."
