"""What ``/top``, ``/me``, ``/last``, ``/forgetme`` and the standings reset
say, in the reader's language: plain lines every front-end escapes and
sends its own way (why here: Telegram and Discord must say the same).

Each function reads through core/chat/records.py and returns the lines;
a first line is the title (a front-end may make it bold).
"""

from __future__ import annotations

from typing import Any

from ..store import Store
from . import records, typed
from .i18n import N_, gettext_for, ngettext_for
from .moments import last_moments

PERIOD_TITLES = {"week": N_("Standings: this week"), "month": N_("Standings: this month"),
                 "all": N_("Standings: all time")}


def period_of(word: str | None) -> str | None:
    """The period a typed word names in any language (``week``, ``mes``,
    ``Woche``: the catalogues' `typed` entries, core/chat/typed.py), "all"
    for none typed, None for a word that names none."""
    return typed.period_of(word)


def bad_period(lang: str) -> list[str]:
    _ = gettext_for(lang)
    return [_("Say which standings: week, month or all (for example /top week).")]


async def top_lines(store: Store, chat_id: str, period: str, lang: str) -> list[str]:
    """The chat's table for a period, best first."""
    _ = gettext_for(lang)
    lines = [_(PERIOD_TITLES[period])]
    table = await records.top(store, chat_id, period, lang=lang)
    if not table:
        return [*lines, _("No finished match is counted here yet.")]
    for rank, x in enumerate(table, 1):
        lines.append(_("{rank}. {player}: {wins} won of {games}, {points} points, rating {rating}").format(
            rank=rank, player=x.name, wins=x.wins, games=x.games, points=x.points, rating=f"{x.rating:.1f}"))
    return lines


async def me_lines(store: Store, person_id: str, name: str, lang: str, here: str | None = None) -> list[str]:
    """A player's record in every chat they finished a match in (``here`` first)."""
    _ = gettext_for(lang)
    mine = await records.me(store, person_id)
    title = _("{player}'s record").format(player=name)
    if not mine:
        return [title, _("You have not finished a match yet.")]
    lines = [title]
    for chat in sorted(mine, key=lambda ch: ch != here):
        x = mine[chat]
        where = _("Here") if chat == here else _("Elsewhere ({chat})").format(chat=chat)
        lines.append(_("{where}: {wins} won of {games}, {points} points, rating {rating}").format(
            where=where, wins=x.wins, games=x.games, points=x.points, rating=f"{x.rating:.1f}"))
    return lines


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
