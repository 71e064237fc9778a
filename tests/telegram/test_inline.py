"""Inline results built from laid-out tables: colours, targets, jump-ins, UNO, ids."""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, TableDriver
from tests.telegram.test_game import short_games
from unobot.adapters.telegram import inline_handlers, inline_results, keyboards
from unobot.cards import parse_card
from unobot.chat import commands as c
from unobot.chat.table import PLAYING, Seat, Table
from unobot.engine import setup_round


def cards(text: str) -> list:
    return [parse_card(t) for t in text.split()]


def table(hands: list[str], top: str, *, turn: int = 0, overrides: dict | None = None,
          version: int = 12, variant: str = "official") -> Table:
    seats = [Seat("101", "Ann"), Seat("102", "Ben"), Seat("ai:1", "Ada (AI)", "strong")][:len(hands)]
    game = setup_round(variant, [s.id for s in seats], [cards(h) for h in hands], cards(top),
                       cards("R1 R2 R3 R4 R5 R6 R7 R8 R9"), turn=turn, overrides=overrides)
    t = Table(chat_id="-1001234567890", creator="101", seats=seats, phase=PLAYING, game=game,
              overrides=overrides or {}, variant=variant)
    t.version = version
    return t


def command_for(code: str, version: int) -> c.Command | None:
    """What a chosen result with this code becomes (core's table model decodes it)."""
    return inline_results.command_of(inline_results.Choice("-100", version, "101", code))


def by_code(results: list) -> dict[str, object]:
    return {inline_results.decode(r.id).code: r for r in results}  # type: ignore[union-attr]


def test_a_wild_offers_one_result_per_colour_and_unplayable_cards_are_marked() -> None:
    t = table(["W+4 G5 B7", "R5 R6"], "R9")
    results = inline_results.hand_results(t, "101")
    codes = [inline_results.decode(r.id).code for r in results]  # type: ignore[union-attr]
    assert codes[:4] == ["pW+4.R", "pW+4.Y", "pW+4.G", "pW+4.B"]
    assert "d" in codes
    assert codes[-2:] == ["xB7", "xG5"] or set(codes[-2:]) == {"xB7", "xG5"}
    titles = {inline_results.decode(r.id).code: r.title for r in results}  # type: ignore[union-attr]
    assert titles["pW+4.G"] == "⬛ W+4 · Wild Draw Four → 🟩 green"
    assert titles["xG5"].startswith("✖ G5 · Green 5")
    # Picking a card posts its name, except a card not playable now (it would show the hand).
    assert by_code(results)["xG5"].text == "🤔"  # type: ignore[attr-defined]
    assert all(len(r.id.encode()) <= 64 for r in results)
    assert all(r.id.startswith("-1001234567890:12:101:") for r in results)


def test_seven_o_offers_one_result_per_target() -> None:
    t = table(["R7 B2", "R5 R6 G1", "Y1 Y2"], "R9", overrides={"seven-o": {}})
    codes = list(by_code(inline_results.hand_results(t, "101")))
    assert "pR7@102" in codes and "pR7@ai:1" in codes
    command = command_for("pR7@ai:1", 12)
    assert command == c.Play(card="R7", color=None, target="ai:1", version=12)
    title = by_code(inline_results.hand_results(t, "101"))["pR7@102"].title  # type: ignore[attr-defined]
    assert title.endswith("⇄ Ben")


def test_out_of_turn_cards_are_jump_ins() -> None:
    t = table(["R5 G2", "R9 B3"], "R9", turn=0, overrides={"jump-in": {}})
    results = by_code(inline_results.hand_results(t, "102"))
    assert "pR9" in results
    assert results["pR9"].description == "Jump in with this card!"  # type: ignore[attr-defined]
    assert "d" not in results  # not Ben's turn: no draw


