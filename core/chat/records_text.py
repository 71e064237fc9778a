"""What ``/top``, ``/me``, ``/last``, ``/forgetme`` and the standings reset
say, in the reader's language: plain lines every front-end escapes and
sends its own way (why here: Telegram and Discord must say the same).

Each function reads through core/chat/records.py and returns the lines;
a first line is the title (a front-end may make it bold).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..store import Store
from . import place_names, records, typed, typos
from .i18n import N_, gettext_for, ngettext_for
from .moments import last_moments
from .render import TYPED_COMMANDS

PERIOD_TITLES = {"week": N_("Standings: this week"), "month": N_("Standings: this month"),
                 "all": N_("Standings: all time")}


def period_of(word: str | None) -> str | None:
    """The period a typed word names in any language (``week``, ``mes``,
    ``Woche``: the catalogues' `typed` entries, core/chat/typed.py), "all"
    for none typed, None for a word that names none."""
    return typed.period_of(word)


def bad_period(lang: str, given: str | None = None, commands: Mapping[str, str] | None = None) -> list[str]:
    """What a period nobody knows gets (`/top mnth`): which to say, with an
    example typed the way the front-end reads it: `commands["top"]`
    (`render.TYPED_COMMANDS`: Telegram's `/top`; the console's own word,
    `clasificación`) and the reader's word for a week (`/top Woche`), and
    the closest period word when one clearly is (`typos`). Why the
    front-end's word: "for example /top week" sent a console player to a
    command their terminal does not read."""
    _ = gettext_for(lang)
    top = {**TYPED_COMMANDS, **(commands or {})}["top"]
    example = f"{top} {typed.first_form(lang, typed.PERIODS['week'])}"
    said = _("Say which standings: week, month or all (for example {example}).").format(example=example)
    words = typos.vocabulary(("", typed.first_form(language, message)) for language in dict.fromkeys((lang, "en"))
                             for message in typed.PERIODS.values())
    meant = typos.closest(given, words) if given and len(given.split()) == 1 else None
    if meant is None:
        return [said]
    return [" ".join((said, _("Did you mean {meant!r}?").format(meant=meant)))]


#: How many lines of a table are shown (the asker's own is added below when further down).
SHOWN = 10


def rating_note(lang: str) -> str:
    """What the rating means, said under every table and record: a number
    nobody explains (a newcomer's 0.0 above a winner's 2.1) reads as a fault."""
    _ = gettext_for(lang)
    return _("Rating: openskill's cautious estimate of skill, from who finished ahead of whom in each match. "
             "It starts at 0 and grows as wins and matches played make it surer.")


async def top_lines(store: Store, chat_id: str, period: str, lang: str, person_id: str | None = None) -> list[str]:
    """The chat's table for a period, best first: its first `SHOWN` lines,
    equal lines sharing a place (1, 1, 3), then the asker's own line with its
    place when it is further down (a player 14th of 30 sees where they
    stand), then what the rating means."""
    _ = gettext_for(lang)
    lines = [_(PERIOD_TITLES[period])]
    table = await records.top(store, chat_id, period, limit=None, lang=lang)
    if not table:
        return [*lines, _("No finished match is counted here yet.")]
    places = records.places(table)
    shown = [i for i in range(len(table)) if i < SHOWN]
    mine = next((i for i, x in enumerate(table) if x.player == person_id), None)
    if mine is not None and mine >= SHOWN:
        shown.append(mine)
    for i in shown:
        x = table[i]
        if i >= SHOWN:
            lines.append("…")
        lines.append(_("{rank}. {player}: {wins} won of {games}, {points} points, rating {rating}").format(
            rank=places[i], player=x.name, wins=x.wins, games=x.games, points=x.points, rating=f"{x.rating:.1f}"))
    return [*lines, rating_note(lang)]


async def me_lines(store: Store, person_id: str, name: str, lang: str, here: str | None = None,
                   *, public: bool = False) -> list[str]:
    """A player's record in the chats they finished a match in: ``here``
    first, then where they played most, at most `SHOWN` lines and how many
    more (so that a player of many chats gets a message every platform
    sends whole: Telegram's 4,096 characters, Discord's 2,000). `public`:
    the answer is posted where others read it; other places are then named
    by their kind, not their titles."""
    _ = gettext_for(lang)
    mine = await records.me(store, person_id)
    title = _("{player}'s record").format(player=name)
    if not mine:
        return [title, _("You have not finished a match yet.")]
    lines = [title]
    chats = sorted(mine, key=lambda ch: (ch != here, -mine[ch].games, ch))
    # Another chat by the name its players know it by (a group's title, a channel's), else
    # by what kind of place it is: never by its id (`place_names`).
    names = await place_names.names_of(store, [chat for chat in chats[:SHOWN] if chat != here], lang,
                                       named=not public)
    for chat in chats[:SHOWN]:
        x = mine[chat]
        where = _("Here") if chat == here else names[chat]
        lines.append(_("{where}: {wins} won of {games}, {points} points, rating {rating}").format(
            where=where, wins=x.wins, games=x.games, points=x.points, rating=f"{x.rating:.1f}"))
    if len(chats) > SHOWN:
        more = len(chats) - SHOWN
        ngettext = ngettext_for(lang)
        lines.append(ngettext("…and {n} more place", "…and {n} more places", more).format(n=more))
    return [*lines, rating_note(lang)]


def stopped_line(record: dict[str, Any], lang: str) -> str:
    """What a match stopped before it had a winner is remembered as (``/last``, ``unobot replay``)."""
    _ = gettext_for(lang)
    return _("The match was stopped with no winner (rounds played: {n}).").format(n=record.get("rounds", 0))


def summary_lines(record: dict[str, Any], lang: str) -> list[str]:
    """A kept game's summary: who won, the scores, the last moments."""
    _ = gettext_for(lang)
    # "after 1 round", "1 point": one-round matches are common (a target of 0); the
    # moves are a count after a label, as one plural form a sentence can follow
    ngettext = ngettext_for(lang)
    players = record.get("players", [])
    winner = int(record.get("winner", -1))
    lines = [_("The last match")]
    if 0 <= winner < len(players):
        rounds = int(record.get("rounds", 0))
        lines.append(ngettext("{player} won after {n} round (moves: {moves}).",
                              "{player} won after {n} rounds (moves: {moves}).", rounds).format(
            player=records.kept_name(players[winner], lang), n=rounds, moves=record.get("moves", 0)))
    elif record.get("stopped"):
        lines.append(stopped_line(record, lang))
    for seat in records.ranked(players, winner, bool(record.get("lowest_wins")), record.get("places")):
        p = players[seat]
        n = int(p.get("score", 0))
        lines.append(ngettext("{player}: {n} point", "{player}: {n} points", n).format(
            player=records.kept_name(p, lang), n=n))
    told = last_moments(record, lang)  # in the reader's language; the kept texts if the log cannot replay here
    lines += told if told is not None else [str(m) for m in record.get("moments", [])[-4:]]
    return lines


async def last_lines(store: Store, chat_id: str, lang: str) -> list[str]:
    record = await records.last(store, chat_id)
    if record is None:
        _ = gettext_for(lang)
        return [_("The last match"), _("No finished match is kept here.")]
    return summary_lines(record, lang)


def forget_question(lang: str) -> str:
    """What a front-end with buttons asks before a forget-me (the web table's
    panel): the removal cannot be undone, so a stray press must not do it."""
    _ = gettext_for(lang)
    return _("Remove your records and your name from every kept game? This cannot be undone.")


def confirm_lines(what: str, lang: str, option: str | None = None) -> list[str]:
    """What a typed `/forgetme` or `/resetstats` answers until it is repeated with
    "yes": the removal cannot be undone, and a command picked by mistake from a
    chat's command menu (one tap) must not do it.

    `option` is the name of the command's option that takes the "yes", on a
    front-end whose commands take options, not words typed after them
    (Discord's `/uno forgetme confirm: yes`): there "send it followed by yes"
    cannot be done as said, so the answer names the option."""
    _ = gettext_for(lang)
    question = forget_question(lang) if what == "forgetme" else \
        _("Reset the standings here for everyone? This cannot be undone.")
    if option is not None:
        return [question, _("To do it, run the command again with {option}.").format(
            option=f"{option}: {_('yes')}")]
    return [question, _("To do it, send the command again followed by “{yes}”.").format(yes=_("yes"))]


async def forget_lines(store: Store, person_id: str, lang: str) -> list[str]:
    await records.forget(store, person_id)
    _ = gettext_for(lang)
    return [_("Your records are removed, and your name is gone from the kept games.")]


async def reset_lines(store: Store, chat_id: str, is_admin: bool, lang: str) -> list[str]:
    """An admin's reset of the chat's standings (anyone else: refused, nothing changed)."""
    _ = gettext_for(lang)
    if not is_admin:
        return [_("Only an admin can reset the standings here.")]
    await records.reset(store, chat_id)
    return [_("The standings here are reset (the kept games stay).")]
