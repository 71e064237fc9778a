"""Discord shows the cards as pictures (the stickers' art, `adapters/card_art.py`):
the status message carries the top card, a member's panel their hand, the
cards not playable now greyed; a lobby and a finished game carry none, and
each edit replaces the picture, never piles them up."""

from __future__ import annotations

import io

from PIL import Image

from tests.discord.driver import BotProcess, TableDriver
from tests.discord.test_game import three
from tests.discord_api import DiscordAPIServer
from unobot.adapters.card_art import HAND_HEIGHT, HAND_ROW, card_png, hand_png
from unobot.adapters.discord.render import TOP_HEIGHT
from unobot.chat.views import hand_view


async def test_the_top_card_and_the_hand_are_pictures(server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    ann = driver.members[0]
    await driver.slash(ann, "new", variant="official")
    lobby = driver.status_message()
    assert lobby is not None and lobby.attachments == []  # nothing on the table yet
    for member in driver.members[1:]:
        await driver.press_status(member, "j")
    await driver.press_status(ann, "g")
    table = await driver.table()
    assert table is not None and table.game is not None and table.game.top is not None
    status = driver.status_message()
    assert status is not None and [a["filename"] for a in status.attachments] == ["top.png"]
    assert status.picture() == card_png(table.game.top, TOP_HEIGHT)
    # The hand: one picture, each card once per copy, the playable ones bright.
    person = next(m for m in driver.members if str(m.id) == table.seats[table.game.turn].id)
    panel = await driver.open_hand(person)
    hv = hand_view(table, str(person.id))
    assert hv is not None
    cards = [(hc.card, hc.playable) for hc in hv.cards for _n in range(hc.count)]
    assert [a["filename"] for a in panel.attachments] == ["hand.png"]
    assert panel.picture() == hand_png(cards)
    picture = Image.open(io.BytesIO(panel.picture() or b""))
    rows = -(-len(cards) // HAND_ROW)
    assert picture.height > (rows - 1) * HAND_HEIGHT and picture.height <= rows * HAND_HEIGHT + rows * 8
    # A move: the status's picture is the new top card, still one attachment.
    before = len(status.versions)
    await driver.turn(person)
    after = await driver.table()
    assert after is not None and after.version > table.version
    status = driver.status_message()
    assert status is not None and len(status.versions) > before and len(status.attachments) == 1
    if after.game is not None and after.phase == "playing":
        assert after.game.top is not None and status.picture() == card_png(after.game.top, TOP_HEIGHT)
    # Stopped: the final status shows no card.
    await driver.slash(ann, "stop")
    stopped = await driver.table()
    assert stopped is None or stopped.phase == "finished"
    status = next(m for m in server.channel_messages(driver.channel) if m.id == status.id)
    assert status.attachments == []


def test_a_huge_hand_is_drawn_in_rows_never_cut() -> None:
    from unobot.cards import parse_card

    cards = [(parse_card("R5"), True)] * (HAND_ROW * 3 + 1) + [(parse_card("B7"), False)]
    picture = Image.open(io.BytesIO(hand_png(cards)))
    assert picture.height >= 4 * HAND_HEIGHT  # four rows: 38 cards at 12 a row
    greyed = Image.open(io.BytesIO(card_png(parse_card("B7"), HAND_HEIGHT, True))).convert("RGB")
    bright = Image.open(io.BytesIO(card_png(parse_card("B7"), HAND_HEIGHT, False))).convert("RGB")
    # The card's blue field, greyed: its colour is gone (red, green and blue close together).
    at = (greyed.width * 8 // 10, greyed.height // 9)  # upper right, beside the corner index
    r, g, b = greyed.getpixel(at)
    assert max(r, g, b) - min(r, g, b) < 40 and bright.getpixel(at)[2] - bright.getpixel(at)[0] > 80
