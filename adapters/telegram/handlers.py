"""Commands: Telegram messages in, neutral commands to the chat service out.

Handlers hold no game state: each one asks the service, then hands the
outcome to `publish.after` (status message, jobs). Refusals come back from the
service already translated and are answered to the person who asked.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Update,
)
from telegram.constants import ChatType, ParseMode
from telegram.error import Forbidden, TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from unobot.ai import DEFAULT_LEVEL, known_level
from unobot.chat import answers, typed
from unobot.chat import commands as c
from unobot.chat.commands import Person
from unobot.chat.i18n import LANGUAGE_NAMES, LANGUAGES, gettext_for, known, ngettext_for, normalize
from unobot.chat.markup import titled
from unobot.chat.place_names import TELEGRAM as PLACE_TELEGRAM
from unobot.chat.service import Outcome
from unobot.chat.settings_menu import CHOSEN_MARK
from unobot.chat.settings_press import applies_note
from unobot.chat.status_text import stop_line
from unobot.chat.table import LOBBY
from unobot.chat.views import variant_title

from . import (
    buttons,
    inline_handlers,
    inline_results,
    keyboards,
    membership,
    migrate,
    publish,
    users,
)
from .bot import uno_bot
from .guard import (
    admit,
    display_name,
    parse_int,
    person_of,
    split_place,
    telegram_id,
    thread_of,
    where,
)
from .notices import failure_text
from .opening import open_lobby
from .reply import reply_to as reply_message
from .runtime import runtime
from .texts import HTML, esc, help_text, welcome_text

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE


# -- who is asking ------------------------------------------------------------------

async def actor(update: Update, context: Context, *, admin: bool = False) -> Person:
    """The person behind a message; `admin` asks Telegram (cached) whether they are one."""
    chat = update.effective_chat
    user = update.effective_user
    message = update.effective_message
    assert chat is not None
    sender_chat = message.sender_chat if message is not None else None
    if sender_chat is not None and sender_chat.id == chat.id:
        # An anonymous admin writes as the group itself.
        return Person(str(chat.id), display_name(chat.title, "Admin"), None, True)
    if sender_chat is not None:
        # A member writing as a channel (a discussion group's, most often): the
        # sender is Telegram's Channel_Bot, shared by every channel; the channel
        # is who speaks. No admin of this group, and, as the group itself, no seat.
        return Person(str(sender_chat.id), display_name(sender_chat.title, "Channel"), None, False)
    assert user is not None
    is_admin = await runtime(context).admins.is_admin(context.bot, chat, user, sender_chat) if admin else False
    return person_of(user, is_admin)


async def chat_lang(context: Context, chat_id: int) -> str:
    return await runtime(context).service.language(str(chat_id))


async def reply(update: Update, text: str, *, markup: InlineKeyboardMarkup | None = None,
                html_text: bool = False, reply_to: int | None = None) -> None:
    """Answer a command with a reply (the one kind of new group message a person asks for).
    No text, no reply: a refusal said already (`Outcome.quiet`)."""
    message = update.effective_message
    if message is not None and text:
        reply_message(message, text, markup=markup, html_text=html_text, reply_to=reply_to)


async def run(update: Update, context: Context, command: c.Command, *, admin: bool = False) -> Outcome:
    """Carry out a command for the message's sender; refusals are replied to them."""
    chat = update.effective_chat
    assert chat is not None
    person = await actor(update, context, admin=admin)
    here = where(update)  # the chat, or its forum topic: a game per topic
    outcome = await runtime(context).service.handle(str(here), person, command)
    if not outcome.ok:
        await reply(update, outcome.error or "")
    elif outcome.changed or outcome.repeated:  # repeated: sent again, shown as it is, nothing said
        await publish.after(context, here, outcome)
    return outcome


# -- the game -------------------------------------------------------------------------

async def cmd_new(update: Update, context: Context) -> None:
    chat = update.effective_chat
    assert chat is not None
    rt = runtime(context)
    person = await actor(update, context)
    # A variant the bot does not know by name (or a path) is the service's refusal.
    variant = context.args[0] if context.args else None
    # An anonymous admin writes as the group: it opens the lobby but takes no seat
    # (the group itself could never pick a card).
    here = where(update)  # a game per forum topic
    outcome = await rt.service.handle(str(here), person,
                                      c.NewGame(variant=variant, join=not is_anonymous(person, chat.id)))
    if not outcome.ok:
        status = outcome.table.adapter.get("status") if outcome.table is not None else None
        # a refusal about the game there (running, or waiting for players) answers under its message
        await reply(update, outcome.error or "", reply_to=status if outcome.code in ("game_running", "lobby_open") else None)
        return
    if outcome.repeated:  # Telegram sent this /new again: the lobby it opened is shown, nothing said
        if outcome.table is not None:
            await publish.show(context, here, outcome.table)
        return
    await open_lobby(context, here, game_title(update), person, outcome)


