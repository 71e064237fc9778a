"""The `/uno` slash commands: new, ai, kick, skip, leave, stop, rules, variant,
language, timer, stats, help.

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

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from unobot.chat import commands as c
from unobot.chat.i18n import LANGUAGE_NAMES, LANGUAGES, N_, gettext_for, known
from unobot.chat.render import error_text
from unobot.variants import variant_names

from . import render

if TYPE_CHECKING:
    from unobot.chat.outcome import Outcome

    from .bot import UnoBot


def _d(text: str) -> app_commands.locale_str:
    """A description, translated for Discord by `Translator`."""
    return app_commands.locale_str(text)


class Translator(app_commands.Translator):
    """Command descriptions in the member's client language, from the catalogue."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = known(locale.value)
        if lang in (None, "en") or context.location not in (
                app_commands.TranslationContextLocation.command_description,
                app_commands.TranslationContextLocation.group_description,
                app_commands.TranslationContextLocation.parameter_description):
            return None
        text = gettext_for(lang)(string.message)
        return text if text != string.message else None


VARIANTS = [app_commands.Choice(name=n, value=n) for n in variant_names()[:25]]
SCOPES = [app_commands.Choice(name="channel", value="channel"), app_commands.Choice(name="server", value="server")]
LANGUAGE_CHOICES = [app_commands.Choice(name=LANGUAGE_NAMES.get(code, code), value=code) for code in LANGUAGES]


SCOPE = N_("This channel, or the whole server (its channels' default)")


def settings_chat(it: discord.Interaction[Any], scope: str) -> str:
    """The chat whose settings a command changes: the channel, or its server."""
    from .bot import chat_of, guild_chat

    if scope == "server" and it.guild_id is not None:
        return guild_chat(it.guild_id)
    return chat_of(it)


def uno_group(bot: UnoBot) -> app_commands.Group:
    group = app_commands.Group(name="uno", description=_d(N_("Play UNO in this channel")), guild_only=True)

    @group.command(name="new", description=_d(N_("Open a game here (optionally: a variant name)")))
    @app_commands.describe(variant=_d(N_("The rules variant")))
    @app_commands.choices(variant=VARIANTS)
    async def new(it: discord.Interaction[Any], variant: str | None = None) -> None:
        await new_game(bot, it, variant)

    @group.command(name="rules", description=_d(N_("Show and change this chat's rules")))
    @app_commands.describe(scope=_d(SCOPE))
    @app_commands.choices(scope=SCOPES)
    async def rules(it: discord.Interaction[Any], scope: str = "channel") -> None:
        async with bot.busy():
            await show_rules(bot, it, scope)

    @group.command(name="variant", description=_d(N_("Choose the rules variant (admins)")))
    @app_commands.describe(name=_d(N_("The rules variant")), scope=_d(SCOPE))
    @app_commands.choices(name=VARIANTS, scope=SCOPES)
    async def variant(it: discord.Interaction[Any], name: str, scope: str = "channel") -> None:
        await setting(bot, it, c.SetVariant(name), scope)

    @group.command(name="language", description=_d(N_("Language: en or es (admins)")))
    @app_commands.describe(scope=_d(SCOPE))
    @app_commands.choices(language=LANGUAGE_CHOICES, scope=SCOPES)
    async def language(it: discord.Interaction[Any], language: str, scope: str = "channel") -> None:
        await setting(bot, it, c.SetLanguage(language), scope)

    @group.command(name="timer", description=_d(N_("Seconds per turn, or off (admins)")))
    @app_commands.describe(scope=_d(SCOPE))
    @app_commands.choices(scope=SCOPES)
    async def timer(it: discord.Interaction[Any], seconds: app_commands.Range[int, 0, 3600],
                    scope: str = "channel") -> None:
        await setting(bot, it, c.SetTimer(seconds), scope)

    @group.command(name="stats", description=_d(N_("Statistics of this chat and yours")))
    async def stats(it: discord.Interaction[Any]) -> None:
        async with bot.busy():
            await show_stats(bot, it)

    @group.command(name="ai", description=_d(N_("Add AI players to the open game")))
    @app_commands.describe(count=_d(N_("How many AI players, 1 to 9")))
    async def ai(it: discord.Interaction[Any], count: app_commands.Range[int, 1, 9] = 1) -> None:
        await table_command(bot, it, c.AddAI(count=count))

    @group.command(name="kick", description=_d(N_("Remove a player from the game (creator or admin)")))
    @app_commands.describe(player=_d(N_("The player to remove")))
    async def kick(it: discord.Interaction[Any], player: discord.User) -> None:
        await table_command(bot, it, c.Kick(target=str(player.id)))

    @group.command(name="skip", description=_d(N_("Skip a player whose time ran out")))
    async def skip(it: discord.Interaction[Any]) -> None:
        await table_command(bot, it, c.Skip())

    @group.command(name="leave", description=_d(N_("Leave the game")))
    async def leave(it: discord.Interaction[Any]) -> None:
        await table_command(bot, it, c.Leave())

    @group.command(name="stop", description=_d(N_("Stop the game (creator or admin)")))
    async def stop(it: discord.Interaction[Any]) -> None:
        await table_command(bot, it, c.Stop())

    @group.command(name="help", description=_d(N_("How to play")))
    async def help_(it: discord.Interaction[Any]) -> None:
        await show_help(bot, it, group)

    return group


