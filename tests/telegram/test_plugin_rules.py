"""A third-party rule in a Telegram group, end to end: a chat admin turns the
example plugin's rules on and sets an option from /rules, and the rule's own
move and texts reach the group in the chat's language (Spanish here).

The rules come from tests/example_plugin, a package of its own installed
like one from PyPI: nothing here is built into unobot.
"""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.rulekit import extra_rule
from tests.telegram.driver import BotProcess, TableDriver
from unobot import Event, GameState, Move, Rule, hookimpl
from unobot.adapters.telegram import inline_results, keyboards
from unobot.chat import commands as c
from unobot.chat.commands import Person
from unobot.chat.settings_menu import key_of, rule_ref
from unobot.chat.table import Table

ADMIN = Person("setup", "Setup", None, True)


async def past_a_wild_starter(driver: TableDriver) -> Table:
    """The started table, once its first player named the colour of a Wild starter
    (picked from their hand, as a person does), if the first card was one."""
    table = await driver.table()
    assert table is not None and table.game is not None
    if table.game.color is None:
        first = driver.players[table.game.turn]
        pick = next(r for r in await driver.hand(first) if inline_results.decode(r["id"]).code.startswith("h"))
        await driver.choose(first, pick["id"])
        table = await driver.table()
        assert table is not None and table.game is not None
    return table


async def test_a_plugin_rule_is_set_from_rules_and_speaks_the_chats_language(
        server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group(title="Noche de UNO")
    ana = server.user(201, "Ana", "ana", language_code="es")
    beto = server.user(202, "Beto", "beto", language_code="es")
    server.set_status(group, ana, "creator")
    driver = TableDriver(server, bot, group, [ana, beto], seed=3)
    assert bot.service is not None
    out = await bot.service.handle(driver.chat, ADMIN, c.SetLanguage(lang="es"))
    assert out.ok, out.error

    # The admin turns the plugin's rules on from /rules, and raises an option.
    await driver.command(ana, "/rules")
    for rule in ("skip-everyone", "knock"):
        await driver.press(ana, keyboards.RULE_ON + rule_ref(rule))
    settings = await bot.service.settings(driver.chat)
    assert settings["rules"] == {"skip-everyone": {}, "knock": {}}
    await driver.press(ana, keyboards.OPTIONS + key_of("skip-everyone"))
    options = driver.message_with(keyboards.BACK)
    # The plugin's option by its title in the chat's language, not its id (nobody types one here).
    assert options is not None and "Cartas por color" in options["text"] and "per_colour" not in options["text"]
    plus = next(b["callback_data"] for b in server.buttons(group, options["message_id"])
                if b["text"] == "+1" and ":0:" in b["callback_data"])
    await driver.press(ana, plus)
    settings = await bot.service.settings(driver.chat)
    assert settings["rules"]["skip-everyone"] == {"per_colour": 2}

    # A game under those rules: eight Skip Everyone cards are dealt in.
    await driver.command(ana, "/new")
    await driver.command(beto, "/join")
    await driver.press(ana, keyboards.START)
    table = await driver.table()
    assert table is not None and table.game is not None
    assert sum(card.rank == "SE" for card in table.game.all_cards()) == 8
    table = await past_a_wild_starter(driver)

    # The player to move knocks: the plugin's move is offered in Spanish ...
    player = driver.players[table.game.turn]
    results = await driver.hand(player)
    knock = next(r for r in results if inline_results.decode(r["id"]).code.startswith("m"))
    assert "Golpear la mesa" in knock["title"]
    await driver.choose(player, knock["id"])
    await bot.idle()
    table = await driver.table()
    assert table is not None and table.game is not None and table.game.match["knocks"]
    # ... and its event line reaches the group in the chat's language.
    shown = " ".join(m.get("text", "") for m in driver.bot_messages())
    assert f"{player['first_name']} golpea la mesa (1 golpe en la partida)." in shown, shown[-1500:]
    # A second knock this round is refused with the rule's own message, in Spanish.
    results = await driver.hand(player)
    assert not any(inline_results.decode(r["id"]).code.startswith("m") for r in results)
    out = await bot.service.handle(driver.chat, Person(str(player["id"]), player["first_name"], "es"),
                                   c.PluginMove(text="knock"))
    assert not out.ok and out.error == "Ya has golpeado la mesa en esta mano."


LONG_KIND = "shout-the-longest-move-name-a-plugin-author-ever-thought-of"


class LongMove(Rule):
    """A third-party move whose text alone passes Telegram's 64-byte result id."""

    name = "long-move"
    title = {"en": "Long move"}
    checks = (LONG_KIND,)
    move_kinds = {LONG_KIND: "Shout"}

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind != LONG_KIND:
            return None
        return True if move.player == state.turn and not state.ext.get("shouted") else "not_your_turn"

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        return [Move(LONG_KIND, player)] if player == state.turn and not state.ext.get("shouted") else None

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != LONG_KIND:
            return None
        state.ext = {**state.ext, "shouted": move.player}
        return True


async def test_a_plugin_move_whose_text_passes_64_bytes_is_offered_and_played(
        server: BotAPIServer, bot: BotProcess) -> None:
    """The result id carries the move's digest instead of its text (Telegram drops
    ids over 64 bytes); the pick finds the move again; a stale pick is refused."""
    with extra_rule(LongMove):
        group = server.group(title="Long moves")
        ana, ben = server.user(301, "Ana"), server.user(302, "Ben")
        driver = TableDriver(server, bot, group, [ana, ben], seed=5)
        assert bot.service is not None
        out = await bot.service.handle(driver.chat, ADMIN, c.SetRule(rule="long-move", enabled=True))
        assert out.ok, out.error
        await driver.command(ana, "/new")
        await driver.command(ben, "/join")
        await driver.press(ana, keyboards.START)
        table = await past_a_wild_starter(driver)
        player = driver.players[table.game.turn]
        long_id = f"{driver.chat}:{table.version}:{player['id']}:m{LONG_KIND}"
        assert len(long_id.encode()) > inline_results.MAX_ID  # what the plain code would have needed

        results = await driver.hand(player)
        assert all(len(r["id"].encode()) <= inline_results.MAX_ID for r in results)
        shout = next(r for r in results if inline_results.decode(r["id"]).code.startswith("M"))
        assert "Shout" in shout["title"]
        await driver.choose(player, shout["id"])
        await bot.idle()
        table = await driver.table()
        assert table is not None and table.game is not None
        assert table.game.ext.get("shouted") == table.seat_of(str(player["id"]))

        stale_version = table.version
        await driver.choose(player, shout["id"])  # the same pick again: the table moved on
        await bot.idle()
        again = await driver.table()
        assert again is not None and again.version == stale_version  # nothing changed
        said = [call for call in server.calls if "out of date" in str(call.params.get("text", ""))]
        assert said, "the stale pick was not answered"
