"""What the reading commands answer: statistics and players' records
(`/stats`, `/top [period]`, `/me`, `/last`, `/forgetme`, the standings
reset), as plain lines in the reader's language.

Why in core: Telegram and Discord each worked out which store call a
command makes, what an unknown period says and how the statistics read,
and each adapter had a function per command. Now a front-end names the
command (`READING`) and renders the lines: the first is the title (bold,
where the platform has it); a single line is a note (a refusal or a
confirmation) with no title.

The console and the web table ask for the players' four (`RECORDS`) too:
the console reads them from a typed line (`typed_reading`), the web table
from its records panel; both render these same lines.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..store import Store
from . import records_text, typed
from .commands import Person
from .i18n import N_, gettext_for, ngettext_for

#: The reading commands, by the name every front-end gives them, each with
#: what it does (the words of Telegram's command menu and Discord's slash
#: commands): no front-end's syntax in them (Discord's /uno top takes its
#: period from a choice; Telegram's menu says its own `/top week`).
READING: dict[str, str] = {
    "stats": N_("Statistics here and yours"),
    "top": N_("Standings here (all time, this week or this month)"),
    "me": N_("Your record and rating wherever you played"),
    "last": N_("The last finished match"),
    "forgetme": N_("Remove your records and your name from kept games"),
    "reset": N_("Reset the standings here (admins)"),
}
#: The players' records every front-end offers, the console and the web table
#: too: standings, own record, the last match, forget me (no admin's reset).
RECORDS = ("top", "me", "last", "forgetme")


def typed_reading(line: str, lang: str | None = None) -> tuple[str, str | None] | None:
    """The records command a typed line asks for (`top`, `top semana`,
    `/me`, `LAST`, `clasificación mes` to a Spanish reader), with what
    followed it (a period for `top`, read by `reading_lines` in any
    language); None for any other line.

    The English names are read in every language: they are the names
    Telegram and Discord give these commands everywhere (`/top` in a Spanish
    chat too), so a player types the same word everywhere; the reader's own
    words (`typed.RECORD_WORDS`, the catalogues' `typed` entries) too, as
    every other command word of the console is (`robar`, `historial`).
    """
    words = line.split()
    found = typed.record_command(words, lang) if words else None
    if found is None:
        return None
    name, size = found
    return name, " ".join(words[size:]) or None


async def stats_lines(store: Store, chat_id: str, person: Person, lang: str) -> list[str]:
    """The chat's counters and the person's own."""
    _ = gettext_for(lang)
    here = await store.get_stats("chat", chat_id)
    mine = await store.get_stats("user", person.id)
    # Each count in the reader's plural forms ("1 match finished", not "1 matches finished"),
    # the parts in one template a language orders its own way.
    ngettext = ngettext_for(lang)
    matches, rounds = here.get("matches", 0), here.get("rounds", 0)
    my_rounds, my_matches, points = mine.get("rounds", 0), mine.get("matches", 0), mine.get("points", 0)
    return [
        _("Statistics"),
        _(N_("Here: {matches}, {rounds}.")).format(
            matches=ngettext("{n} match finished", "{n} matches finished", matches).format(n=matches),
            rounds=ngettext("{n} round played", "{n} rounds played", rounds).format(n=rounds)),
        _(N_("{player}: {rounds}, {points}; {matches}.")).format(
            player=person.name,
            rounds=ngettext("{won} of {n} round won", "{won} of {n} rounds won", my_rounds).format(
                won=mine.get("rounds_won", 0), n=my_rounds),
            points=ngettext("{n} point", "{n} points", points).format(n=points),
            matches=ngettext("{won} of {n} match won", "{won} of {n} matches won", my_matches).format(
                won=mine.get("matches_won", 0), n=my_matches)),
    ]


async def reading_lines(store: Store, what: str, chat_id: str, person: Person, lang: str,
                        arg: str | None = None, *, option: str | None = None,
                        commands: Mapping[str, str] | None = None, public: bool = False) -> list[str]:
    """The answer to one reading command (`what` in `READING`); `arg` is what
    followed it (a period for `top`). The reset asks `person.is_admin`.
    `option`: the name of the option that takes the "yes" of a removal, on a
    front-end whose commands take options (`records_text.confirm_lines`);
    `commands`: how the front-end spells the commands an answer names
    (`render.TYPED_COMMANDS`'s keys: `top` in "for example /top week");
    `public`: the answer is posted where others read it (a group), so `me`
    names the player's other places by kind, not by title."""
    if what == "stats":
        return await stats_lines(store, chat_id, person, lang)
    if what == "top":
        period = records_text.period_of(arg)
        if period is None:
            return records_text.bad_period(lang, arg, commands)
        return await records_text.top_lines(store, chat_id, period, lang, person.id)
    if what == "me":
        return await records_text.me_lines(store, person.id, person.name, lang, chat_id, public=public)
    if what == "last":
        return await records_text.last_lines(store, chat_id, lang)
    # Both cannot be undone: done only when the command is repeated with "yes" (in the
    # reader's language or English), else asked (`confirm_lines`).
    sure = bool(arg and arg.strip()) and typed.is_yes(str(arg), lang)
    if what == "forgetme":
        return await records_text.forget_lines(store, person.id, lang) if sure else \
            records_text.confirm_lines(what, lang, option)
    if what == "reset":
        if person.is_admin and not sure:  # (who may not is refused at once, not asked)
            return records_text.confirm_lines(what, lang, option)
        return await records_text.reset_lines(store, chat_id, person.is_admin, lang)
    raise ValueError(f"not a reading command: {what!r}")