async def new_game(bot: UnoBot, it: discord.Interaction[Any], variant: str | None) -> None:
    from .bot import chat_of, lang_of, person_of

    chat = chat_of(it)
    async with bot.busy():
        out = await bot.service.handle(chat, person_of(it), c.NewGame(variant=variant))
        if not out.ok or out.table is None:
            lang = lang_of(it, out.table.lang if out.table else bot.service.defaults.lang)
            await bot.refuse(it, out.code or "bad_move", error_text(out.code or "bad_move", lang))
            return
        table = out.table
        bot.cancel_jobs(chat)
        bot._shown.pop(chat, None)
        shown = render.status(table)
        answer = await it.response.send_message(shown.content, view=shown.components)
        mid = answer.message_id if answer is not None else None
        if mid is None:
            mid = (await it.original_response()).id
        await bot.service.set_adapter_data(chat, {"status": mid}, seed=table.seed)


#: Commands that act on someone else (the whole table, another player, the
#: player on turn): their answer is public. Others answer only the member;
#: the status message shows the rest.
PUBLIC_ANSWERS = (c.Stop, c.Kick, c.Skip)


async def table_command(bot: UnoBot, it: discord.Interaction[Any], cmd: c.Command) -> None:
    """/uno ai, kick, skip, leave, stop: the service decides; a refusal is
    answered to the member alone and changes nothing."""
    from .bot import chat_of, lang_of, person_of

    chat = chat_of(it)
    async with bot.busy():
        before = await bot.service.table(chat)
        out = await bot.service.handle(chat, person_of(it), cmd)
        lang = lang_of(it, out.table.lang if out.table else bot.service.defaults.lang)
        if not out.ok:
            await bot.refuse(it, out.code or "bad_move", error_text(out.code or "bad_move", lang))
            return
        await it.response.send_message(render.esc("\n".join(out.notices)) or "✓",
                                       ephemeral=not isinstance(cmd, PUBLIC_ANSWERS))
        table = out.table
        if table is None:
            if before is not None:  # a lobby whose last player left
                before.seats.clear()
                await bot.refresh(chat, before, render.status(before, final=True))
            return
        if isinstance(cmd, c.Stop):
            bot.cancel_jobs(chat)
            await bot.refresh(chat, table, render.stopped(table, out.notices[0] if out.notices else ""))
            return
        await bot.refresh(chat, table)
        bot.after(chat, out)


