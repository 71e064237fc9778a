"""A chat's settings: variant, house rules and their options, language,
turn timer. Admins change them; a lobby not started yet takes them at once,
a running game keeps the rules it was dealt with (they are saved with it),
so a change applies from the next game.
"""

from __future__ import annotations

import logging
from typing import Any

from ..store import StoreError
from ..variants import VariantError, known_variant, load_variant, rules_for
from . import commands as c
from .i18n import N_, Msg, normalize
from .i18n import known as spoken
from .outcome import Outcome
from .ports import ServicePort
from .table import LOBBY, Table

log = logging.getLogger(__name__)

#: The commands this module carries out.
SETTINGS_COMMANDS = (c.SetVariant, c.SetRule, c.ResetRules, c.SetLanguage, c.SetTimer)


async def settings_command(service: ServicePort, chat_id: str, person: c.Person, cmd: c.Command) -> Outcome:
    """Change a chat's settings (admins only); a lobby not started yet takes them too."""
    current = await service.settings(chat_id)
    lang = current["lang"]
    if not person.is_admin:
        return service.fail("not_admin", lang)
    changes: dict[str, Any] = {}
    variant, rules = current["variant"], dict(current["rules"])
    if isinstance(cmd, c.SetLanguage):
        code = spoken(cmd.lang)  # `zh_CN`, `zh-cn`, `pt-BR`: the catalogue's own name
        if code is None:
            return service.fail("bad_language", lang)
        changes["lang"] = code
    elif isinstance(cmd, c.SetTimer):
        if not 0 <= int(cmd.seconds) <= c.MAX_TIMER_SECONDS:
            # Refused, not cut to an hour: an admin who asked for two hours must
            # not believe a turn has them (config.yaml refuses it the same way).
            return service.fail("bad_timer", lang)
        changes["timer"] = int(cmd.seconds)
    elif isinstance(cmd, c.SetVariant):
        try:
            known_variant(cmd.name)
            load_variant(cmd.name)
        except VariantError:
            return service.fail("unknown_variant", lang)
        variant = cmd.name
        changes["variant"] = variant
    elif isinstance(cmd, c.ResetRules):
        rules = {}
        changes["rules"] = rules
    elif isinstance(cmd, c.SetRule):
        from ..registry import available_rules

        known = available_rules()
        if cmd.rule not in known:
            return service.fail("unknown_rule", lang)
        if cmd.option is not None:
            entry = rules.get(cmd.rule)
            entry = dict(entry) if isinstance(entry, dict) else {}
            entry[cmd.option] = cmd.value
            rules[cmd.rule] = entry
        elif cmd.enabled is False:
            rules[cmd.rule] = False
        elif cmd.enabled is True:
            entry = rules.get(cmd.rule)
            rules[cmd.rule] = entry if isinstance(entry, dict) else {}
        changes["rules"] = rules
    # Resetting the rules only takes away, so it is never refused: it is the
    # way out of settings that no longer make a game (the chat's variant or a
    # rule of a plugin uninstalled since), which would else refuse every change.
    if ("variant" in changes or "rules" in changes) and not isinstance(cmd, c.ResetRules):
        try:
            rules_for(variant, rules or None)
        except VariantError as exc:
            code, reason = refusal(exc, cmd)
            return Outcome(ok=False, code=code, error=reason.text(lang), reason=reason)
    # Kept where the place's settings are kept (a Telegram forum topic's are its
    # group's), and taken by the lobby waiting at the place the command came
    # from: a topic's lobby kept its variant and language while /variant typed
    # in that topic changed the group's, and its game started on the old ones.
    kept_at = service.settings_from(chat_id)[0]
    await service.store.update_chat_settings(kept_at, changes)
    # A lobby that has not started yet takes the new settings too.
    table = await service.table(chat_id)
    took = table is not None and table.phase == LOBBY
    if took:
        took = (await service.mutate(chat_id, lambda t: apply_settings(t, changes))) is not None
    return Outcome(ok=True, changed=True, settings=await service.settings(chat_id),
                   followers=await lobbies_following(service, kept_at, chat_id), to_lobby=took)


async def lobbies_following(service: ServicePort, kept_at: str, but: str) -> list[Table]:
    """The lobbies of the other places whose settings come from `kept_at` (a
    forum's other topics, a Discord server's channels), each having taken
    the settings it has now (`follow`), for their front-end to show.

    Why now and not only at Start (`catch_up`): a lobby's status message says
    its variant, house rules, language and timer; left as they were, the
    people waiting there read rules their game will not be dealt with.
    Why a walk of the bound chats under the front-end's prefix
    (`settings_followers`; the store's SCAN matches it): a settings change is
    an admin's rare act, and an index of places by settings would be one
    more key to keep right on every bind. A follower the store fails on is
    left to `catch_up` at its Start: the change itself is saved.
    """
    prefix = service.settings_followers(kept_at)
    if prefix is None:  # nobody else takes their settings from there
        return []
    out: list[Table] = []
    try:
        async for place in service.store.bound_chats(prefix):
            if place == but or kept_at not in service.settings_from(place):
                continue
            fresh = await service.settings(place)
            changed: list[bool] = []

            def take(table: Table, fresh: dict[str, Any] = fresh, changed: list[bool] = changed) -> list[str] | None:
                entries = follow(table, fresh)
                changed.append(entries is not None)
                return entries

            table = await service.mutate(place, take)
            if table is not None and changed and changed[-1]:  # the attempt that was saved
                out.append(table)
    except StoreError as exc:
        log.warning("settings of %s saved; the lobbies following them take them at Start (%s)", kept_at, exc)
    return out


