"""Component ids: what a button or select option asks for, as text.

A Discord component carries a `custom_id` (up to 100 characters) that comes
back with every press. Ours say the action, the table version the member
saw, and the action's arguments, separated by `|`:

    u|join                       status message buttons (no version: anyone, any time)
    u|hand                       "My cards": open your hand (ephemeral)
    u|p|17|W|R|ai:1|1            play W (colour R, target ai:1, with UNO) on version 17
    u|sel|17  + value "R5|0"     the hand's select menu: a card (and UNO)
    u|d|17  u|dp|17  u|pa|17     draw / draw and play it / pass
    u|un|17  u|ch|17  u|ca|17|<id> UNO / challenge / catch someone
    u|r|17                       show my hand again

Nothing in an id is trusted: the person is the one Discord says pressed it,
the move is judged by the engine, and the version makes an old hand stale.
"""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = "u"
SEP = "|"

#: Status message verbs, which carry no version.
TABLE_VERBS = ("join", "start", "ai", "leave", "next", "skip", "hand")
#: Hand verbs, each made on the version of the hand it was shown with.
HAND_VERBS = ("p", "sel", "d", "dp", "pa", "un", "ch", "ca", "r")


@dataclass(frozen=True)
class Action:
    verb: str
    version: int | None = None
    card: str = ""
    color: str = ""
    target: str = ""
    uno: bool = False


def table_id(verb: str) -> str:
    return f"{PREFIX}{SEP}{verb}"


def hand_id(verb: str, version: int, *args: str) -> str:
    return SEP.join((PREFIX, verb, str(version), *args))


def play_id(version: int, card: str, color: str | None = None, target: str | None = None,
            uno: bool = False) -> str:
    return hand_id("p", version, card, color or "", target or "", "1" if uno else "0")


def select_value(card: str, uno: bool = False) -> str:
    return f"{card}{SEP}{'1' if uno else '0'}"


def parse(custom_id: str, values: list[str] | None = None) -> Action | None:
    """The action of a component press, or None for anything not ours or malformed."""
    parts = custom_id.split(SEP)
    if len(parts) < 2 or parts[0] != PREFIX or len(custom_id) > 100:
        return None
    verb = parts[1]
    if verb in TABLE_VERBS:
        return Action(verb) if len(parts) == 2 else None
    if verb not in HAND_VERBS or len(parts) < 3 or not (parts[2].isascii() and parts[2].isdecimal()):
        return None  # ASCII digits only: `int()` refuses what isdigit alone accepts ('²')
    version = int(parts[2])
    args = parts[3:]
    if verb == "p":
        if len(args) != 4 or not args[0] or args[3] not in ("0", "1"):
            return None
        return Action("p", version, args[0], args[1], args[2], args[3] == "1")
    if verb == "sel":
        if args or not values or len(values) != 1:
            return None
        picked = values[0].split(SEP)
        if len(picked) != 2 or not picked[0] or picked[1] not in ("0", "1"):
            return None
        return Action("p", version, picked[0], uno=picked[1] == "1")
    if verb == "ca":
        if len(args) > 1:
            return None
        return Action("ca", version, target=args[0] if args else "")
    if args:
        return None
    return Action(verb, version)
