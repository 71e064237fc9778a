"""Component ids: the thin codec between a Discord `custom_id` and the table model.

A Discord component carries a `custom_id` (up to 100 characters) that comes
back with every press. What a press asks for is an action of the table
model (`unobot.chat.actions`): its `id` travels as it is, with the table
version the member saw. Which actions exist, how they read and what they
become is the model's; this module only packs and unpacks text:

    u|hand                      "My cards" (status message): open your own panel
    u|a|17|pR5                  do action `pR5` (play R5), seen on version 17
    u|n|17|pW                   action `pW` still needs a pick: show its choices
    u|s|17|0  + value "pW"      the card select (page 0); its values are action ids
    u|pg|17|2                   page 2 of the panel   u|r|17  show it again

and for the settings message of `/uno rules` (scope: channel or server):

    r|t|channel|0 + value rule  switch a house rule on/off (select, page 0)
    r|o|channel|0 + value r:o   open option `o` of rule `r`
    r|p|channel|1               page 1 of the rules   r|b|channel  back to the rules
    r|v|channel|rule|opt|n10    set an option: n<number>, b1/b0, i<index of a choice>
    r|q|channel|rule|opt|1      page 1 of an option's values
    r|m|channel|rule|opt        type a number (a modal; its submit comes back with this id)
    v|s|channel|0 + value name  choose a variant (select, page 0)   v|p|channel|1  page 1

Nothing in an id is trusted: the person is the one Discord says pressed it,
`unobot.chat.actions.decode` rebuilds the command, the service judges it,
and the version makes an old panel stale.
"""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = "u"
SEP = "|"
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

RULES, VARIANTS = "r", "v"
SCOPES = ("channel", "server")


@dataclass(frozen=True)
class Setting:
    """A press on a settings component: `r|t|channel|0`, `r|v|server|rule|opt|n5`, ..."""

    kind: str
    verb: str
    scope: str
    args: tuple[str, ...] = ()

    @property
    def page(self) -> int:
        return (_int(self.args[0]) or 0) if self.args else 0


def setting(kind: str, verb: str, scope: str, *args: object) -> str:
    return SEP.join((kind, verb, scope, *(str(a) for a in args)))


#: How many arguments each settings verb takes (besides the scope).
_SETTING_ARGS = {(RULES, "t"): 1, (RULES, "o"): 1, (RULES, "p"): 1, (RULES, "b"): 0, (RULES, "v"): 3,
                 (RULES, "m"): 2, (RULES, "q"): 3, (VARIANTS, "s"): 1, (VARIANTS, "p"): 1}


def parse_setting(custom_id: str) -> Setting | None:
    if not fits(custom_id):
        return None
    parts = custom_id.split(SEP)
    if len(parts) < 3 or parts[2] not in SCOPES:
        return None
    kind, verb, scope, args = parts[0], parts[1], parts[2], tuple(parts[3:])
    if _SETTING_ARGS.get((kind, verb)) != len(args) or not all(args):
        return None
    if verb in ("t", "o", "p", "s") and _int(args[0]) is None:
        return None
    return Setting(kind, verb, scope, args)
