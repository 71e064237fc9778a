"""The `/uno` slash commands: new, ai, kick, skip, leave, stop, rules, variant,
language, timer, stats, top, me, last, forgetme, reset, help; and the presses on the settings messages.

Every answer goes through `Reply`, so a slow store never leaves a command
unanswered past Discord's 3 seconds. `/uno rules` pages every house rule
(27+ of them, over a select's 25) and every option of the rules on: a
switch, the allowed values, number steps or a typed number (a modal), with
the option's help in the member's language. `/uno variant` without a name
pages every variant.

Descriptions are written in English, marked for the shared catalogue, and
given to Discord in Spanish too (`Translator`), so a Spanish client shows
the menu in Spanish. Settings are per channel and changed by members with
the Manage Server permission (the service refuses anyone else).

The game commands are the neutral chat commands the Telegram bot sends for
/ai, /kick, /skip, /leave and /stop, and who may use them is the service's
decision, the same on both platforms (Manage Server counts as admin):
adding AI players, the game's creator, an admin or a seated player, in the
lobby; removing a player, the creator or an admin; skipping the player on
turn, a player or an admin, once the turn timer has run out.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from unobot.chat import answers
from unobot.chat import commands as c
from unobot.chat import panel_ids as ids
from unobot.chat import settings_menu as sm
from unobot.chat import settings_press as sp
from unobot.chat.actions import LEVEL_NAMES, ai_levels
from unobot.chat.i18n import LANGUAGE_NAMES, LANGUAGES, N_, NC_, known, pgettext_for
from unobot.chat.markup import titled
from unobot.chat.names import clip
from unobot.chat.outcome import Outcome, reader_lang
from unobot.chat.render import error_text
from unobot.chat.status_text import stop_line
from unobot.chat.typed import PERIODS, TYPED, menu_word
from unobot.chat.views import variant_title
from unobot.variants import variant_names

from . import permissions, render
from .host import Host
from .place import chat_of, lang_of, person_of, settings_chat
from .reply import EPHEMERAL, PUBLIC, Reply, answered


def _d(text: str) -> app_commands.locale_str:
    """A description, translated for Discord by `Translator`."""
    return app_commands.locale_str(text)


#: The catalogue's context of an option's name ("variant", "seconds"): one word, as Discord takes it.
OPTION = "discord option"
#: Which characters Discord takes in a command's or option's name: letters (lowercase
#: where the script has case), digits, "-" and "_", and Devanagari and Thai marks;
#: 1 to 32 of them. A name it refuses fails the whole command list's registration.
_SCRIPTS_WITH_MARKS = ((0x0900, 0x097F), (0x0E00, 0x0E7F))


def _o(name: str) -> app_commands.locale_str:
    """An option's name, shown in the member's language by `Translator`."""
    return app_commands.locale_str(name, context=OPTION)


def option_name(name: str, lang: str | None) -> str:
    """An option's name in `lang`, as Discord shows it there: the catalogue's word,
    or the English name when the word is not one Discord takes as a name."""
    word = pgettext_for(lang)(OPTION, name)
    return word if valid_name(word) else name


def valid_name(word: str) -> bool:
    """Whether Discord takes `word` as an option's name (see `_SCRIPTS_WITH_MARKS`)."""
    import unicodedata

    def allowed(ch: str) -> bool:
        if ch in "-_" or unicodedata.category(ch)[0] in "LN":
            return True
        return any(low <= ord(ch) <= high for low, high in _SCRIPTS_WITH_MARKS)

    return 1 <= len(word) <= 32 and word == word.lower() and all(map(allowed, word))