async def setting(bot: UnoBot, it: discord.Interaction[Any], cmd: c.Command, scope: str) -> None:
    from .bot import chat_of, lang_of, person_of

    chat = settings_chat(it, scope)
    async with bot.busy():
        out = await bot.service.handle(chat, person_of(it), cmd)
        lang = lang_of(it, bot.service.defaults.lang)
        if not out.ok:
            await bot.refuse(it, out.code or "bad_move", refusal_text(out, lang))
            return
        settings = out.settings or await bot.service.settings(chat)
        text, _enabled = render.rules_text(settings, str(settings["lang"]))
        _ = gettext_for(str(settings["lang"]))
        await it.response.send_message(text + "\n" + render.esc(_("Saved. It applies from the next game.")))
        table = await bot.service.table(chat_of(it))
        if table is not None and table.phase == "lobby":
            await bot.refresh(chat_of(it), table)


def refusal_text(out: Outcome, lang: str) -> str:
    """A refused command's answer in the member's language: its reason (which
    rules clash) when it has one, else its code's text."""
    if out.reason is not None:
        return out.reason.text(lang)
    return error_text(out.code or "bad_move", lang)


async def show_rules(bot: UnoBot, it: discord.Interaction[Any], scope: str) -> None:
    from .bot import person_of

    settings = await bot.service.settings(settings_chat(it, scope))
    lang = str(settings["lang"])
    text, enabled = render.rules_text(settings, lang)
    view = render.rules_components(enabled, lang, scope) if person_of(it).is_admin else None
    await it.response.send_message(text, view=view or discord.utils.MISSING, ephemeral=True)


async def toggle_rule(bot: UnoBot, it: discord.Interaction[Any], values: list[str], scope: str) -> None:
    """A rule picked in the /uno rules select: switched on if off, off if on."""
    from .bot import chat_of, lang_of, person_of

    chat = settings_chat(it, scope)
    settings = await bot.service.settings(chat)
    _text, enabled = render.rules_text(settings, str(settings["lang"]))
    if len(values) != 1:
        await bot.refuse(it, "unknown_rule")
        return
    rule = values[0]
    out = await bot.service.handle(chat, person_of(it), c.SetRule(rule, enabled=rule not in enabled))
    if not out.ok:
        await bot.refuse(it, out.code or "bad_option", refusal_text(out, lang_of(it, str(settings["lang"]))))
        return
    settings = out.settings or await bot.service.settings(chat)
    lang = str(settings["lang"])
    text, enabled = render.rules_text(settings, lang)
    await it.response.edit_message(content=text, view=render.rules_components(enabled, lang, scope))
    table = await bot.service.table(chat_of(it))
    if table is not None and table.phase == "lobby":
        await bot.refresh(chat_of(it), table)


async def show_stats(bot: UnoBot, it: discord.Interaction[Any]) -> None:
    from .bot import chat_of, lang_of

    chat = chat_of(it)
    lang = lang_of(it, await bot.service.language(chat))
    _ = gettext_for(lang)
    here = await bot.service.stats("chat", chat)
    mine = await bot.service.stats("user", str(it.user.id))
    lines = [
        "**" + render.esc(_("Statistics")) + "**",
        render.esc(_("This chat: {matches} matches finished, {rounds} rounds played.").format(
            matches=here.get("matches", 0), rounds=here.get("rounds", 0))),
        render.esc(_("{player}: {won} of {rounds} rounds won, {points} points; {mwon} of {matches} matches won.")
                   .format(player=it.user.display_name, won=mine.get("rounds_won", 0), rounds=mine.get("rounds", 0),
                           points=mine.get("points", 0), mwon=mine.get("matches_won", 0),
                           matches=mine.get("matches", 0))),
    ]
    await it.response.send_message("\n".join(lines), ephemeral=True)


async def show_help(bot: UnoBot, it: discord.Interaction[Any], group: app_commands.Group) -> None:
    """How to play and every /uno subcommand, in the member's language (only they see it)."""
    from .bot import chat_of, lang_of

    lang = lang_of(it, await bot.service.language(chat_of(it)))
    commands = [(cmd.name, cmd.description) for cmd in group.commands]
    await it.response.send_message(render.help_text(commands, lang), ephemeral=True)