def test_uno_comes_first_and_codes_decode() -> None:
    t = table(["R5 R6", "G1 G2"], "R9")
    results = inline_results.hand_results(t, "101")
    codes = [inline_results.decode(r.id).code for r in results]  # type: ignore[union-attr]
    # Two cards on one's turn: each play together with UNO first, then UNO alone, then the plain plays.
    assert codes[:5] == ["pR5!", "pR6!", "u", "pR5", "pR6"]
    assert results[0].title == "🟥 R5 · Red 5 · UNO!" and results[0].text == results[0].title
    assert command_for("pR5!", 3) == c.Play(card="R5", version=3, uno=True)
    assert command_for("pW+4.G!", 3) == c.Play(card="W+4", color="green", version=3, uno=True)
    assert command_for("d!", 3) is None
    # Not one's turn (or more than two cards): UNO alone, no combined plays.
    other = [inline_results.decode(r.id).code for r in inline_results.hand_results(t, "102")]  # type: ignore[union-attr]
    assert not any(code.endswith("!") for code in other)
    assert command_for("u", 3) == c.SayUno(version=3)
    assert command_for("d", 3) == c.Draw(version=3)
    assert command_for("s", 3) == c.Pass(version=3)
    assert command_for("c", 3) == c.Challenge(version=3)
    assert command_for("k102", 3) == c.Catch(target="102", version=3)
    assert command_for("pW+4.G", 3) == c.Play(card="W+4", color="green", version=3)
    assert command_for("xR5", 3) is None
    assert command_for("n", 3) is None
    assert inline_results.decode("-100:7:101:pR7@ai:1") == inline_results.Choice("-100", 7, "101", "pR7@ai:1")
    for junk in ("", "a:b:c", "1:x:2:d", "1:2:3:"):
        assert inline_results.decode(junk) is None


def test_header_and_paging() -> None:
    t = table(["R5 R6 G1", "G1 G2"], "R9")
    assert inline_results.header(t, "101").endswith("your turn")
    assert inline_results.header(t, "102").endswith("Ann's turn")
    many = inline_results.hand_results(t, "101") * 20
    first, offset = inline_results.page(many, "")
    assert len(first) == 50 and offset == "50"
    last, offset = inline_results.page(many, str(len(many) - 3))
    assert len(last) == 3 and offset == ""


def test_typing_after_the_bot_name_narrows_the_results() -> None:
    t = table(["W+4 G5 B7 R3", "R5 R6"], "R9")
    results = inline_results.hand_results(t, "101")
    green = inline_results.matching(results, "green")
    assert {inline_results.decode(r.id).code for r in green} == {"pW+4.G", "xG5"}  # type: ignore[union-attr]
    assert inline_results.matching(results, "r3") == [r for r in results if "R3" in r.title]
    assert inline_results.matching(results, "nothing like it") == results
    assert inline_results.matching(results, "  ") == results


def test_titles_speak_the_players_language_and_the_group_reads_the_chats() -> None:
    """Only the player sees the list, so it is in their language; what a pick
    posts in the group stays in the chat's."""
    t = table(["W+4 G5 B7", "R5 R6"], "R9")  # an English chat
    results = by_code(inline_results.hand_results(t, "101", "es"))
    assert results["pW+4.G"].title == "⬛ W+4 · Comodín roba cuatro → 🟩 verde"  # type: ignore[attr-defined]
    assert results["pW+4.G"].text == "⬛ W+4 · Wild Draw Four → 🟩 green"  # type: ignore[attr-defined]
    assert results["xG5"].title == "✖ G5 · 5 verde"  # type: ignore[attr-defined]
    assert results["xG5"].description == "No se puede jugar ahora"  # type: ignore[attr-defined]
    assert inline_results.header(t, "101", "es").endswith("tu turno")
    assert inline_handlers.player_lang("es-MX", "en") == "es"
    assert inline_handlers.player_lang("tlh", "es") == "es"  # not spoken here: the chat's language
    assert inline_handlers.player_lang(None, "es") == "es"


def test_challenge_and_catch_are_offered_to_whom_they_belong() -> None:
    from unobot.engine import apply
    from unobot.moves import PLAY, Move

    # Ann plays a Wild Draw Four: Ben, who must take it, may challenge instead.
    t = table(["W+4 G5 B7", "R5 R6"], "R9")
    assert t.game is not None
    t.game, _events = apply(t.game, Move(PLAY, 0, parse_card("W+4"), "G"))
    ben = by_code(inline_results.hand_results(t, "102"))
    assert "c" in ben and ben["c"].title == "⚖️ Challenge the Wild Draw Four"  # type: ignore[attr-defined]
    assert "c" not in by_code(inline_results.hand_results(t, "101"))
    assert command_for("c", t.version) == c.Challenge(version=t.version)

    # Ann goes down to one card without saying UNO: Ben may catch her.
    t = table(["R5 G2", "R9 B3"], "R9")
    assert t.game is not None
    t.game, _events = apply(t.game, Move(PLAY, 0, parse_card("R5")))
    ben = by_code(inline_results.hand_results(t, "102"))
    assert "k101" in ben and "Ann" in ben["k101"].title  # type: ignore[attr-defined]
    assert command_for("k101", 7) == c.Catch(target="101", version=7)
    ann = inline_results.hand_results(t, "101")
    assert not any(inline_results.decode(r.id).code.startswith("k") for r in ann)  # type: ignore[union-attr]


