"""Only the player who may act can act; a hand never reaches the group."""

from __future__ import annotations

import pytest

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, TableDriver, bot_messages
from tests.telegram.test_game import lobby_and_start, open_table, short_games
from unobot.adapters.telegram import inline_results

JSON = dict


def codes(results: list[JSON]) -> dict[str, str]:
    """result id -> move code, for the results of one inline answer."""
    out = {}
    for result in results:
        choice = inline_results.decode(result["id"])
        assert choice is not None, result["id"]
        out[result["id"]] = choice.code
    return out


async def started(server: BotAPIServer, bot: BotProcess) -> TableDriver:
    driver = await open_table(server, bot, seed=2)
    await short_games(bot, driver.chat, scoring="target=0")
    await lobby_and_start(driver)
    return driver


async def refusal(server: BotAPIServer, inline_message_id: str) -> str:
    call = await server.wait_for("editMessageText", lambda p: p.get("inline_message_id") == inline_message_id,
                                 after=0)
    return str(call.params["text"])


async def test_forged_stale_and_outsider_choices_change_nothing(server: BotAPIServer, bot: BotProcess) -> None:
    driver = await started(server, bot)
    table = await driver.table()
    assert table is not None and table.game is not None
    on_turn = driver.by_name[driver.turn_name() or ""]
    other = next(p for p in driver.players if p is not on_turn)
    version = table.version

    hand = await driver.hand(on_turn)
    answer = server.inline_answers[server.calls_to("answerInlineQuery")[-1]["inline_query_id"]]
    assert answer["is_personal"] is True and answer["cache_time"] == 0
    moves = codes(hand)
    move_id = next(rid for rid, code in moves.items() if code[0] in "pd")
    # Every result id carries the chat, the version and the user.
    assert all(rid.startswith(f"{driver.chat}:{version}:{on_turn['id']}:") for rid in moves)
    assert all(len(rid.encode()) <= 64 for rid in moves)

    # Another player picks the on-turn player's result (a forged id).
    update = server.choose_inline_result(other, move_id, inline_message_id="forged-1")
    await bot.settle(update)
    assert "someone else" in await refusal(server, "forged-1")
    assert (await driver.table()).version == version  # type: ignore[union-attr]

    # A stranger sees no game, and a result forged in their name is refused by the service.
    dave = server.user(104, "Dave")
    results = await driver.hand(dave)
    assert [r["title"] for r in results] == ["You are not in a game"]
    forged = inline_results.encode(driver.chat, version, str(dave["id"]), "d")
    await bot.settle(server.choose_inline_result(dave, forged, inline_message_id="forged-2"))
    assert "not playing" in await refusal(server, "forged-2")

    # Out of turn: the other player's draw is refused by the engine.
    forged = inline_results.encode(driver.chat, version, str(other["id"]), "d")
    await bot.settle(server.choose_inline_result(other, forged, inline_message_id="forged-3"))
    assert "not your turn" in (await refusal(server, "forged-3")).lower()

    # A card marked "not playable now": picked anyway, refused, nothing named in the group.
    other_hand = await driver.hand(other)
    unplayable = [rid for rid, code in codes(other_hand).items() if code.startswith("x")]
    assert unplayable, "out of turn every card is marked (no jump-in in official)"
    message, chosen = server.pick_inline_result(driver.group, other, unplayable[0])
    assert message["message"]["text"] == "🤔"
    assert chosen is not None
    await bot.settle(chosen)
    assert "cannot be played" in await refusal(server, chosen["chosen_inline_result"]["inline_message_id"])
    assert (await driver.table()).version == version  # type: ignore[union-attr]

    # Garbage ids are ignored.
    for junk in ("", "x", "1:2:3", f"{driver.chat}:v:1:d", "abc:1:2:pR5"):
        await bot.settle(server.choose_inline_result(on_turn, junk))
    assert (await driver.table()).version == version  # type: ignore[union-attr]

    # The real move works once; the same (now stale) result again is refused.
    await driver.choose(on_turn, move_id)
    after = await driver.table()
    assert after is not None and after.version > version
    again = server.choose_inline_result(on_turn, move_id, inline_message_id="stale-1")
    await bot.settle(again)
    assert "out of date" in await refusal(server, "stale-1")
    assert (await driver.table()).version == after.version  # type: ignore[union-attr]
    await driver.verify()