def game_title(update: Update) -> str:
    """How a player in two games tells this one: the chat's title, and in a
    forum its topic's name (from the topic's first message, which Telegram
    sends along as the replied-to message), else its number."""
    chat = update.effective_chat
    message = update.effective_message
    title = chat.title or "" if chat is not None else ""
    thread = thread_of(message)
    if thread is None:
        return title
    replied = message.reply_to_message if message is not None else None
    created = replied.forum_topic_created if replied is not None else None
    topic = display_name(created.name, "") if created is not None else ""
    return f"{title} · {topic or '#' + str(thread)}"


def is_anonymous(person: Person, chat_id: int) -> bool:
    """A chat speaks, not a person: an anonymous admin (the group) or a
    channel. It may open a lobby, never take a seat: only a person asks for
    a hand, so its seat could never be played."""
    return person.id.startswith("-") and chat_id < 0


def seatless_text(person: Person, chat_id: int, lang: str) -> str:
    """Why `person` (a chat, `is_anonymous`) may not take a seat."""
    _ = gettext_for(lang)
    if person.id == str(chat_id):
        return _("Anonymous admins cannot take a seat: write as yourself to play.")
    return _("You are writing as a channel: write as yourself to take a seat.")


async def cmd_join(update: Update, context: Context) -> None:
    chat = update.effective_chat
    assert chat is not None
    person = await actor(update, context)
    if is_anonymous(person, chat.id):
        await reply(update, seatless_text(person, chat.id, await chat_lang(context, chat.id)))
        return
    outcome = await run(update, context, c.Join())
    if outcome.ok and update.effective_user and update.effective_chat:
        await inline_handlers.remember_player(context, update.effective_user.id, where(update))


async def cmd_leave(update: Update, context: Context) -> None:
    await run(update, context, c.Leave())


async def cmd_start(update: Update, context: Context) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None
    if chat.type == ChatType.PRIVATE and user is not None:
        rt = runtime(context)
        await users.set_private_ok(rt.store, user.id, True)
        rt.private_ok.put(str(user.id), True)
        table = await rt.service.table(str(chat.id))
        if context.args and context.args[0] == NOTIFY_START:
            await notify_started(update, context)
            return
        if context.args or table is None or table.phase != LOBBY:
            await welcome(update, context, help_only=bool(context.args and context.args[0] == "help"))
            return
    await run(update, context, c.Start(), admin=True)


NOTIFY_START = "notify"
"""The /start payload of /notify's "Open a private chat with me" button."""


async def notify_started(update: Update, context: Context) -> None:
    """The private chat opened from /notify's button: say that the notice
    asked for in the group will come here (the welcome said nothing of it,
    and the person could not tell whether their /notify had taken)."""
    user = update.effective_user
    assert user is not None
    settings = await runtime(context).store.get_chat_settings(str(user.id))
    _ = gettext_for(settings.get("lang") or normalize(user.language_code))
    await reply(update, _("You will get my notices here now: I will tell you when the next game opens "
                          "in a group where you used /notify."))


async def welcome(update: Update, context: Context, *, help_only: bool = False) -> None:
    user = update.effective_user
    assert user is not None
    rt = runtime(context)
    lang = normalize(user.language_code)
    settings = await rt.store.get_chat_settings(str(user.id))
    lang = settings.get("lang") or lang
    _ = gettext_for(lang)
    username = rt.bot_username or context.bot.username
    if help_only:
        await reply(update, help_text(lang, username), html_text=True)
        return
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(
        _("➕ Add me to a group"), url=f"https://t.me/{username}?startgroup=new")]])
    await reply(update, welcome_text(lang, user.first_name, username), html_text=True, markup=markup)


async def cmd_stop(update: Update, context: Context) -> None:
    chat = update.effective_chat
    assert chat is not None
    person = await actor(update, context, admin=True)
    here = where(update)
    outcome = await runtime(context).service.handle(str(here), person, c.Stop())
    if not outcome.ok or outcome.table is None:
        await reply(update, outcome.error or "")
        return
    await publish.show_stopped(context, here, outcome.table, stop_line(outcome.notices))