class Translator(app_commands.Translator):
    """Command descriptions, option names and the names of a choice (an AI
    level, a period of the standings) in the member's client language, from
    the catalogue; a typed word (`locale_str(text, context="typed")`) shows
    its first form; an option's name (`_o`) is one word Discord takes as a
    name, else it stays English (`option_name`)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = known(locale.value)
        if lang in (None, "en"):
            return None
        if string.extras.get("context") == OPTION:
            word = option_name(string.message, lang)
            return word if word != string.message else None
        if context.location not in (
                app_commands.TranslationContextLocation.command_description,
                app_commands.TranslationContextLocation.group_description,
                app_commands.TranslationContextLocation.parameter_description,
                app_commands.TranslationContextLocation.choice_name):
            return None
        return menu_word(lang, string.message, typed=string.extras.get("context") == TYPED)


#: Where a setting goes: its names in the member's language (`Translator`), its values the same in every one.
SCOPES = [app_commands.Choice(name=app_commands.locale_str(N_("this channel")), value="channel"),
          app_commands.Choice(name=app_commands.locale_str(N_("the whole server")), value="server")]
LANGUAGE_CHOICES = [app_commands.Choice(name=LANGUAGE_NAMES.get(code, code), value=code) for code in LANGUAGES]

SCOPE = N_("This channel, or the whole server (its channels' default)")
#: The commands that do what the status message's buttons do (Telegram's words for /join and /start).
JOIN = N_("Join the open game")
START = N_("Start the game")
HAND = N_("Your cards and what you may do now (only you see them)")
STATUS = N_("Post the game's message again at the bottom of the channel")


def uno_group(bot: Host) -> app_commands.Group:
    group = app_commands.Group(name="uno", description=_d(N_("Play UNO in this channel")), guild_only=True)

    @group.command(name="new", description=_d(c.WORDS["new"]))
    @app_commands.describe(variant=_d(N_("The rules variant")))
    @app_commands.rename(variant=_o(NC_("discord option", "variant")))
    async def new(it: discord.Interaction[Any], variant: str | None = None) -> None:
        await guarded(bot, it, PUBLIC, lambda r: new_game(bot, it, r, variant))

    new.autocomplete("variant")(variant_choices)

    @group.command(name="rules", description=_d(c.WORDS["rules"]))
    @app_commands.describe(scope=_d(SCOPE))
    @app_commands.rename(scope=_o(NC_("discord option", "scope")))
    @app_commands.choices(scope=SCOPES)
    async def rules(it: discord.Interaction[Any], scope: str = "channel") -> None:
        await guarded(bot, it, EPHEMERAL, lambda r: show_settings(bot, it, r, scope, sm.RULES))

    @group.command(name="variant", description=_d(c.WORDS["variant"]))
    @app_commands.describe(name=_d(N_("The rules variant")), scope=_d(SCOPE))
    @app_commands.rename(name=_o(NC_("discord option", "name")), scope=_o("scope"))
    @app_commands.choices(scope=SCOPES)
    async def variant(it: discord.Interaction[Any], name: str | None = None, scope: str = "channel") -> None:
        if name:
            await guarded(bot, it, PUBLIC, lambda r: setting(bot, it, r, c.SetVariant(name), scope))
        else:
            await guarded(bot, it, EPHEMERAL, lambda r: show_settings(bot, it, r, scope, sm.VARIANTS))

    variant.autocomplete("name")(variant_choices)

    @group.command(name="language", description=_d(c.WORDS["language"]))
    @app_commands.describe(scope=_d(SCOPE))
    @app_commands.rename(language=_o(NC_("discord option", "language")), scope=_o("scope"))
    @app_commands.choices(language=LANGUAGE_CHOICES, scope=SCOPES)
    async def language(it: discord.Interaction[Any], language: str, scope: str = "channel") -> None:
        await guarded(bot, it, PUBLIC, lambda r: setting(bot, it, r, c.SetLanguage(language), scope))

    @group.command(name="timer", description=_d(c.WORDS["timer"]))
    @app_commands.describe(scope=_d(SCOPE))
    @app_commands.rename(seconds=_o(NC_("discord option", "seconds")), scope=_o("scope"))
    @app_commands.choices(scope=SCOPES)
    async def timer(it: discord.Interaction[Any], seconds: app_commands.Range[int, 0, 3600],
                    scope: str = "channel") -> None:
        await guarded(bot, it, PUBLIC, lambda r: setting(bot, it, r, c.SetTimer(seconds), scope))

    @group.command(name="top", description=_d(answers.READING["top"]))
    @app_commands.choices(period=PERIOD_CHOICES)
    @app_commands.rename(period=_o(NC_("discord option", "period")))
    async def top(it: discord.Interaction[Any], period: str = "all") -> None:
        await guarded(bot, it, EPHEMERAL, lambda r: show_records(bot, it, r, "top", period))

    for name in (n for n in answers.READING if n not in ("top", *SURE)):  # core's reading commands, no option
        group.add_command(simple_command(bot, name, answers.READING[name], EPHEMERAL,
                                         functools.partial(show_records, what=name)))
    for name in SURE:  # they cannot be undone: done with `confirm: yes`, else core asks
        group.add_command(confirmed_command(bot, name))

    @group.command(name="ai", description=_d(N_("Add AI players to the open game")))
    @app_commands.describe(count=_d(N_("How many AI players, 1 to 9")), level=_d(N_("How well the AI plays")))
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.rename(count=_o(NC_("discord option", "count")), level=_o(NC_("discord option", "level")))
    async def ai(it: discord.Interaction[Any], count: app_commands.Range[int, 1, 9] = 1,
                 level: str | None = None) -> None:
        cmd = c.AddAI(count=count, level=level) if level else c.AddAI(count=count)
        await guarded(bot, it, EPHEMERAL, lambda r: table_command(bot, it, r, cmd))

    @group.command(name="kick", description=_d(N_("Remove a player from the game (creator or admin)")))
    @app_commands.describe(player=_d(N_("The player to remove")))
    @app_commands.rename(player=_o(NC_("discord option", "player")))
    async def kick(it: discord.Interaction[Any], player: discord.User) -> None:
        await guarded(bot, it, PUBLIC, lambda r: table_command(bot, it, r, c.Kick(target=str(player.id))))

    # What the status message's buttons do, typed: the message may have scrolled far up a busy channel.
    pressed: tuple[tuple[str, c.Command, str], ...] = (("join", c.Join(), JOIN), ("start", c.Start(), START))
    for name, typed, words in pressed:
        group.add_command(simple_command(bot, name, words, EPHEMERAL, functools.partial(table_command, cmd=typed)))
    group.add_command(simple_command(bot, "hand", HAND, EPHEMERAL, show_hand))
    group.add_command(simple_command(bot, "status", STATUS, PUBLIC, repost_status))

    for name, command in c.PLAIN.items():  # core's table commands that take nothing
        mode = PUBLIC if issubclass(command, c.PUBLIC_ANSWERS) else EPHEMERAL
        group.add_command(simple_command(bot, name, c.WORDS[name], mode,
                                         functools.partial(table_command, cmd=command())))

    @group.command(name="help", description=_d(c.WORDS["help"]))
    async def help_(it: discord.Interaction[Any]) -> None:
        await guarded(bot, it, EPHEMERAL, lambda r: show_help(bot, it, r, group))

    return group


async def variant_choices(it: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """What Discord offers while a member types a variant's name: every variant
    (the shipped ones and the plugins' and the operator's) whose name or title
    in the member's language holds what they typed, at most 25 (Discord's
    limit); a name typed in full is still taken as it is."""
    lang = lang_of(it, "en")
    typed = current.strip().lower()
    found: list[app_commands.Choice[str]] = []
    for name in variant_names():
        title = variant_title(name, lang)
        if typed in name.lower() or typed in title.lower():
            label = name if title == name else f"{title} ({name})"
            found.append(app_commands.Choice(name=clip(label, 100), value=name))
    return found[:25]


def simple_command(bot: Host, name: str, words: str, mode: str,
                   run: Callable[[Host, discord.Interaction[Any], Reply], Awaitable[None]]
                   ) -> app_commands.Command[Any, Any, None]:
    """`/uno <name>`, with no option, doing `run` (answered in `mode`): core's
    reading commands, and its table commands that take nothing."""
    async def callback(it: discord.Interaction[Any]) -> None:
        await guarded(bot, it, mode, lambda r: run(bot, it, r))

    return app_commands.Command(name=name, description=_d(words), callback=callback)


#: The choices' names are the words a player types for them (translated by `Translator`).
LEVEL_CHOICES = [app_commands.Choice(name=app_commands.locale_str(LEVEL_NAMES.get(level, level)), value=level)
                 for level in ai_levels()]
PERIOD_CHOICES = [app_commands.Choice(name=app_commands.locale_str(PERIODS[name], context=TYPED), value=name)
                  for name in ("all", "month", "week")]


#: Core's reading commands that cannot be undone (`answers.reading_lines` asks until "yes").
SURE = ("forgetme", "reset")
#: The name of their option that takes "yes".
CONFIRM = "confirm"
CONFIRM_CHOICES = [app_commands.Choice(name=app_commands.locale_str(N_("yes")), value="yes")]


def confirmed_command(bot: Host, name: str) -> app_commands.Command[Any, Any, None]:
    """`/uno forgetme` and `/uno reset` with their `confirm` option: without it core
    answers what would be removed and how to confirm (only the member sees it)."""
    @app_commands.describe(confirm=_d(N_("yes: do it now (it cannot be undone)")))
    @app_commands.choices(confirm=CONFIRM_CHOICES)
    @app_commands.rename(confirm=_o(NC_("discord option", "confirm")))
    async def run(it: discord.Interaction[Any], confirm: str | None = None) -> None:
        await guarded(bot, it, EPHEMERAL, lambda r: show_records(bot, it, r, name, confirm))

    return app_commands.Command(name=name, description=_d(answers.READING[name]), callback=run)


async def guarded(bot: Host, it: discord.Interaction[Any], mode: str,
                  run: Callable[[Reply], Awaitable[None]]) -> None:
    """Run a slash command with an answer due within 3 s (deferred if the store
    is slow) and any failure answered to the member, never raised."""
    reply = Reply(it, mode, bot.options.defer_after)
    async with bot.busy():
        await answered(reply, "/uno", lambda: bot.lang(it), bot.service.keeps_nothing, lambda: run(reply))


async def new_game(bot: Host, it: discord.Interaction[Any], reply: Reply, variant: str | None) -> None:
    chat, person = chat_of(it), person_of(it)
    if lacking := permissions.missing(it):  # a lobby the bot could never update: say what to grant
        await reply.tell(render.esc(permissions.refusal(lacking, bot.lang(it))))
        return
    out = await bot.service.handle(chat, person, c.NewGame(variant=variant))
    if not out.ok or out.table is None:
        await reply.tell("⚠️ " + out.refusal_to(person.lang, bot.service.defaults.lang, render.COMMANDS))
        return
    table = out.table
    bot.waker.cancel(chat)
    bot.pacer.reset(chat)
    shown = render.status(table, now=bot.now())
    mid = await reply.show(shown)
    if mid is not None:
        await bot.claim_status(chat, table, mid, None, shown)
    bot.waker.after(chat, await bot.service.table(chat))  # read again: a Start may have come meanwhile


async def show_hand(bot: Host, it: discord.Interaction[Any], reply: Reply) -> None:
    """/uno hand: the member's panel, as "My cards" on the status message
    answers it (and kept up to date the same way)."""
    await bot.press(it, reply, ids.hand_id(), None, {}, True)


async def repost_status(bot: Host, it: discord.Interaction[Any], reply: Reply) -> None:
    """/uno status: the game's status message posted again as the answer, at
    the bottom of the channel, and the old one deleted (core's `claim_status`
    keeps one status message per game, whichever process posts)."""
    chat = chat_of(it)
    if lacking := permissions.missing(it):  # a message the bot could never update: say what to grant
        await reply.tell(render.esc(permissions.refusal(lacking, bot.lang(it))))
        return
    table = await bot.service.table(chat)
    if table is None:
        await reply.tell("⚠️ " + error_text("no_game", bot.lang(it), render.COMMANDS))
        return
    old = table.adapter.get("status")
    shown = render.status(table, now=bot.now())
    mid = await reply.show(shown)
    if mid is None:
        return
    await bot.claim_status(chat, table, mid, old if isinstance(old, int) else None, shown)
    now = await bot.service.table(chat)
    if isinstance(old, int) and old != mid and now is not None and now.adapter.get("status") == mid:
        await bot.delete_message(chat, old)


async def table_command(bot: Host, it: discord.Interaction[Any], reply: Reply, cmd: c.Command) -> None:
    """/uno ai, kick, skip, leave, stop: the service decides; a refusal is
    answered to the member alone and changes nothing."""
    chat, person = chat_of(it), person_of(it)
    # The player on turn left the server (nobody told the bot): their seat goes, timer or not.
    gone = await bot.remove_departed(chat, by=person) if isinstance(cmd, c.Skip) else None
    out = gone or await bot.service.handle(chat, person, cmd)
    if not out.ok:
        await reply.tell("⚠️ " + out.refusal_to(person.lang, bot.service.defaults.lang, render.COMMANDS))
        return
    # a private answer in the member's own language; a public one in the channel's, as the table says it
    told = out.notices_in(reader_lang(person.lang, out.table, bot.service.defaults.lang)) \
        if reply.mode == EPHEMERAL else out.notices
    await reply.show(render.Shown(render.esc("\n".join(told)) or "✓", None))
    stopped = stop_line(out.notices) if isinstance(cmd, c.Stop) else ""
    await bot.after(chat, out, line=stopped)  # a stopped game's status says who stopped it, and the rules' report


async def setting(bot: Host, it: discord.Interaction[Any], reply: Reply, cmd: c.Command, scope: str) -> None:
    chat, person = settings_chat(it, scope), person_of(it)
    out = await bot.service.handle(chat, person, cmd)
    if not out.ok:  # said in the member's language (a settings outcome has no table)
        await reply.tell("⚠️ " + out.refusal_to(person.lang, bot.service.defaults.lang, render.COMMANDS))
        return
    settings = out.settings or await bot.service.settings(chat)
    m = render.settings_menu(settings, str(settings["lang"]))
    # The note first (rules_lines): appended after a text fitted to 2,000 characters it could overflow.
    await reply.show(render.Shown(render.rules_text(m, sp.saved_note(m.lang, out.to_lobby)), None))
    await lobby_follows(bot, chat_of(it), out)


async def lobby_follows(bot: Host, chat: str, out: Outcome | None = None) -> None:
    """A lobby takes new settings (core's `ChatService.lobby`): its status message shows them;
    so do the lobbies of the server's other channels that took them (`out.followers`)."""
    if (lobby := await bot.service.lobby(chat)) is not None:
        await bot.refresh(chat, lobby)
    for follower in out.followers if out is not None else []:
        if follower.chat_id != chat:
            await bot.refresh(follower.chat_id, follower)


async def settings_message(bot: Host, it: discord.Interaction[Any], scope: str, show: sm.Show | None = None,
                           note: str = "") -> render.Shown:
    """The settings message a member reads, in their language: the rules (a
    page; the components only for admins), the variants, or one option."""
    settings = await bot.service.settings(settings_chat(it, scope))
    m = render.settings_menu(settings, lang_of(it, str(settings["lang"])))  # a private answer: the reader's
    view = m.view(show or sm.Show(sm.RULES))
    if isinstance(view, sm.OptionPanel):
        return render.option_panel(m, view, scope, note)
    if isinstance(view, sm.Page):
        return render.variants(m, view, scope, note)
    return render.Shown(render.rules_text(m, note),
                        render.rules_components(m, view, scope) if person_of(it).is_admin else None)


async def show_settings(bot: Host, it: discord.Interaction[Any], reply: Reply, scope: str, view: str) -> None:
    """/uno rules, and /uno variant without a name: the rules' or the variants' first page."""
    await reply.show(await settings_message(bot, it, scope, sm.Show(view)))


class NumberModal(discord.ui.Modal):
    """A box to type an option's number in (Discord's modal); its submit
    comes back to `on_interaction` with the button's custom_id."""

    def __init__(self, title: str, custom_id: str, label: str, placeholder: str) -> None:
        super().__init__(title=render.clip(title, 45), custom_id=custom_id, timeout=None)
        self.add_item(discord.ui.TextInput(label=render.clip(label, 45), custom_id="value",
                                           placeholder=render.clip(placeholder, 100), max_length=20))


async def settings_press(bot: Host, it: discord.Interaction[Any], reply: Reply, press: ids.Setting,
                         values: list[str] | None, typed: str | None) -> None:
    """A press on a /uno rules or /uno variant message: core's settings menu
    says what it means (a page, a command, the box to type a number in)."""
    code = press.press if press.select is None else (values[0] if values and len(values) == 1 else "")
    pressed = await sp.press(bot.service, settings_chat(it, press.scope), person_of(it), code, typed,
                             lang=bot.lang(it), size=render.SETTINGS_PAGE, commands=render.COMMANDS)
    show = pressed.show
    if show is None:
        await reply.tell("⚠️ " + pressed.refusal)
        return
    if show.view == sm.TYPE:  # a modal must be the first answer: core asked no store before it
        title, label, takes = sm.prompt(show.rule, show.option, bot.lang(it)) or ("", "", "")
        reply.close()
        modal = NumberModal(title, ids.setting(press.scope, code), label, takes)
        modal.stop()  # a layout only: its submit comes back through on_interaction
        await it.response.send_modal(modal)
        return
    if typed is not None and (it.message is None or not it.message.flags.ephemeral):
        reply.mode = EPHEMERAL
    await reply.show(await settings_message(bot, it, press.scope, show, pressed.note(bot.lang(it))))
    if pressed.saved:
        await lobby_follows(bot, chat_of(it), pressed.outcome)


async def show_records(bot: Host, it: discord.Interaction[Any], reply: Reply, what: str,
                       period: str | None = None) -> None:
    """Statistics and players' records: core's answer (`unobot.chat.answers`), its title in bold.
    A removal not confirmed names its `confirm` option (a word typed after a
    slash command is not something Discord lets a member send)."""
    chat = chat_of(it)
    lang = lang_of(it, await bot.service.language(chat))
    lines = await answers.reading_lines(bot.service.store, what, chat, person_of(it), lang, period,
                                        option=option_name(CONFIRM, lang) if what in SURE else None, commands=render.COMMANDS)
    await reply.show(render.Shown(render.MD.text(titled(lines)), None))


async def show_help(bot: Host, it: discord.Interaction[Any], reply: Reply, group: app_commands.Group) -> None:
    """How to play and every /uno subcommand, in the member's language (only they see it)."""
    lang = lang_of(it, await bot.service.language(chat_of(it)))
    commands = [(cmd.name, cmd.description) for cmd in group.commands]
    await reply.show(render.Shown(render.help_text(commands, lang), None))
