"""Which numbers each plural form of a catalogue is used for, as a translator
reads it beside the entry (Poedit and Weblate show the same).

Why: a catalogue's forms follow CLDR, not a translator's grammar book.
Spanish has three: msgstr[0] for 1, msgstr[1] for a million, two million...
(the "de" of "un millón de cartas"), msgstr[2] for everything else. A plugin
author who filled msgstr[1] as "the plural" left msgstr[2] (what 3 reads) in
the millions' words, and the page said "roba 3 de cartas". The numbers are
computed from the catalogue's own Plural-Forms expression, so a catalogue
with another rule gets its own note; the CLDR category (one, few, many,
other) names each form where Babel knows the language.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Sequence

#: The numbers tried: every count a table shows, then the large ones a
#: language may give a form of their own (millions in Spanish, French...).
_SMALL = range(0, 1100)
_LARGE = (10_000, 100_000, 1_000_000, 1_000_001, 2_000_000, 3_000_000, 10_000_000)
_SHOWN = 8  # examples per form, then "…" (as Weblate lists them)


def form_of(plural_expr: str) -> Callable[[int], int]:
    """The Plural-Forms expression (`(n != 1)`) as a function of n."""
    return gettext.c2py(plural_expr)


def examples(plural_expr: str, nplurals: int) -> list[list[int]]:
    """For each form index, the first numbers it is used for (up to
    `_SHOWN` and one more, which says there are more)."""
    pick = form_of(plural_expr)
    found: list[list[int]] = [[] for _ in range(nplurals)]
    for n in (*_SMALL, *_LARGE):
        i = pick(n)
        if 0 <= i < nplurals and len(found[i]) <= _SHOWN:
            found[i].append(n)
    return found


def category(lang: str, n: int) -> str:
    """CLDR's name for the form `n` takes in `lang` (`one`, `many`...), or ""."""
    from babel import Locale, UnknownLocaleError

    try:
        return str(Locale.parse(lang).plural_form(n))
    except (UnknownLocaleError, ValueError):
        return ""


def describe(found: Sequence[Sequence[int]], lang: str) -> list[str]:
    """One line per form: `msgstr[1] (many): 1000000, 2000000, 3000000, 10000000`."""
    lines = []
    for i, numbers in enumerate(found):
        more = len(numbers) > _SHOWN or any(n >= 1000 for n in numbers)  # sampled, not the last of them
        shown = ", ".join(str(n) for n in numbers[:_SHOWN]) + ("…" if more else "")
        tag = category(lang, numbers[0]) if numbers else ""
        lines.append(f"msgstr[{i}]{f' ({tag})' if tag else ''}: {shown or 'no number'}")
    return lines


def plural_note(plural_expr: str, nplurals: int, lang: str) -> str:
    """The translator's note put on each plural entry of `lang`'s catalogue."""
    return "plural forms: " + "; ".join(describe(examples(plural_expr, nplurals), lang))


def large_only_forms(plural_expr: str, nplurals: int) -> list[int]:
    """The forms used for no count below 1000 (Spanish's msgstr[1], for
    millions): the forms a translator most often takes for "the plural"."""
    return [i for i, numbers in enumerate(examples(plural_expr, nplurals)) if numbers and min(numbers) >= 1000]


def swapped_forms(plural_expr: str, nplurals: int, forms: Sequence[str]) -> str | None:
    """Why the entry's forms look filled in the wrong slots, or None.

    Only where a form serves large numbers alone (a "many" for millions),
    and only two signs that do not depend on the language's grammar:

    * the form a table's counts 2, 3... read is the singular's text word for
      word while the millions' form says something else: the plural went
      into the millions' slot;
    * the form for 2, 3... holds every word of the millions' form and more
      ("{n} de cartas" where the millions' form says "{n} cartas"): the
      millions' wording ("un millón de cartas") went into the ordinary slot.
    """
    if len(forms) != nplurals or not all(forms):
        return None
    pick = form_of(plural_expr)
    one, few = pick(1), pick(3)
    for large in large_only_forms(plural_expr, nplurals):
        if few in (large, one):
            continue
        if forms[few] == forms[one] and forms[large] != forms[one]:
            return (f"msgstr[{few}] (used for 2, 3…) repeats the singular msgstr[{one}], "
                    f"while msgstr[{large}] (used for millions only) holds another text")
        ordinary, millions = forms[few].split(), forms[large].split()
        if len(ordinary) > len(millions) and all(ordinary.count(w) >= millions.count(w) for w in millions):
            return (f"msgstr[{few}] (used for 2, 3…) has words msgstr[{large}] (used for millions only) "
                    f"lacks: the millions' wording may be in the ordinary form's place")
    return None