async def cmd_kick(update: Update, context: Context) -> None:
    message = update.effective_message
    chat = update.effective_chat
    assert message is not None and chat is not None
    replied = message.reply_to_message
    target = replied.from_user if replied is not None else None
    if target is None or target.is_bot:
        _ = gettext_for(await chat_lang(context, chat.id))
        await reply(update, _("Reply to a message of the player you want to remove, with /kick."))
        return
    await run(update, context, c.Kick(target=str(target.id)), admin=True)


async def cmd_skip(update: Update, context: Context) -> None:
    await run(update, context, c.Skip(), admin=True)


async def cmd_ai(update: Update, context: Context) -> None:
    count, words = 1, list(context.args or [])
    if words and words[0].isdecimal():
        count, words = int(words[0]), words[1:]
    elif words and words[0].lstrip("+-").isdecimal():
        count = 0  # `/ai -1`: said how many may be added
    # the level in any language (`/ai 2 schwer`; `bình thường` is two words); `/ai experto` adds one
    level = typed.level_of(" ".join(words)) if words else DEFAULT_LEVEL
    if not 1 <= count <= 9 or level is None or not known_level(level):
        chat = update.effective_chat
        assert chat is not None
        _ = gettext_for(await chat_lang(context, chat.id))
        await reply(update, _("Say how many AI players to add, 1 to 9: /ai 2") if not 1 <= count <= 9
                    else _("AI levels: easy, normal, hard, expert: /ai 2 hard"))
        return
    await run(update, context, c.AddAI(count=count, level=level), admin=True)


# -- settings ---------------------------------------------------------------------------

async def cmd_rules(update: Update, context: Context) -> None:
    chat = update.effective_chat
    assert chat is not None
    text, markup = await buttons.rules_view(context, chat.id)
    if chat.is_forum:  # a game per topic, one set of rules for them all
        _ = gettext_for(await chat_lang(context, chat.id))
        text += "\n\n<i>" + esc(_("These rules are this chat's: every topic's next game plays them.")) + "</i>"
    person = await actor(update, context, admin=True)
    # The switches only for admins; anyone else reads the rules (and an
    # admin's keyboard refuses their presses anyway).
    await reply(update, text, html_text=True, markup=markup if person.is_admin else None)


async def settings_command(update: Update, context: Context, command: c.Command) -> Outcome | None:
    chat = update.effective_chat
    assert chat is not None
    person = await actor(update, context, admin=True)
    rt = runtime(context)
    # The topic's place: core keeps the settings the chat's (`settings_places`) and
    # gives them to the lobby waiting in this topic.
    outcome = await rt.service.handle(str(where(update)), person, command)
    if not outcome.ok:
        await reply(update, outcome.error or "")
        return None
    await buttons.refresh_lobby(context, where(update), outcome)  # the chat's settings: every topic's lobby
    return outcome


async def cmd_variant(update: Update, context: Context) -> None:
    chat = update.effective_chat
    assert chat is not None
    rt = runtime(context)
    settings = await rt.service.settings(str(chat.id))
    lang = settings["lang"]
    _ = gettext_for(lang)
    if not context.args:
        lines = ["<b>" + esc(_("Variants")) + "</b>"]
        for e in keyboards.menu(settings, lang).variant_entries():  # every variant, the chat's marked
            # its title with the chat's mark (escaped: a variant's title may hold "<" or "&"), then its name
            lines.append(f"{esc(e.marked(CHOSEN_MARK))} · <code>{esc(e.name)}</code>"
                         + (f"\n    <i>{esc(e.hint)}</i>" if e.hint != e.name else ""))
        lines.append("")
        lines.append(esc(_("Choose one with /variant NAME (admins).")))
        await reply(update, "\n".join(lines), html_text=True)
        return
    # The service refuses a name it does not know (never reading a path).
    outcome = await settings_command(update, context, c.SetVariant(name=context.args[0]))
    if outcome is not None:
        title = variant_title(context.args[0], lang)
        said = _("Variant: {variant}. The game waiting for players here plays it too.") if outcome.to_lobby \
            else _("Variant: {variant}. It applies from the next game.")
        await reply(update, "✅ " + said.format(variant=title))


async def cmd_language(update: Update, context: Context) -> None:
    chat = update.effective_chat
    assert chat is not None
    if not context.args:
        lang = await chat_lang(context, chat.id)
        _ = gettext_for(lang)
        await reply(update, _("Language: {language}. Change it with /language and one of: {languages}.").format(
            language=LANGUAGE_NAMES.get(lang, lang), languages=", ".join(LANGUAGES)))
        return
    outcome = await settings_command(update, context, c.SetLanguage(lang=context.args[0]))
    if outcome is not None and outcome.settings is not None:
        lang = outcome.settings["lang"]
        _ = gettext_for(lang)
        await reply(update, "✅ " + _("Language: {language}.").format(language=LANGUAGE_NAMES.get(lang, lang)))