def test_draw_and_play_is_offered_unless_a_penalty_is_pending() -> None:
    t = table(["G5 B7", "R5 R6"], "R9")  # nothing fits: draw, or draw-and-play
    results = by_code(inline_results.hand_results(t, "101"))
    assert results["d+"].title == "📥 Draw, and play it if it fits"  # type: ignore[attr-defined]
    assert command_for("d+", 4) == c.Draw(then_play=True, version=4)
    assert "d" in results
    spanish = by_code(inline_results.hand_results(t, "101", "es"))
    assert spanish["d+"].title == "📥 Robar, y jugarla si vale"  # type: ignore[attr-defined]
    assert spanish["d+"].text == "📥 Draw, and play it if it fits"  # type: ignore[attr-defined]
    from unobot.engine import apply
    from unobot.moves import PLAY, Move

    # Stacking: the +2 waits on Ben, who may answer it or take it; taking it ends the turn.
    t = table(["G5 G6 R+2", "B5 B6", "Y1 Y2"], "R9", overrides={"stacking": {}})
    assert t.game is not None
    t.game, _events = apply(t.game, Move(PLAY, 0, parse_card("R+2")))
    assert t.game.pending == 2
    ben = by_code(inline_results.hand_results(t, "102"))
    assert "d" in ben and "d+" not in ben
    assert ben["d"].title == "📥 Take 2 cards"  # type: ignore[attr-defined]


def test_draw_and_play_says_what_happens_when_the_card_does_not_fit() -> None:
    official = by_code(inline_results.hand_results(table(["G5 B7", "R5 R6"], "R9"), "101"))
    assert official["d+"].description == "If it does not fit, your turn ends"  # type: ignore[attr-defined]
    keeps = table(["G5 B7", "R5 R6"], "R9", overrides={"draw-until-playable": {}})
    assert by_code(inline_results.hand_results(keeps, "101"))["d+"].description == \
        "If it does not fit, you draw again"  # type: ignore[attr-defined]


def test_draw_and_play_says_the_turn_goes_on_under_reglas_de_uno_in_spanish() -> None:
    """reglas-de-uno draws until a card can be played: "draw, and play it if it
    fits" says a card that does not fit means drawing again, in Spanish and
    English, on a table as the store gives it back (its rules not yet compiled)."""
    laid = table(["G5 B7", "R5 R6"], "R9", variant="reglas-de-uno")
    laid.lang = "es"
    stored = Table.decode(laid.encode())
    assert stored.game is not None and stored.game.rules is None  # compiled when first asked
    for t in (laid, stored):
        spanish = by_code(inline_results.hand_results(t, "101", "es"))
        assert spanish["d+"].title == "📥 Robar, y jugarla si vale"  # type: ignore[attr-defined]
        assert spanish["d+"].description == "Si no vale, robas otra"  # type: ignore[attr-defined]
        assert spanish["d+"].text == "📥 Robar, y jugarla si vale"  # type: ignore[attr-defined]
        english = by_code(inline_results.hand_results(t, "101", "en"))
        assert english["d+"].description == "If it does not fit, you draw again"  # type: ignore[attr-defined]
    official = Table.decode(table(["G5 B7", "R5 R6"], "R9").encode())
    assert by_code(inline_results.hand_results(official, "101", "es"))["d+"].description == \
        "Si no vale, se acaba tu turno"  # type: ignore[attr-defined]