async def test_no_hand_in_any_group_message(server: BotAPIServer, bot: BotProcess) -> None:
    """A whole game, checking every sendMessage/editMessageText against every hand."""
    driver = await started(server, bot)
    mark, checked = len(server.calls), driver.stats.checked
    assert checked > 0  # the messages of the start, against the hands just dealt
    await driver.play()
    await driver.verify()  # and whatever came after the last move (jobs)
    group_texts = [c.params["text"] for c in server.calls[mark:] if c.method in ("sendMessage", "editMessageText")
                   and (c.params.get("chat_id") == driver.group["id"] or "inline_message_id" in c.params)]
    # Every group message of the game went through the check, the ones that end the match included
    # (checked against the last hands: the finished game is no longer the group's).
    assert len(group_texts) > 10
    assert driver.stats.checked - checked == len(group_texts)
    assert any("wins the match" in t for t in driver.stats.checked_after_end), driver.stats.checked_after_end
    # The check is strict, after the end too: one card of a hand as it was at the end is a leak.
    seen = driver.seen
    assert seen is not None and seen.ended
    loser = next(seat for seat in range(len(seen.hands)) if seen.hidden(seat))
    await bot.app.bot.send_message(driver.group["id"], f"By the way: {seen.hidden(loser)[0].text}")
    with pytest.raises(AssertionError, match=f"names cards of {seen.names[loser]}'s hand"):
        await driver.verify()
    # The inline answers (private to each player) are where the cards are.
    assert any("·" in r["title"] for a in server.inline_answers.values() for r in a["results"])


async def test_buttons_check_who_presses(server: BotAPIServer, bot: BotProcess) -> None:
    from unobot.adapters.telegram import keyboards
    from unobot.chat.render import error_text

    group = server.group()
    ann, ben, dave = server.user(1, "Ann"), server.user(2, "Ben"), server.user(4, "Dave")
    await bot.settle(server.send_command(group, ann, "/new"))
    await bot.settle(server.send_command(group, ben, "/join"))
    lobby = [m for m in server.shown(group) if server.buttons(group, m["message_id"])][-1]
    # Someone outside the game (and no admin) cannot start it or fill it with AI players.
    for data in (keyboards.START, keyboards.add_ai("expert"), keyboards.ADD_AI):
        press = server.press_button(group, dave, lobby["message_id"], data, strict=data != keyboards.ADD_AI)
        await bot.settle(press)
        assert (await server.wait_answer(press)).params["text"] == error_text("not_allowed_admin", "en")
    # A stale or forged button is answered, and changes nothing.
    press = server.press_button(group, dave, lobby["message_id"], keyboards.NEXT_ROUND, strict=False)
    await bot.settle(press)
    assert (await server.wait_answer(press)).params["text"] == error_text("not_started", "en")
    # A game button on an older message (here: the bot's reply to /stats) acts on nothing.
    await bot.settle(server.send_command(group, dave, "/stats"))
    old = bot_messages(server, group)[-1]
    press = server.press_button(group, ann, old["message_id"], keyboards.START, strict=False)
    await bot.settle(press)
    assert (await server.wait_answer(press)).params["text"] == "That button belongs to an older message."
    # Data no button of ours carries is refused in words, as Discord refuses it (it was answered empty).
    for data in ("g:bogus", "zz", ""):
        press = server.press_button(group, ann, lobby["message_id"], data, strict=False)
        await bot.settle(press)
        assert (await server.wait_answer(press)).params["text"] == error_text("bad_move", "en")
    press = server.press_button(group, dave, lobby["message_id"], "r:on:nonsense", strict=False)
    await bot.settle(press)
    assert (await server.wait_answer(press)).params["text"] == error_text("not_admin", "en")
    assert bot.service is not None
    table = await bot.service.table(str(group["id"]))
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Ben"] and table.game is None