async def cmd_timer(update: Update, context: Context) -> None:
    chat = update.effective_chat
    assert chat is not None
    lang = await chat_lang(context, chat.id)
    _ = gettext_for(lang)
    word = context.args[0] if context.args else ""
    seconds = 0 if typed.is_off(word) else parse_int(word, 0)
    if seconds is None:
        await reply(update, _("Say how many seconds a turn may take, or off: /timer 60"))
        return
    outcome = await settings_command(update, context, c.SetTimer(seconds=seconds))
    if outcome is not None and outcome.settings is not None:
        n = int(outcome.settings["timer"])
        # (a real plural: "1 seconds" was said to a chat that typed /timer 1)
        ngettext = ngettext_for(lang)
        text = ngettext("Turn timer: {n} second", "Turn timer: {n} seconds", n).format(n=n) if n \
            else _("Turn timer: off")
        await reply(update, "✅ " + text + ". " + applies_note(lang, outcome.to_lobby))


# -- the rest ------------------------------------------------------------------------------

def reading(what: str) -> Any:
    """/stats, /top [period], /me, /last, /forgetme, /resetstats: core's answer
    (`unobot.chat.answers`), its title in bold."""

    async def command(update: Update, context: Context) -> None:
        chat = update.effective_chat
        assert chat is not None
        person = await actor(update, context, admin=what == "reset")
        # In a group the answer is the group's to read: /me names the player's other groups by kind only.
        lines = await answers.reading_lines(runtime(context).store, what, str(chat.id), person,
                                            await chat_lang(context, chat.id), " ".join(context.args or ()) or None,
                                            public=chat.type != ChatType.PRIVATE)
        await reply(update, HTML.text(titled(lines)), html_text=True)

    return command


async def cmd_notify(update: Update, context: Context) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    rt = runtime(context)
    lang = await chat_lang(context, chat.id)
    _ = gettext_for(lang)
    if chat.type == ChatType.PRIVATE:
        await reply(update, _("Use /notify in a group: I will tell you here when its next game opens."))
        return
    if is_anonymous(await actor(update, context), chat.id):  # the group itself has no private chat
        return
    own = known(user.language_code)
    await users.subscribe(rt.store, str(chat.id), user.id, own)
    text = _notify_confirmation(own or lang, chat.title or "")  # private: their own language when known
    bot = context.bot

    async def confirm() -> None:
        """The private confirmation (the notice sender's task: it may wait for
        the bot-wide budget), then the reply in the group saying how it went."""
        try:
            await bot.send_message(user.id, text, parse_mode=ParseMode.HTML)
        except Forbidden:
            username = rt.bot_username or bot.username
            markup = InlineKeyboardMarkup([[InlineKeyboardButton(
                _("Open a private chat with me"), url=f"https://t.me/{username}?start={NOTIFY_START}")]])
            # One answer that says both: the wish is kept (subscribed above) and how to receive it;
            # "I cannot write to you yet" alone read as a refusal of the /notify.
            await reply(update, _("Noted. Once you open a private chat with me and press Start, I will tell "
                                  "you there when the next game opens here."), markup=markup)
            return
        except TelegramError as exc:
            log.info("notify confirmation to %s failed: %s", user.id, exc)
            return
        await users.set_private_ok(rt.store, user.id, True)
        rt.private_ok.put(str(user.id), True)
        await reply(update, _("Done: I will tell you privately when the next game opens here."))

    rt.notices.submit(user.id, confirm)


def _notify_confirmation(lang: str, title: str) -> str:
    _ = gettext_for(lang)
    return esc(_("I will tell you when the next game opens in {chat}.").format(chat=title))


async def cmd_help(update: Update, context: Context) -> None:
    chat = update.effective_chat
    assert chat is not None
    lang = await chat_lang(context, chat.id)
    rt = runtime(context)
    await reply(update, help_text(lang, rt.bot_username or context.bot.username), html_text=True)


# -- errors -----------------------------------------------------------------------------------

async def on_error(update: object, context: Context) -> None:
    """Log the failure; tell the person briefly. Never show them a traceback,
    and never fail here (whatever the update lacks)."""
    try:
        await _report(update, context)
    except Exception as exc:  # noqa: BLE001 - the last line of defence must not raise
        log.warning("error handler failed: %s (while handling: %s)", exc, context.error)


