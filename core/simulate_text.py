"""What `unobot simulate` says to the person who ran it, in their language:
the progress bar's label and the report's line. Its `--json` line is for
scripts and stays the same in every language (core/simulate.py's `as_dict`).

Why apart from core/simulate.py: the simulation is pure engine work, run by
tests and benchmarks that read numbers, never words."""

from __future__ import annotations

from typing import Any

from .chat.i18n import N_, Msg, Plural, gettext_for, joined, ngettext_for
from .simulate import Report


def progress_label(variant: str, players: int, lang: str | None) -> str:
    """"official, 4 players": what the progress bar is playing."""
    ngettext = ngettext_for(lang)
    return ngettext("{variant}, {n} player", "{variant}, {n} players", players).format(variant=variant, n=players)


def report_line(report: Report, moves_per_second: float, lang: str | None, *, match: bool = False) -> str:
    """"100 games, 100 rounds, 3,120 moves, 31.2 moves a game, 5,200 moves/s; wins per
    seat: 27, 24, 25, 24": each count in the reader's plural forms, the parts in one
    template a language orders its own way."""
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    seats = joined((str(w) for w in report.wins), lang)
    line = _(N_("{games}, {rounds}, {moves}, {average} moves a game, {speed} moves/s; wins per seat: {wins}")).format(
        games=ngettext("{n} game", "{n} games", report.games).format(n=report.games),
        rounds=ngettext("{n} round", "{n} rounds", report.rounds).format(n=report.rounds),
        moves=ngettext("{n} move", "{n} moves", report.moves).format(n=report.moves),
        average=f"{report.avg_moves:.1f}", speed=moves_per_second, wins=seats)
    if match:
        line += _("; match wins per seat: {wins}").format(wins=joined((str(w) for w in report.match_wins), lang))
    if report.unfinished:
        line += ngettext("; {n} unfinished", "; {n} unfinished", report.unfinished).format(n=report.unfinished)
    return line


def persisted_line(games: int, moves: int, seconds: float, speed: Any, workers: int, store: str,
                   lang: str | None) -> str:
    """`unobot simulate --store`'s first line: "5 games, 620 moves persisted in 1.20 s:
    516.7 moves/s (2 workers, store redis://...)", each count in the reader's plural forms."""
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    return _(N_("{games}, {moves} persisted in {seconds} s: {speed} moves/s ({workers}, store {store})")).format(
        games=ngettext("{n} game", "{n} games", games).format(n=games),
        moves=ngettext("{n} move", "{n} moves", moves).format(n=moves),
        seconds=f"{seconds:.2f}", speed=speed, store=store,
        workers=ngettext("{n} worker", "{n} workers", workers).format(n=workers))


def audit_line(audited: int, games: int, failed: int, cards: bool, conflicts: int, wins: list[int],
               unfinished: int, lang: str | None) -> str:
    """"audited 5/5: every log replays to its stored state, cards conserved; 0 save
    conflicts; wins per seat: 2, 3": what the audit after the run found."""
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    verdict = ngettext("{n} game FAILED the audit", "{n} games FAILED the audit", failed).format(n=failed) \
        if failed else _("every log replays to its stored state, cards conserved") if cards \
        else _("every log replays to its stored state")
    line = _(N_("audited {audited}/{games}: {verdict}; {conflicts}; wins per seat: {wins}")).format(
        audited=audited, games=games, verdict=verdict, wins=joined((str(w) for w in wins), lang),
        conflicts=ngettext("{n} save conflict", "{n} save conflicts", conflicts).format(n=conflicts))
    if unfinished:
        line += ngettext("; {n} unfinished", "; {n} unfinished", unfinished).format(n=unfinished)
    return line


def outages_line(unavailable: int, unconfirmed: int, lost: int, lang: str | None) -> str:
    """What the run rode through: store calls refused or not reached, saves not confirmed."""
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    return _(N_("through outages: {calls} (retried), {saves} at first ({lost} of them lost, played again)")).format(
        calls=ngettext("{n} store call not reachable or refused", "{n} store calls not reachable or refused",
                       unavailable).format(n=unavailable),
        saves=ngettext("{n} save not confirmed", "{n} saves not confirmed", unconfirmed).format(n=unconfirmed),
        lost=lost)


def audit_failed_line(error: str, prefix: str, lang: str | None) -> str:
    """One game whose log did not replay to its stored state, and where it was kept."""
    return gettext_for(lang)(N_("AUDIT FAILED: {error} (kept under prefix {prefix})")).format(error=error, prefix=prefix)


def stuck_text(games: int, wait_replicas: int, why: str) -> Msg:
    """Games that stopped where they stood: a save the store never confirmed."""
    return Plural("{n} game stopped where it stood: a save stayed unconfirmed (redis.wait_replicas {replicas}: a "
                  "primary with fewer replicas, its own promoted in a failover, confirms nothing until one joins; "
                  "run one more replica per primary than that); the first: {why}",
                  "{n} games stopped where they stood: a save stayed unconfirmed (redis.wait_replicas {replicas}: a "
                  "primary with fewer replicas, its own promoted in a failover, confirms nothing until one joins; "
                  "run one more replica per primary than that); the first: {why}",
                  games, replicas=wait_replicas, why=why)
