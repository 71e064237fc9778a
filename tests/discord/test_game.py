"""Whole games in a channel, played as members play them: slash commands,
buttons on the status message, ephemeral hands, select menus and pickers;
and a jump-in, out of turn, from a member's own hand."""

from __future__ import annotations

import pytest

from tests.discord.driver import ADMIN, BotProcess, TableDriver
from tests.discord_api import DiscordAPIServer, Member, Message
from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.table import BETWEEN_ROUNDS, PLAYING
from unobot.chat.views import hand_view


async def short_games(driver: TableDriver, **extra: str) -> None:
    """Channel settings that keep a test game short (hand size 3, a low target)."""
    out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule="deck", option="hand_size", value=3))
    assert out.ok, out.error
    for rule, value in extra.items():
        option, _, number = value.partition("=")
        out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule=rule, option=option,
                                                                        value=int(number)))
        assert out.ok, out.error


def three(server: DiscordAPIServer) -> list[Member]:
    return [server.member("Ann"), server.member("Bruno", locale="es-ES"), server.member("Cleo", locale="en-GB")]


async def lobby_and_start(driver: TableDriver, variant: str | None = None) -> None:
    ann, bruno, cleo = driver.members
    sent = await driver.slash(ann, "new", variant=variant)
    assert sent.message is not None and not sent.message.ephemeral and "Ann" in sent.message.content
    await driver.press_status(bruno, "j")
    await driver.press_status(cleo, "j")
    table = await driver.table()
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Bruno", "Cleo"]
    refused = await driver.press_status(bruno, "g")  # only the creator starts
    assert refused.message is not None and refused.message.viewer == bruno.id
    assert "Solo quien creó la partida" in refused.message.content  # in his language
    await driver.press_status(ann, "g")


@pytest.mark.parametrize(("variant", "target"), [("official", "target=100"), ("reglas-de-uno", "target=0")])
async def test_whole_game(server: DiscordAPIServer, bot: BotProcess, variant: str, target: str) -> None:
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    await short_games(driver, scoring=target)
    await lobby_and_start(driver, variant)
    table = await driver.table()
    assert table is not None and table.variant == variant and table.phase == "playing"
    status = driver.status_message()
    assert status is not None
    status_id = status.id
    stats = await driver.play()
    # One status message for the whole match, edited as it went, ending with the winner.
    shown = server.channel_messages(driver.channel)
    assert [m.id for m in shown] == [status_id]
    assert len(shown[0].versions) > stats.moves // 2
    assert "wins the match" in shown[0].content, shown[0].content
    assert [label for label, _cid in shown[0].custom_ids()] == ["🔁 Play again"]  # the one way on
    # Every member made real moves through their own hand.
    movers = {s.member.id for s in server.interactions.values()
              if s.payload["type"] == 3 and str(s.payload["data"]["custom_id"]).split("|")[1] in ("a", "s", "n")
              and "message" in s.payload and s.payload["message"]["flags"] & 64}
    assert movers == {m.id for m in driver.members}
    assert {"p", "d+"} <= set(stats.verbs) or {"p", "d"} <= set(stats.verbs), stats.verbs
    assert stats.checked > 10
    assert stats.refusals == 0 and stats.pickers >= 1  # a colour (or target) was picked
    # The Spanish member saw their hand in Spanish; the channel reads English.
    bruno = driver.members[1]
    hands = [m for m in server.messages.values() if m.viewer == bruno.id]
    assert hands and any("tu turno" in v[0] or "turno de" in v[0] for m in hands for v in m.versions)
    ann_hands = [m for m in server.messages.values() if m.viewer == driver.members[0].id]
    assert any("your turn" in v[0] or "'s turn" in v[0] for m in ann_hands for v in m.versions)
    # Stats were counted.
    chat_stats = await driver.service.stats("chat", driver.chat)
    assert chat_stats.get("matches") == 1


def option_described(message: Message, description: str) -> str | None:
    """The value of the select option (of a hand) shown with that description."""
    for row in message.components:
        for comp in row.get("components", []):
            for opt in comp.get("options", []) or []:
                if str(opt.get("description") or "").startswith(description):
                    return str(opt["value"])
    return None


async def test_a_member_jumps_in_out_of_turn(server: DiscordAPIServer, bot: BotProcess) -> None:
    """Jump-in on (a house rule of the channel): the members play as usual
    until one who is not on turn holds the top card's twin. Their own hand
    (ephemeral, opened with "My cards") offers it as a jump-in; they pick
    it from the select, out of turn, and the card is played: the turn
    passes on from them, and the channel's status message says they
    jumped in."""
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server), seed=2)
    out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule="jump-in", enabled=True))
    assert out.ok, out.error
    await lobby_and_start(driver)
    for _step in range(600):
        table = await driver.table()
        assert table is not None and table.game is not None, "the match ended with no jump-in"
        if table.phase == BETWEEN_ROUNDS:
            await driver.press_status(driver.members[0], "n")
            continue
        assert table.phase == PLAYING
        game = table.game
        jumpers = [m for m in driver.members
                   if (hv := hand_view(table, str(m.id))) is not None and not hv.is_turn and hv.jump_ins]
        if not jumpers:
            member = driver.member_of(table.seats[game.turn].id)
            assert member is not None
            await driver.turn(member)
            continue
        jumper = jumpers[0]
        seat = table.seat_of(str(jumper.id))
        assert seat is not None and seat != game.turn
        top = game.discard[-1].text
        held = len(game.hands[seat])
        hand = await driver.open_hand(jumper)
        _ = gettext_for("es" if jumper.locale.startswith("es") else "en")
        value = option_described(hand, _("Jump in with this card!"))
        assert value is not None and value.lstrip("?").removeprefix("p").split(".")[0] == top, (hand.content, value)
        sent = await driver.press(jumper, hand, f"u|s|{table.version}|0", [value])
        if value.startswith("?"):  # a wild's twin: its colour next
            assert sent.message is not None
            colour = next(cid for _, cid in sent.message.custom_ids() if cid.startswith("u|a|"))
            sent = await driver.press(jumper, sent.message, colour)
        assert sent.message is not None and sent.message.id == hand.id and "⚠️" not in sent.message.content
        after = await driver.table()
        assert after is not None and after.game is not None and after.version > table.version
        assert ["jumped_in", seat, top] in [r[:3] for r in after.recent]
        assert after.game.discard[-1].text == top and len(after.game.hands[seat]) == held - 1
        if after.phase == PLAYING:
            assert after.game.turn != seat  # the turn went on from the jumper
        status = driver.status_message()
        assert status is not None and f"{jumper.name} jumps in!" in status.content, status.content
        await driver.check_privacy(after)
        return
    raise AssertionError("no member could jump in within 600 steps")
