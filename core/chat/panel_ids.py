"""Panel ids: the thin text codec between a button's id and the table model.

Why in core: a front-end whose buttons carry a short text back with each
press (Discord's `custom_id`, up to 100 characters; any chat platform's
callback data) needs the same few presses on a member's panel: open it,
do an action, open an action's picker, page it, show it again. What a
press asks for is an action of the table model (`unobot.chat.actions`):
its `id` travels as it is, with the table version the member saw. Which
actions exist, how they read and what they become is the model's; this
module only packs and unpacks text:

    u|hand                      "My cards" (status message): open your own panel
    u|a|17|pR5                  do action `pR5` (play R5), seen on version 17
    u|n|17|pW                   action `pW` still needs a pick: show its choices
    u|s|17|0  + value "pW"      the card select (page 0); its values are action ids
    u|pg|17|2                   page 2 of the panel   u|r|17  show it again

and for the settings messages (scope: channel or server, the place whose
settings change), the press ids of core's settings menu
(`unobot.chat.settings_menu`) behind `s|<scope>|`:

    s|channel|pr:1              a button: page 1 of the rules (any press id of the menu)
    s|channel|#0 + value on:x   a select: its picked option's value is the press id
    s|channel|t:<key>:<i>       type a number (a modal; its submit comes back with this id)

Nothing in an id is trusted: the person is the one the platform says
pressed it, `unobot.chat.actions.decode` rebuilds the command, the service
judges it, and the version makes an old panel stale.
"""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = "u"
SEP = "|"
#: The longest id (Discord's `custom_id` limit).
MAX_ID = 100

HAND = "hand"
ACT, NEEDS, SELECT, PAGE, REFRESH = "a", "n", "s", "pg", "r"
VERBS = (ACT, NEEDS, SELECT, PAGE, REFRESH)


@dataclass(frozen=True)
class Press:
    """A press on a table component: its verb, version and argument
    (an action id, or a page number as text)."""

    verb: str
    version: int | None = None
    arg: str = ""
    page: int = 0


def _int(text: str) -> int | None:
    """ASCII digits only (`int()` alone also takes '²' via isdigit-like paths and signs)."""
    return int(text) if text.isascii() and text.isdecimal() and len(text) <= 12 else None


def fits(custom_id: str) -> bool:
    return 0 < len(custom_id) <= MAX_ID


def hand_id() -> str:
    return f"{PREFIX}{SEP}{HAND}"


def act(version: int, action_id: str) -> str:
    return SEP.join((PREFIX, ACT, str(version), action_id))


def needs(version: int, action_id: str, page_no: int = 0) -> str:
    """The picker of an action (`u|n|17|pW`), or one of its pages (`u|n|17|pW|1`)."""
    base = SEP.join((PREFIX, NEEDS, str(version), action_id))
    return f"{base}{SEP}{page_no}" if page_no else base


def select(version: int, page: int) -> str:
    return SEP.join((PREFIX, SELECT, str(version), str(page)))


def select_value(action_id: str, needs: bool = False) -> str:
    """An option's value in the card select: the action's id; `?id` when it still needs a pick."""
    return ("?" if needs else "") + action_id


def page(version: int, number: int) -> str:
    return SEP.join((PREFIX, PAGE, str(version), str(number)))


def refresh(version: int) -> str:
    return SEP.join((PREFIX, REFRESH, str(version)))


def parse(custom_id: str, values: list[str] | None = None) -> Press | None:
    """The press of a table component, or None for anything not ours or malformed."""
    if not fits(custom_id) or not custom_id.isascii():
        return None
    parts = custom_id.split(SEP)
    if parts[0] != PREFIX or len(parts) < 2:
        return None
    if parts == [PREFIX, HAND]:
        return Press(HAND)
    verb = parts[1]
    if verb not in VERBS or len(parts) < 3:
        return None
    version = _int(parts[2])
    if version is None:
        return None
    args = parts[3:]
    if verb == REFRESH:
        return Press(REFRESH, version) if not args else None
    if verb == NEEDS and len(args) == 2 and args[0] and _int(args[1]) is not None:
        return Press(NEEDS, version, args[0], int(args[1]))
    if len(args) != 1 or not args[0]:
        return None
    if verb in (PAGE, SELECT):
        number = _int(args[0])
        if number is None:
            return None
        if verb == PAGE:
            return Press(PAGE, version, page=number)
        # A select: the picked option's value is the action id (`?id`: it needs a pick).
        if not values or len(values) != 1 or not values[0].lstrip("?") or not fits(values[0]):
            return None
        value = values[0]
        return Press(NEEDS, version, value[1:]) if value.startswith("?") else Press(ACT, version, value)
    return Press(verb, version, args[0])


# -- settings ---------------------------------------------------------------------------

SETTINGS = "s"
SCOPES = ("channel", "server")


@dataclass(frozen=True)
class Setting:
    """A press on a settings component: its scope and the settings menu's
    press id (`unobot.chat.settings_menu`), or `select`, the select it came
    from (its picked value is the press id)."""

    scope: str
    press: str = ""
    select: int | None = None


def setting(scope: str, press: str) -> str:
    """A settings button (or the modal of a `t:` press): `s|channel|on:stacking`."""
    return SEP.join((SETTINGS, scope, press))


def setting_select(scope: str, number: int) -> str:
    """A settings select: `s|channel|#0`; its options' values are press ids."""
    return SEP.join((SETTINGS, scope, f"#{number}"))


def parse_setting(custom_id: str) -> Setting | None:
    """A settings press, or None for anything else; what the press id means is the menu's to judge."""
    parts = custom_id.split(SEP, 2) if fits(custom_id) and custom_id.isascii() else []
    if len(parts) != 3 or parts[0] != SETTINGS or parts[1] not in SCOPES or not parts[2]:
        return None
    if parts[2].startswith("#"):
        number = _int(parts[2][1:])
        return Setting(parts[1], select=number) if number is not None else None
    return Setting(parts[1], parts[2])
