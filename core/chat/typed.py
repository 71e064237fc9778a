"""The words people type, in every language, read from the catalogues.

Why from the catalogues and not from tables in code: a language arrives as
a catalogue, and whoever translates it knows what its players type for
red (`rot`, `rouge`, `красный` and `красная`), for its initial (`r`, `j`
for jaune, `к`), for a week after `/top` (`Woche`, `semaine`) and for a
turn timer switched off (`aus`). A new language gets every typed word by
translating these entries; nothing here names a language.

Each entry is marked with the context ``typed`` (the `r` a person types
for red is not the `r` of another text), and its translation lists every
form a player may type, separated by commas (`rojo, roja`): a form may be
more than one word (`tất cả`). English is the source text, so the English
forms are the msgids.

A word is read in the reader's language first, then in English, then in
every other language, the first that knows it: `g` is green to an English
reader and giallo (yellow) to an Italian one; `rot` is red to anyone.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from .i18n import LANGUAGES, N_, NC_, gettext_for, normalize, pgettext_for

TYPED = "typed"

#: The colours' names as texts show them (`red`, `Red`; render.py shows
#: them): read when typed too. Here, so that reading them needs nothing of
#: the renderer.
COLOR_WORDS = {"R": N_("red"), "G": N_("green"), "B": N_("blue"), "Y": N_("yellow")}
COLOR_TITLES = {"R": N_("Red"), "G": N_("Green"), "B": N_("Blue"), "Y": N_("Yellow")}
#: The AI levels' names as a menu shows them (`leicht`, `difícil`), read when typed after `/ai 2`.
LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"), "expert": N_("expert"),
               "random": N_("random"), "basic": N_("basic"), "strong": N_("strong")}

#: Every form of each colour word a player types beyond its shown names
#: ("red" and "Red" are read through their own translations): both genders,
#: spellings without accents are read anyway.
COLOR_FORMS: dict[str, str] = {
    "R": NC_("typed", "red"), "Y": NC_("typed", "yellow"), "G": NC_("typed", "green"), "B": NC_("typed", "blue"),
}
#: The short forms of each colour (its initial, or two letters where two
#: colours share one): typed before a rank (`r5`, `az+2`) or after a wild (`W+4 g`).
COLOR_SHORT: dict[str, str] = {
    "R": NC_("typed", "r"), "Y": NC_("typed", "y"), "G": NC_("typed", "g"), "B": NC_("typed", "b"),
}
#: What `/top` takes for each period (none at all: all time).
PERIODS: dict[str, str] = {"week": NC_("typed", "week"), "month": NC_("typed", "month"), "all": NC_("typed", "all")}
#: The players' records commands as a person types them where commands are
#: typed words (the console): every form the reader's language lists, and
#: the English names the chats give them (`/top`, `/me`, `/resetstats`) in
#: every language. The reset is an admin's (the console's player is one:
#: the standings are theirs); its key is the command's name (`answers`).
RECORD_WORDS: dict[str, str] = {"top": NC_("typed", "top"), "me": NC_("typed", "me"),
                                "last": NC_("typed", "last"), "forgetme": NC_("typed", "forgetme"),
                                "reset": NC_("typed", "resetstats")}
#: A setting switched off (`/timer off`).
OFF = NC_("typed", "off")


def fold(word: str) -> str:
    """Lower case, accents off: `Comodín` -> `comodin`."""
    decomposed = unicodedata.normalize("NFD", word.strip().lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def in_order(lang: str | None) -> tuple[str, ...]:
    """The languages a typed word is looked up in: the reader's, English, then the rest."""
    first = normalize(lang)
    return tuple(dict.fromkeys((first, "en", *LANGUAGES)))


@cache
def forms(lang: str, message: str) -> tuple[str, ...]:
    """The folded forms an entry's translation lists in `lang` (the English ones when untranslated)."""
    text = pgettext_for(lang)(TYPED, message)
    return tuple(dict.fromkeys(f for f in (" ".join(fold(part).split()) for part in text.split(",")) if f))


def first_form(lang: str, message: str) -> str:
    """The first form an entry's translation lists, as written (`semana`,
    `tuần`): what a help shows a player to type."""
    text = pgettext_for(lang)(TYPED, message)
    return next((f for f in (" ".join(part.split()) for part in text.split(",")) if f), message)


def menu_word(lang: str, message: str, *, typed: bool = False) -> str | None:
    """What a platform's command menu shows for `message` in `lang`: a typed
    word's first form (`typed`: the menu offers what a player may type), any
    other text's translation; None when that is the English text itself
    (the platform then shows its default). Why here: Discord's translator
    of command descriptions and choices asks exactly this."""
    text = first_form(lang, message) if typed else gettext_for(lang)(message)
    return text if text != message else None


