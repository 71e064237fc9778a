"""A press on a settings message, on any front-end: what to show next, and
whether it changed the settings.

Why in core: Telegram's /rules keyboard and Discord's /uno rules message
each read a press with the settings menu (`settings_menu.decode`), answered
one that does not check out, sent the command it makes to the service,
answered a refusal and said "Saved" in the same steps: two copies of one
flow. Here it is once; a front-end draws the view it is told to show, says
the refusal, and shows the new settings on the lobby of its place when
the press `saved` them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .commands import Person
from .i18n import N_, gettext_for
from .outcome import Outcome
from .paging import inert
from .service import ChatService
from .settings_menu import Refused, Show, decode

SAVED = N_("Saved. It applies from the next game.")
#: `SAVED` when the place's lobby took the change at once (`Outcome.to_lobby`): "from the
#: next game" was said while the lobby's status already showed it.
SAVED_LOBBY = N_("Saved. The game waiting for players here plays it too.")
#: The same two, after what a typed command set ("Variant: Party.").
APPLIES = N_("It applies from the next game.")
APPLIES_LOBBY = N_("The game waiting for players here plays it too.")


def saved_note(lang: str, to_lobby: bool) -> str:
    """"Saved. ..." in `lang`: from the next game, or (`to_lobby`) for the lobby too."""
    return gettext_for(lang)(SAVED_LOBBY if to_lobby else SAVED)


def applies_note(lang: str, to_lobby: bool) -> str:
    """When a setting a typed command changed applies, in `lang` (`saved_note`'s second half)."""
    return gettext_for(lang)(APPLIES_LOBBY if to_lobby else APPLIES)


@dataclass(frozen=True)
class Pressed:
    """What a settings press came to: `show`, the view to show now; or,
    refused (`show` None), `refusal`, why, in the reader's language
    (`conflict`: rules that clash, which the admin must act on). `outcome`
    is the service's when the press sent a command and it was accepted."""

    show: Show | None
    refusal: str = ""
    conflict: bool = False
    outcome: Outcome | None = None

    @property
    def saved(self) -> bool:
        """The settings changed (from the next game on)."""
        return self.outcome is not None

    def note(self, lang: str) -> str:
        """"Saved. ..." in `lang` when the settings changed (`saved_note`), else nothing."""
        return saved_note(lang, self.outcome.to_lobby) if self.outcome is not None else ""


async def press(service: ChatService, chat: str, person: Person, code: str, typed: str | None = None, *,
                lang: str, size: int, commands: Mapping[str, str] | None = None) -> Pressed:
    """Press `code` (a settings menu press id; `typed`, a number typed for a
    `t:` press) on the settings of `chat`, by `person`, read in `lang` with
    pages of `size`. A press that only shows a view asks nothing of the
    store (a front-end that must answer first, as Discord with a modal, may).
    A tap on a button that cannot be pressed (n/N) shows and says nothing.
    `commands`: how the front-end spells a command a refusal names."""
    if inert(code):
        return Pressed(None)
    decoded = decode(code, typed, lang=lang, size=size)
    if isinstance(decoded, Refused):
        return Pressed(None, decoded.text)
    if decoded.command is None:
        return Pressed(decoded.show)
    out = await service.handle(chat, person, decoded.command)
    if not out.ok:
        return Pressed(None, out.refusal(lang, commands), conflict=out.code == "rule_conflict")
    return Pressed(decoded.show, outcome=out)