async def test_draw_and_play_under_reglas_de_uno_through_the_bot(server: BotAPIServer, bot: BotProcess) -> None:
    """A Spanish group plays reglas-de-uno: the hand says a card that does not fit
    means drawing again, and so it is: after the pick the player is still on turn."""
    from tests.telegram.test_game import ADMIN
    from unobot.chat import commands as cmd

    ana, beto = server.user(1, "Ana", language_code="es"), server.user(2, "Beto", language_code="es")
    driver = TableDriver(server, bot, server.group(title="Grupo"), [ana, beto], check_privacy=False)
    await short_games(bot, driver.chat)
    assert bot.service is not None
    assert (await bot.service.handle(driver.chat, ADMIN, cmd.SetLanguage("es"))).ok
    await driver.command(ana, "/new", "reglas-de-uno")
    await driver.press(beto, keyboards.JOIN)
    await driver.press(ana, keyboards.START)

    def rig(t: Table) -> list[str]:  # Ana on turn with nothing that fits; the next card does not fit either
        assert t.game is not None and t.variant == "reglas-de-uno"
        t.game.turn, t.game.color, t.game.pending, t.game.drawn = 0, "R", 0, None
        t.game.discard.append(parse_card("R9"))
        t.game.hands[0] = cards("G1 B2 Y3")
        t.game.draw_pile.append(parse_card("G5"))
        return []

    assert await bot.service.mutate(driver.chat, rig) is not None
    results = {inline_results.decode(r["id"]).code: r for r in await driver.hand(ana)}  # type: ignore[union-attr]
    assert results["d+"]["title"] == "📥 Robar, y jugarla si vale"
    assert results["d+"]["description"] == "Si no vale, robas otra"
    await driver.choose(ana, results["d+"]["id"])
    after = await driver.table()
    assert after is not None and after.game is not None
    assert after.game.turn == 0 and [c.text for c in after.game.hands[0]] == ["G1", "B2", "Y3", "G5"]


def test_no_uno_while_cards_are_to_be_taken() -> None:
    t = table(["G5 B7", "R5 R6"], "R9")
    assert t.game is not None
    t.game.pending = 4
    codes = set(by_code(inline_results.hand_results(t, "101")))
    assert "u" not in codes and not any(code.endswith("!") for code in codes)


def test_the_hand_marks_the_cards_drawn_last_a_penalty_and_a_draw() -> None:
    """The table keeps each person's last draw (all the cards of it), so the hand says
    it whenever it is opened, in the player's language: the private "You drew" may be lost."""
    from unobot.chat import play
    from unobot.chat.outcome import Outcome
    from unobot.chat.table import Table as TableClass

    t = table(["R+2 G5 B7 Y7", "R5 R6 G1"], "R9")  # the draw pile: R1, R2, ...
    ann, ben = c.Person("101", "Ann"), c.Person("102", "Ben", "es-ES")

    def do(person: c.Person, cmd: c.Command) -> Outcome:
        out = Outcome(table=t)
        assert play.step(t, person, cmd, out, now=0.0)
        return out

    def new_marks(user: str, lang: str = "en") -> dict[str, str]:
        return {inline_results.decode(r.id).code: str(r.description)  # type: ignore[union-attr]
                for r in inline_results.hand_results(t, user, lang) if r.description and "🆕" in r.description}

    out = do(ann, c.Play(card="R+2"))  # Ben takes two cards, a penalty
    taken = [card.text for card in out.events[1].cards]
    assert out.events[1].kind == "penalty_taken" and len(taken) == 2
    marks = new_marks("102")
    assert {code[1:] for code in marks} == set(taken), marks
    assert all(d.endswith("· 🆕 your last draw") for d in marks.values()), marks
    spanish = new_marks("102", "es")
    assert all(d.endswith("· 🆕 lo último que robaste") for d in spanish.values()), spanish
    assert new_marks("101") == {}  # Ann drew nothing
    # Kept in the stored table (another process shows the same).
    t = TableClass.decode(t.encode())
    assert {code[1:] for code in new_marks("102")} == set(taken)

    # Ann draws of her own will: her card is marked, as Ben's two still are.
    out = do(ann, c.Draw())
    drawn = out.events[0].cards[0].text
    assert [code[1:] for code in new_marks("101")] == [drawn]
    assert {code[1:] for code in new_marks("102")} == set(taken)
    do(ann, c.Pass())
    # Ben plays one of the two (both red): the other stays marked. His app speaks Spanish:
    # his seat keeps it, so his private lines from now on are Spanish in any process.
    assert t.game is not None and t.game.turn == 1
    playable = sorted(code for code in new_marks("102") if code.startswith("p"))
    assert [code[1:] for code in playable] == sorted(taken)
    out = do(ben, c.Play(card=playable[0][1:]))
    assert {code[1:] for code in new_marks("102")} == set(taken) - {playable[0][1:]}
    assert t.seats[1].lang == "es" and TableClass.decode(t.encode()).seats[1].lang == "es"