@cache
def color_names(lang: str) -> dict[str, str]:
    """Folded colour words of `lang` -> colour letter: the names shown and the typed forms."""
    _ = gettext_for(lang)
    names: dict[str, str] = {}
    for color in COLOR_FORMS:
        for word in (_(COLOR_WORDS[color]), _(COLOR_TITLES[color]), *forms(lang, COLOR_FORMS[color])):
            names.setdefault(fold(word), color)
    return names


@cache
def color_letters(lang: str) -> dict[str, str]:
    """Folded short colour forms of `lang` -> colour letter."""
    return {form: color for color, message in COLOR_SHORT.items() for form in forms(lang, message)}


def color_of(word: str, lang: str | None = None, letters: bool = True) -> str | None:
    """The colour a typed word names (`rot`, `Rouge`, `gel`: three letters
    or more of one name; with `letters` the short forms `r`, `j`, `az`), in
    the reader's language first (see the module's docstring)."""
    w = fold(word)
    if not w:
        return None
    for language in in_order(lang):
        names = color_names(language)
        if w in names:
            return names[w]
        if letters and w in color_letters(language):
            return color_letters(language)[w]
        if len(w) >= 3:
            found = {color for name, color in names.items() if name.startswith(w)}
            if len(found) == 1:
                return found.pop()
    return None


def period_of(text: str | None) -> str | None:
    """The `/top` period a typed text names (`week`, `Woche`, `mes`), "all"
    for nothing typed, None for a text that names none."""
    w = " ".join(fold(text or "").split())
    if not w:
        return "all"
    for language in in_order(None):
        for period, message in PERIODS.items():
            if w in forms(language, message):
                return period
    return None


def record_command(words: list[str], lang: str | None) -> tuple[str, int] | None:
    """The records command typed words start with (`top`, `clasificación`,
    `xếp hạng`, `/me`), and how many words it took; None for none.

    Read in the reader's language and English only, not in every language as
    colours are: a short word of one language is another's answer or move
    (Polish `ja` is me, German `ja` answers "Play again?")."""
    folded = [fold(word).removeprefix("/") for word in words]
    best: tuple[str, int] | None = None
    for language in dict.fromkeys((normalize(lang), "en")):
        for name, message in RECORD_WORDS.items():
            for form in (name, *forms(language, message)):
                size = len(form.split())
                if folded[:size] == form.split() and (best is None or size > best[1]):
                    best = (name, size)
    return best


def level_of(text: str | None) -> str | None:
    """The AI level a typed text names: its English name (or an old alias,
    which the AI reads itself), else a level's name as shown in any language
    (`schwer`, `difícil`, `bình thường`); None for none."""
    w = " ".join(fold(text or "").split())
    if not w:
        return None
    if w in LEVEL_NAMES:
        return w
    for language in in_order(None):
        _ = gettext_for(language)
        for level, name in LEVEL_NAMES.items():
            if w == " ".join(fold(_(name)).split()):
                return level
    return None


def is_off(word: str) -> bool:
    """Does a typed word switch a setting off (`off`, `aus`, `desactivado`)?"""
    w = " ".join(fold(word).split())
    return any(w in forms(language, OFF) for language in in_order(None))


#: A yes to a question asked with "[Y/n]" (besides an empty answer, the default), and a no.
YES = (N_("y"), N_("yes"))
NO = (N_("n"), N_("no"))
#: What a sentence puts around an answer (`¡Sí!`, `Да.`): not part of it.
MARKS = "¡!¿?.,;:"


def yes_or_no(answer: str, lang: str) -> bool | None:
    """A typed answer to a "[Y/n]" question: True for yes (empty: the
    default), False for no, None for neither. Read in the asker's language
    and in English (Spanish's s/sí too), whatever the case, accents and
    marks around it: `co` is có to a Vietnamese player typing without
    accents, `Да.` and `¡Sí!` are yes.

    Why None and not no: an answer that is neither is asked again; read as
    no, a Vietnamese `co` or a Russian `да.` deleted a saved game."""
    _ = gettext_for(lang)
    word = fold(answer).strip(MARKS).strip()
    if word in ("", "y", "yes", "s", "si", *(fold(_(w)) for w in YES)):
        return True
    if word in ("n", "no", *(fold(_(w)) for w in NO)):
        return False
    return None


def is_yes(answer: str, lang: str) -> bool:
    """Is a typed answer yes (`yes_or_no`)? Anything else is no."""
    return yes_or_no(answer, lang) is True