def follow(table: Table, settings: dict[str, Any]) -> list[str] | None:
    """A lobby takes the settings of its place changed since it last took
    them (`catch_up`); None when nothing changed for it (a Discord
    channel's own setting stays over its server's)."""
    if table.phase != LOBBY or not table.settings_seen:
        return None
    changes = {key: value for key, value in seen_settings(settings).items() if table.settings_seen.get(key) != value}
    return apply_settings(table, changes) if changes else None

class RuleLabel(Msg):
    """A rule's title in the reader's language (`Stacking`, `Acumular`), as
    the chat's /rules shows it."""

    __slots__ = ("rule",)

    def __init__(self, rule: str) -> None:
        super().__init__(rule)
        self.rule = rule

    def text(self, lang: str | None = None) -> str:
        from ..registry import available_rules

        cls = available_rules().get(self.rule)
        return cls.label(normalize(lang)) if cls is not None else self.rule


def refusal(exc: VariantError, cmd: c.Command) -> tuple[str, Msg]:
    """The code and the reason a chat is told when its settings would not
    make a game: the rules that clash named by their titles (a chat never
    sees `--rule` or YAML), or what the option takes."""
    if exc.kind == "conflict":
        rule, other = exc.rules
        if isinstance(cmd, c.SetRule) and cmd.enabled and cmd.rule in exc.rules:
            mine, theirs = (cmd.rule, other if cmd.rule == rule else rule)
            return "rule_conflict", Msg(N_("“{rule}” cannot be on together with “{other}”: turn “{other}” off first."),
                                        rule=RuleLabel(mine), other=RuleLabel(theirs))
        return "rule_conflict", Msg(N_("“{rule}” and “{other}” cannot both be on: turn one of them off first."),
                                    rule=RuleLabel(rule), other=RuleLabel(other))
    if exc.kind == "requires":
        rule, other = exc.rules
        return "rule_conflict", Msg(N_("“{rule}” needs “{other}”: turn “{other}” on first."),
                                    rule=RuleLabel(rule), other=RuleLabel(other))
    return "bad_option", Msg(N_("That option does not fit the rule: {reason}."), reason=exc.msg)


#: The settings a lobby takes (`apply_settings`): what its game is dealt with and said in.
LOBBY_SETTINGS = ("variant", "rules", "lang", "timer")


def seen_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """What a lobby remembers of the chat's settings (`Table.settings_seen`)."""
    return {key: settings[key] for key in LOBBY_SETTINGS if key in settings}


def catch_up(table: Table, settings: dict[str, Any]) -> None:
    """At Start, a lobby takes the chat's settings changed since it last took
    them. Why: a setting is kept at the place's settings (a forum's group, a
    Discord server), and only the lobby where it was changed hears of it at
    once; a lobby open in another topic or channel would else deal its game
    on the old rules. Only what changed: a variant chosen with /new stays
    unless the chat's variant itself changed since."""
    follow(table, settings)


def apply_settings(table: Table, changes: dict[str, Any]) -> list[str] | None:
    """A lobby takes the chat's new settings (a running game keeps its own)."""
    if table.phase != LOBBY:
        return None
    table.settings_seen = {**table.settings_seen, **{k: v for k, v in changes.items() if k in LOBBY_SETTINGS}}
    if "variant" in changes:
        table.variant = changes["variant"]
    if "rules" in changes:
        table.overrides = changes["rules"]
    if "lang" in changes:
        table.lang = changes["lang"]
    if "timer" in changes:
        table.timer = changes["timer"]
    return ["settings"]


def override_commands(overrides: dict[str, Any]) -> list[c.Command]:
    """Rule overrides (`unobot play --rule`, a config's: `{rule: False | True |
    {option: value}}`) as settings commands, in the order that lets them all
    through: rules off first (one may conflict with a rule turned on), then on,
    then options (an option is set on a rule that is on)."""
    off: list[c.Command] = []
    on: list[c.Command] = []
    options: list[c.Command] = []
    for rule, value in overrides.items():
        if value is False:
            off.append(c.SetRule(rule=rule, enabled=False))
        elif isinstance(value, dict) and value:
            options += [c.SetRule(rule=rule, option=k, value=v) for k, v in value.items()]
        else:
            on.append(c.SetRule(rule=rule, enabled=True))
    return off + on + options