async def test_a_watcher_of_one_game_gets_no_hand_of_their_other_game(server: BotAPIServer, bot: BotProcess) -> None:
    """Ann plays in Room B and watches Room A: "My cards" under A's status
    (its query names A) answers that she does not play there (in her own
    language), never her hand of B, whose picks would be posted in A."""
    ann, ana = server.user(1, "Ann"), server.user(4, "Ana", language_code="es")
    ben, cid, dan = server.user(2, "Ben"), server.user(3, "Cid"), server.user(5, "Dan")
    drivers = {}
    for title, players in (("Room A", [ben, dan]), ("Room B", [cid, ann, ana])):
        driver = TableDriver(server, bot, server.group(title=title), players, check_privacy=False)
        await short_games(bot, driver.chat)
        await driver.command(players[0], "/new")
        for other in players[1:]:
            await driver.press(other, keyboards.JOIN)
        await driver.press(players[0], keyboards.START)
        drivers[title] = driver
    room_a, room_b = drivers["Room A"], drivers["Room B"]
    status = room_a.status_message()
    assert status is not None
    query = server.buttons(room_a.group, status["message_id"])[0]["switch_inline_query_current_chat"]
    assert query == f"#{room_a.chat} "
    for user, expected in ((ann, "You are not playing in this group's game"),
                           (ana, "No juegas en la partida de este grupo")):
        update = server.inline_query(user, query)
        await bot.settle(update)
        results = server.inline_answers[update["inline_query"]["id"]]["results"]
        assert [r["title"] for r in results] == [expected]
        choice = inline_results.decode(results[0]["id"])
        assert choice is not None and choice.chat == room_a.chat and choice.code.startswith("n")
        # Picked anyway, it is information only: neither game changes.
        before = [(await d.table()).version for d in (room_a, room_b)]  # type: ignore[union-attr]
        message, chosen = server.pick_inline_result(room_a.group, user, results[0]["id"])
        assert chosen is not None and message["message"]["text"] == expected
        await bot.settle(chosen)
        assert [(await d.table()).version for d in (room_a, room_b)] == before  # type: ignore[union-attr]
        # The same query naming B, where they play, is their hand of B.
        update = server.inline_query(user, f"#{room_b.chat} ")
        await bot.settle(update)
        results = server.inline_answers[update["inline_query"]["id"]]["results"]
        assert all((ch := inline_results.decode(r["id"])) and ch.chat == room_b.chat for r in results)
        assert any(not inline_results.decode(r["id"]).code.startswith("n") for r in results)  # type: ignore[union-attr]
    # A group with no game at all: the same answer.
    empty = server.group(title="Quiet")
    update = server.inline_query(ann, f"#{empty['id']} ")
    await bot.settle(update)
    results = server.inline_answers[update["inline_query"]["id"]]["results"]
    assert [r["title"] for r in results] == ["You are not playing in this group's game"]


def test_a_plugin_move_too_long_for_a_result_id_goes_by_digest() -> None:
    """Eight fives at once (multi-play) by a user with a ten-digit id, on a
    long-lived table: the model's plain id would make the result id pass 64
    bytes, so it goes by its digest, and the pick decodes to the whole move on
    the same table."""
    seats = [Seat("1234567890", "Ann"), Seat("102", "Ben")]
    overrides = {"multi-play": {}}
    game = setup_round("official", [s.id for s in seats], [cards("R5 R5 G5 G5 B5 B5 Y5 Y5"), cards("R6 R7")],
                       cards("R9"), cards("R1 R2 R3"), overrides=overrides)
    t = Table(chat_id="-1001234567890", creator="1234567890", seats=seats, phase=PLAYING, game=game,
              overrides=overrides)
    t.version = 12345678
    results = inline_results.hand_results(t, "1234567890")
    assert all(len(r.id.encode()) <= 64 for r in results)
    digests = [inline_results.decode(r.id) for r in results if inline_results.decode(r.id).code.startswith("M")]  # type: ignore[union-attr]
    assert digests, [r.id for r in results]
    commands = [inline_results.command_of(ch, t) for ch in digests if ch is not None]
    assert any(isinstance(cmd, c.PluginMove) and cmd.text.count("5") == 8 and cmd.version == 12345678
               for cmd in commands), commands
    # On a table that moved on, the digest is stale (the service refuses it; nothing is guessed).
    moved = Table.decode(t.encode())
    moved.version = 12345679
    stale = inline_results.command_of(digests[0], moved)  # type: ignore[arg-type]
    assert stale == c.PluginMove(text="", version=12345678)
