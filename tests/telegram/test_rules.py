"""/rules: admins switch house rules per chat; others cannot; the next game uses them."""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, bot_messages
from unobot import engine
from unobot.adapters.telegram import keyboards
from unobot.chat import commands as c
from unobot.chat.render import error_text
from unobot.chat.settings_menu import key_of

JSON = dict


def rules_message(server: BotAPIServer, chat: JSON) -> JSON:
    for message in reversed(server.shown(chat)):
        if any(str(b.get("callback_data", "")).startswith("r:") for b in server.buttons(chat, message["message_id"])):
            return message
    raise AssertionError("no /rules message")


async def press(server: BotAPIServer, bot: BotProcess, chat: JSON, user: JSON, data: str) -> JSON:
    message = rules_message(server, chat)
    update = server.press_button(chat, user, message["message_id"], data)
    await bot.settle(update)
    answer = await server.wait_answer(update)
    return answer.params


async def test_admin_changes_rules_and_next_game_uses_them(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group(title="House rules")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    server.set_status(group, ann, "creator")
    chat = str(group["id"])
    assert bot.service is not None

    # A member reads the rules: no switches.
    update = server.send_command(group, ben, "/rules")
    await bot.settle(update)
    read_only = (await server.wait_answer(update, "sendMessage")).params
    assert "Variant: Official rules" in read_only["text"] and "reply_markup" not in read_only
    # An admin gets them.
    await bot.settle(server.send_command(group, ann, "/rules"))
    shown = rules_message(server, group)
    assert "Variant: Official rules" in shown["text"]
    assert "House rules on: none" in shown["text"]
    data = [b["callback_data"] for b in server.buttons(group, shown["message_id"])]
    assert keyboards.RULE_ON + "stacking" in data
    assert all(len(d.encode()) <= 64 for d in data)

    # A member may look at the admin's switches, not touch them.
    answer = await press(server, bot, group, ben, keyboards.RULE_ON + "stacking")
    assert answer["text"] == error_text("not_admin", "en")
    assert (await bot.service.settings(chat))["rules"] == {}

    # The admin turns stacking on: saved for the chat, the keyboard shows it.
    answer = await press(server, bot, group, ann, keyboards.RULE_ON + "stacking")
    assert "Saved" in answer["text"]
    assert (await bot.service.settings(chat))["rules"] == {"stacking": {}}
    shown = rules_message(server, group)
    assert "House rules on: Stacking" in shown["text"]
    assert keyboards.RULE_OFF + "stacking" in [b["callback_data"] for b in server.buttons(group, shown["message_id"])]

    # Conflicting rules cannot both be on: an alert naming both, nothing changes.
    answer = await press(server, bot, group, ann, keyboards.RULE_ON + "no-bluffing")
    assert answer["text"] == ("“No bluffing with +4” cannot be on together with “Challenging a Wild Draw Four”: "
                              "turn “Challenging a Wild Draw Four” off first.")
    assert answer.get("show_alert") is True
    assert (await bot.service.settings(chat))["rules"] == {"stacking": {}}
    # The alert is the presser's alone: in their app's language (Ann's is English, even in a
    # Spanish chat); an admin whose app is Spanish reads it in Spanish.
    admin = c.Person(str(ann["id"]), "Ann", is_admin=True)
    assert (await bot.service.handle(chat, admin, c.SetLanguage("es"))).ok
    answer = await press(server, bot, group, ann, keyboards.RULE_ON + "no-bluffing")
    assert answer["text"].startswith("“No bluffing with +4” cannot be on together")
    eva = server.user(5, "Eva", language_code="es")
    server.set_status(group, eva, "administrator")
    answer = await press(server, bot, group, eva, keyboards.RULE_ON + "no-bluffing")
    assert answer["text"] == ("«Sin faroles con +4» no puede estar activa junto con «Desafiar un +4»: "
                              "desactiva «Desafiar un +4» primero.")
    assert (await bot.service.handle(chat, admin, c.SetLanguage("en"))).ok
    # ... until the other one is off.
    await press(server, bot, group, ann, keyboards.RULE_OFF + "challenge")
    answer = await press(server, bot, group, ann, keyboards.RULE_ON + "no-bluffing")
    assert "Saved" in answer["text"]

    # A timer from the keyboard.
    await press(server, bot, group, ann, keyboards.TIMER + "30")
    assert (await bot.service.settings(chat))["timer"] == 30

    # The next game plays with them.
    await bot.settle(server.send_command(group, ben, "/new"))
    await bot.settle(server.send_command(group, ann, "/join"))
    table = await bot.service.table(chat)
    assert table is not None and table.overrides["stacking"] == {} and table.timer == 30
    status = bot_messages(server, group)[-1]
    assert "30 seconds per turn" in status["text"]
    start = server.press_button(group, ben, status["message_id"], keyboards.START)
    await bot.settle(start)
    table = await bot.service.table(chat)
    assert table is not None and table.game is not None
    rules = engine.rules_of(table.game)
    assert rules.enabled("stacking") and rules.enabled("no-bluffing") and not rules.enabled("challenge")


async def test_variant_language_and_anonymous_admin(server: BotAPIServer, bot: BotProcess) -> None:
    group = server.group()
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    server.set_status(group, ann, "administrator")
    chat = str(group["id"])
    assert bot.service is not None

    update = server.send_command(group, ben, "/variant", "reglas-de-uno")
    await bot.settle(update)
    assert (await server.wait_answer(update)).params["text"] == error_text("not_admin", "en")
    update = server.send_command(group, ann, "/variant", "reglas-de-uno")
    await bot.settle(update)
    assert (await bot.service.settings(chat))["variant"] == "reglas-de-uno"

    # An anonymous admin writes as the group: an admin.
    update = server.send_command(group, ben, "/timer", "45", anonymous=True)
    await bot.settle(update)
    assert (await bot.service.settings(chat))["timer"] == 45

    update = server.send_command(group, ann, "/language", "es")
    await bot.settle(update)
    assert (await bot.service.settings(chat))["lang"] == "es"
    await bot.settle(server.send_command(group, ben, "/new", anonymous=True))
    table = await bot.service.table(chat)
    assert table is not None and table.lang == "es" and table.variant == "reglas-de-uno"
    # The anonymous admin opened it without a seat: the group itself cannot play.
    assert table.seats == [] and table.creator == chat
    update = server.send_command(group, ben, "/join", anonymous=True)
    await bot.settle(update)
    assert "anónimo" in (await server.wait_answer(update, "sendMessage")).params["text"]
    await bot.settle(server.send_command(group, ben, "/join"))
    table = await bot.service.table(chat)
    assert table is not None and [s.name for s in table.seats] == ["Ben"]

    # In a private chat the user is the admin of their own chat.
    private = server.private_chat(ben)
    update = server.send_command(private, ben, "/variant", "fast")
    await bot.settle(update)
    assert (await bot.service.settings(str(ben["id"])))["variant"] == "fast"


async def test_admin_sets_rule_options_from_rules(server: BotAPIServer, bot: BotProcess) -> None:
    """Each enabled rule's options: a number within bounds, a switch, a choice; persisted per chat."""
    group = server.group(title="Options")
    ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
    server.set_status(group, ann, "creator")
    chat = str(group["id"])
    assert bot.service is not None
    await bot.settle(server.send_command(group, ann, "/rules"))
    deck = keyboards.OPTIONS + key_of("deck")
    data = [b["callback_data"] for b in server.buttons(group, rules_message(server, group)["message_id"])]
    assert deck in data and keyboards.OPTIONS + key_of("starter") in data
    # A member cannot open the options; the admin can.
    assert (await press(server, bot, group, ben, deck))["text"] == error_text("not_admin", "en")
    await press(server, bot, group, ann, deck)
    shown = rules_message(server, group)
    assert "Options of" in shown["text"] and "Cards dealt" in shown["text"] and "hand_size" not in shown["text"]
    buttons = server.buttons(group, shown["message_id"])
    assert all(len(b["callback_data"].encode()) <= 64 and len(b["text"]) <= 200 for b in buttons)
    plus = next(b["callback_data"] for b in buttons if b["text"] == "+1" and ":0:" in b["callback_data"])
    assert "Saved" in (await press(server, bot, group, ann, plus))["text"]
    assert (await bot.service.settings(chat))["rules"] == {"deck": {"hand_size": 8}}
    # The option by its title in the reader's words, not its id (nobody types one in a chat).
    assert "Cards dealt: <b>8" in str(server.calls_to("editMessageText")[-1]["text"]) or \
        "Cards dealt: 8" in rules_message(server, group)["text"]
    # A forged value out of bounds, or a key that is no rule, changes nothing.
    key = key_of("deck")
    for forged in (f"{keyboards.SET_OPTION}{key}:0:31", f"{keyboards.SET_OPTION}{key}:0:²",
                   f"{keyboards.SET_OPTION}{key}:9:1", f"{keyboards.SET_OPTION}ffffffff:0:1", keyboards.OPTIONS + "zz"):
        message = rules_message(server, group)
        update = server.press_button(group, ann, message["message_id"], forged, strict=False)
        await bot.settle(update)
        await server.wait_answer(update)
    assert (await bot.service.settings(chat))["rules"] == {"deck": {"hand_size": 8}}
    # A switch and a choice of the starter rule.
    await press(server, bot, group, ann, keyboards.BACK)
    await press(server, bot, group, ann, keyboards.OPTIONS + key_of("starter"))
    buttons = server.buttons(group, rules_message(server, group)["message_id"])
    other_side = next(b["callback_data"] for b in buttons if "dealer's other side" in b["text"])
    redeal = next(b["callback_data"] for b in buttons if "Redeal a +4 starter" in b["text"])  # its title, not its key
    await press(server, bot, group, ann, other_side)
    await press(server, bot, group, ann, redeal)
    rules = (await bot.service.settings(chat))["rules"]
    assert rules["starter"] == {"reverse_first": "other_side", "redeal_wild_draw_four": False}
    # The next game is dealt with them.
    await bot.settle(server.send_command(group, ann, "/new"))
    table = await bot.service.table(chat)
    assert table is not None and table.overrides["deck"] == {"hand_size": 8}


async def test_a_lobbys_variant_clashing_with_house_rules_changed_since_says_which_and_how(
        server: BotAPIServer, bot: BotProcess) -> None:
    """`/new crazy` opens a lobby of another variant than the chat's; an admin
    then turns on a house rule that fits the chat's variant but clashes with
    Crazy's. Start was refused with "This game's rules cannot be loaded: a
    rule plugin it uses is missing or broken" (nothing is missing): now the
    chat reads which rules clash, by their titles in its language, and how
    to fix it, whole (a button's answer holds 200 characters: the rest is
    said in the chat)."""
    group = server.group(title="Choque")
    ana, ben = server.user(1, "Ana", language_code="es"), server.user(2, "Ben", language_code="es")
    server.set_status(group, ana, "creator")
    chat = str(group["id"])
    assert bot.service is not None
    await bot.settle(server.send_command(group, ana, "/language", "es"))
    await bot.settle(server.send_command(group, ana, "/new", "crazy"))
    await bot.settle(server.send_command(group, ben, "/join"))
    await bot.settle(server.send_command(group, ana, "/rules"))
    answer = await press(server, bot, group, ana, keyboards.RULE_ON + "auto-colour")
    assert "Guardado" in answer["text"] or "Saved" in answer["text"], answer
    table = await bot.service.table(chat)
    assert table is not None and table.variant == "crazy" and "auto-colour" in table.overrides
    mark = server.mark()
    start = server.press_button(group, ana, int(table.adapter["status"]), keyboards.START)
    await bot.settle(start)
    answered = (await server.wait_answer(start)).params.get("text") or ""
    await bot.idle()
    said = [str(call.params.get("text", "")) for call in server.calls[mark:] if call.method == "sendMessage"]
    told = " ".join([answered, *said])
    from unobot.registry import available_rules
    rules = available_rules()
    for name in ("auto-colour", "random-colour"):
        assert rules[name].label("es") in told, (name, told)
    assert "cargar" not in told and "/rules" in told, told
    assert all(len(text) <= 200 for text in [answered]), answered
    assert any(rules["auto-colour"].label("es") in text and "/rules" in text for text in said), said
    assert (await bot.service.table(chat)).phase == "lobby"  # type: ignore[union-attr]
