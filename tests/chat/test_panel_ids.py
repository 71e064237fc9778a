"""Core's panel ids: what a press packs parses back to the same press, and
anything malformed or forged parses to None (never to some other press)."""

from __future__ import annotations

from unobot.chat import panel_ids as ids


def test_ids_are_a_thin_codec() -> None:
    assert ids.parse(ids.act(17, "pW+4.G")) == ids.Press("a", 17, "pW+4.G")
    assert ids.parse(ids.select(17, 2), ["?pW"]) == ids.Press("n", 17, "pW")
    assert ids.parse(ids.needs(17, "pW", 2)) == ids.Press("n", 17, "pW", 2)
    assert ids.parse(ids.page(17, 3)) == ids.Press("pg", 17, page=3)
    for bad in ("u|a|x|pR5", "u|a|17", "u|s|17|0", "u|pg|17|²", "u|a|17|pR5|9", "x|a|1|d", "u|a|1|" + "d" * 99):
        assert ids.parse(bad, None) is None, bad
    assert ids.parse_setting("s|channel|s:7d340494:0:5") == ids.Setting("channel", "s:7d340494:0:5")
    assert ids.parse_setting(ids.setting_select("server", 1)) == ids.Setting("server", select=1)
    for bad in ("s|galaxy|on:stacking", "s|channel|#x", "s|channel|", "r|t|channel|0", "s|channel|é"):
        assert ids.parse_setting(bad) is None, bad


def test_the_other_presses_round_trip() -> None:
    assert ids.parse(ids.hand_id()) == ids.Press("hand")
    assert ids.parse(ids.refresh(4)) == ids.Press("r", 4)
    assert ids.parse(ids.needs(4, "aiL")) == ids.Press("n", 4, "aiL")
    assert ids.parse(ids.select(4, 0), [ids.select_value("pR5")]) == ids.Press("a", 4, "pR5")
    assert ids.parse(ids.select(4, 0), [ids.select_value("pW", needs=True)]) == ids.Press("n", 4, "pW")
    assert ids.parse(ids.select(4, 0), ["pR5", "pG5"]) is None  # one pick, never two
    assert ids.parse_setting(ids.setting("channel", "pr:1")) == ids.Setting("channel", "pr:1")
    assert ids.parse_setting(ids.act(4, "pR5")) is None and ids.parse(ids.setting("channel", "pr:1")) is None
    assert not ids.fits("") and ids.fits("u" * ids.MAX_ID) and not ids.fits("u" * (ids.MAX_ID + 1))
