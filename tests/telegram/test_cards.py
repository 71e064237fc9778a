"""Cards as pictures: every kind drawn, plugin cards included (`unobot cards --out DIR`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("PIL")

from PIL import Image  # noqa: E402

from unobot.adapters.telegram.cards import card_kinds, render_card  # noqa: E402
from unobot.cards import Card  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_every_kind_is_drawn_and_dim_differs() -> None:
    kinds = {c.text for c in card_kinds()}
    assert {"R5", "G+2", "BS", "YR", "W", "W+4"} <= kinds
    assert any(c.kind is not None for c in card_kinds())  # a plugin's card kind has its picture too
    bright = render_card(Card.get("G", "7"))
    dim = render_card(Card.get("G", "7"), dim=True)
    assert bright.size == (512, 512) and dim.size == (512, 512)
    r, g, b, _a = bright.getpixel((110, 256))
    dr, dg, db, _da = dim.getpixel((110, 256))
    assert g > r + 50 and abs(dg - dr) < 40  # green, then greyed out


def test_cards_command_writes_the_pictures(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "cards", "--out", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    files = sorted(tmp_path.glob("*.png"))
    assert len(files) == len(card_kinds())
    with Image.open(tmp_path / "Wplus4.png") as image:
        assert image.size == (512, 512)