async def _report(update: object, context: Context) -> None:
    chat_id: int | None = None
    if isinstance(update, Update):
        if update.effective_chat is not None:
            chat_id = update.effective_chat.id
        elif update.chosen_inline_result is not None:  # a pick names its game's chat in its id
            choice = inline_results.decode(update.chosen_inline_result.result_id)
            if choice is not None:
                chat_id = telegram_id(choice.chat)
    person_lang = None
    if isinstance(update, Update) and chat_id is None and update.effective_user is not None:
        person_lang = known(update.effective_user.language_code)  # an inline query: the person's app
    text, lang = await failure_text(context, chat_id, context.error, update, person_lang=person_lang)
    if not isinstance(update, Update):
        return
    with contextlib.suppress(TelegramError):
        if update.callback_query is not None:
            await buttons.answer_press(update.callback_query, text or None)
        elif not text:  # to be delivered again, and its sender told so already
            return
        elif update.inline_query is not None and update.inline_query.from_user is not None:
            query = update.inline_query
            await uno_bot(context).answer_articles(query.id, inline_handlers.notice_results(str(query.from_user.id), text, lang))
        elif (update.chosen_inline_result is not None and update.chosen_inline_result.inline_message_id
              and update.chosen_inline_result.from_user is not None):
            # The pick's message sits in the group with no move made: say so there.
            await inline_handlers.refuse(context, update.chosen_inline_result, None, lang, text)
        elif update.effective_message is not None and update.effective_message.text:
            await reply(update, text)


# -- wiring ---------------------------------------------------------------------------------------

COMMAND_HANDLERS: dict[str, Any] = {
    "new": cmd_new, "join": cmd_join, "leave": cmd_leave, "start": cmd_start, "stop": cmd_stop,
    "kick": cmd_kick, "skip": cmd_skip, "ai": cmd_ai, "rules": cmd_rules, "variant": cmd_variant,
    "timer": cmd_timer, "language": cmd_language, "notify": cmd_notify,
    **{("resetstats" if what == "reset" else what): reading(what) for what in answers.READING},
    "help": cmd_help,
}


async def learn_language(update: Update, context: Context) -> None:
    """Every update tells its sender's app language (`language_code`): learnt
    here, whatever the update is, so a private notice speaks it from a
    player's first press or command on, not only after their first inline
    query (the process forgets it when their game ends, issue 25)."""
    user = update.effective_user
    if user is not None:
        runtime(context).learn_lang(str(user.id), known(user.language_code))
    chat = update.effective_chat
    if chat is not None and chat.type != ChatType.PRIVATE:
        # Aside, never before the update is answered: a slow store (an outage) must not hold it up.
        context.application.create_task(note_place(update, context), name="note-place")


async def note_place(update: Update, context: Context) -> None:
    """How the chat is known (its title, and a forum topic's name), kept for a player's
    `/me` read in another chat (core's `place_names`): written only when it changed.
    A topic whose name this update does not carry (only a topic's first message
    is sent along with a reply) is noted by number only where no name is kept."""
    chat = update.effective_chat
    assert chat is not None
    here = where(update)
    title = game_title(update)
    unnamed_topic = here != chat.id and title.endswith(f"#{split_place(here)[1]}")
    try:
        await runtime(context).service.note_place(str(here), PLACE_TELEGRAM, title, weak=unnamed_topic)
    except Exception:  # a name not kept now is noted at the chat's next update; nothing to tell anyone
        log.debug("the place name of %s was not kept", here, exc_info=True)


def install(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Register every handler. Edited messages are ignored: an edited /new must not open a game;
    so is a linked channel's post Telegram forwards into its discussion group
    (a post starting "/new tonight!" is news, not a command to the group)."""
    only_new = filters.UpdateType.MESSAGE & ~filters.IS_AUTOMATIC_FORWARD
    app.add_handler(TypeHandler(object, admit), group=-2)
    app.add_handler(TypeHandler(Update, learn_language), group=-1)
    for name, callback in COMMAND_HANDLERS.items():
        app.add_handler(CommandHandler(name, callback, filters=only_new))
    app.add_handler(CallbackQueryHandler(buttons.on_button))
    app.add_handler(InlineQueryHandler(inline_handlers.on_inline_query))
    app.add_handler(ChosenInlineResultHandler(inline_handlers.on_chosen))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, migrate.on_migrate))
    app.add_handler(ChatMemberHandler(membership.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.FORUM_TOPIC_CLOSED, membership.on_topic_closed))
    app.add_error_handler(on_error)


#: The updates the bot asks Telegram for (`allowed_updates`): what `install`'s
#: handlers serve. Telegram sends no other kind, whatever handler waits for it.
UPDATE_KINDS = ("message", "callback_query", "inline_query", "chosen_inline_result", "my_chat_member")
