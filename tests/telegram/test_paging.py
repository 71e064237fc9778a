"""A reply longer than one Telegram message is paged, never cut; /variant
escapes a variant's title.

Before: `reply.reply_to` clipped every reply at 4,096 characters with "…", so
/variant in a bot with many variants (a plugin package's, a folder of the
operator's) lost the variants at its end, and nobody was told. And /variant
wrote each variant's title unescaped (and twice): one title with "<" or "&"
made Telegram refuse the whole list, and the admin got no answer at all.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.botapi import BotAPIServer
from tests.botapi.server import parse_html
from tests.support.redis_server import RedisServer
from tests.telegram.driver import BotProcess
from unobot.adapters.telegram.guard import utf16_len
from unobot.adapters.telegram.pages import pages


def shown(text: str) -> str:
    return parse_html(text)[0]


def test_pages_keep_every_character_and_each_parses_alone() -> None:
    """Random HTML with bold runs across lines, entities and emoji (two UTF-16 units):
    every page parses as Telegram HTML, fits the limit as Telegram counts it, and
    the pages together show all of the text."""
    rng = random.Random(5)
    pieces = ["ab", "cd", "😀e", "x&amp;y", "<b>B b</b>", "<code>R5 G+2</code>", "&lt;Bob&gt;"]
    for _ in range(200):
        lines = [" ".join(rng.choice(pieces) for _ in range(rng.randint(0, 40))) for _ in range(rng.randint(1, 50))]
        text = "\n".join(lines)
        if rng.random() < 0.4:
            text = "<b>" + text + "</b>"  # a run open across every page
        limit = rng.randint(20, 300)
        out = pages(text, limit, html_text=True)
        said = [shown(page) for page in out]
        assert all(0 < utf16_len(s) <= limit and s.strip() for s in said), (limit, out)
        assert "".join("".join(said).split()) == "".join(shown(text).split())
    assert pages("short <b>one</b>", html_text=True) == ["short <b>one</b>"]
    # Plain text, one word longer than a page: split inside it, nothing lost.
    assert pages("a" * 10 + "\n" + "b" * 25, 10) == ["a" * 10, "b" * 10, "b" * 10, "b" * 5]


@pytest.fixture
def many_variants(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Sixty variants beside the bundled ones (an operator's folder), each described at length."""
    names = [f"house-{n:02d}" for n in range(60)]
    for n, name in enumerate(names):
        (tmp_path / f"{name}.yaml").write_text(
            f"name: {name}\ntitle: {{en: House <{n}> & friends 🎲}}\n"
            f"description:\n  en: Variant number {n} of the house, with stacking, jump-in and seven-zero, "
            f"so that its line is long enough to fill a message with sixty of them ✨.\n"
            "extends: official\n", encoding="utf-8")
    monkeypatch.setenv("UNOBOT_VARIANTS_PATH", str(tmp_path))
    return names


async def test_a_variant_list_longer_than_a_message_comes_in_pages(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, many_variants: list[str]) -> None:
    bot = await BotProcess(server, redis_server.url, prefix).start()
    try:
        group, ann = server.group(), server.user(1, "Ann")
        update = server.send_command(group, ann, "/variant")
        await bot.settle(update)
        await bot.idle()
        replies = [m for m in server.shown(group) if m.get("from", {}).get("id") == server.bot_user["id"]]
        assert len(replies) >= 2, [len(m["text"]) for m in replies]
        assert all(len(m["text"].encode("utf-16-le")) // 2 <= 4096 for m in replies)
        text = "\n".join(m["text"] for m in replies)
        assert "…" not in text
        for n, name in enumerate(many_variants):  # every variant, in order, none cut
            assert f"House <{n}> & friends 🎲 · {name}\n    Variant number {n} of" in text, name
        assert text.index(many_variants[0]) < text.index(many_variants[-1])
        assert "/variant" in replies[-1]["text"]  # how to choose one: the list's last line, kept
        # the first page answers the command; the pages follow it in order
        assert replies[0]["reply_to_message"]["message_id"] == update["message"]["message_id"]
        # the names stayed in bold code runs across the pages (each page parsed on its own)
        assert all(any(e["type"] == "code" for e in m.get("entities", [])) for m in replies)
    finally:
        await bot.stop()
