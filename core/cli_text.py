"""The `unobot` command's own words in its reader's language: every command's
help, and argparse's words around them.

Why one place for every command: an operator who reads Spanish ran
`unobot play --help` in Spanish and `unobot --help`, `unobot telegram
--help` or `unobot replay --help` in English, since only `play` translated
its options. Now the commands register their help texts in English (the
msgids: `N_`, or `gettext_for("en")` where a module marks them so), and
`TranslatedHelp`, the formatter of every parser, says each one in the
reader's language when the help is printed: `--lang` among the arguments,
else the locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE), else English. A
command of a third party's package is shown as it wrote it, unless
unobot's catalogue knows its words.

argparse's own words ("usage:", "options", "show this help message and
exit", "unrecognized arguments: %s", "invalid choice: ...") are looked up
by argparse through its module's `_` and `ngettext` (gettext's global
domain, which unobot does not install). `argparse_language` points those
two names at unobot's catalogue while the command line is parsed, and puts
them back after: nothing else in the process uses them, and the texts
(`ARGPARSE`, Python's msgids word for word) are in the catalogue.
"""

from __future__ import annotations

import argparse
import contextlib
import contextvars
from collections.abc import Iterator, Sequence
from typing import Any

from .chat.i18n import N_, NP_, Msg, env_lang, gettext_for, known, translations

#: argparse's own messages (Python's msgids, word for word), in unobot's catalogue.
ARGPARSE = {
    "usage": N_("usage: "),
    "argument": N_("argument %(argument_name)s: %(message)s"),
    "error": N_("%(prog)s: error: %(message)s\n"),
    "unrecognized": N_("unrecognized arguments: %s"),
    "required": N_("the following arguments are required: %s"),
    "one_of": N_("one of the arguments %s is required"),
    "expected_one": N_("expected one argument"),
    "expected_at_most_one": N_("expected at most one argument"),
    "expected_at_least_one": N_("expected at least one argument"),
    "invalid_value": N_("invalid %(type)s value: %(value)r"),
    "invalid_choice": N_("invalid choice: %(value)r (choose from %(choices)s)"),
    "ambiguous": N_("ambiguous option: %(option)s could match %(matches)s"),
    "not_allowed": N_("not allowed with argument %s"),
    "ignored": N_("ignored explicit argument %r"),
    "options": N_("options"),
    "positional": N_("positional arguments"),
    "help": N_("show this help message and exit"),
}
ARGPARSE_PLURALS = (NP_("expected %s argument", "expected %s arguments"),)

#: The language the command line is being read in (`argparse_language`).
_reading: contextvars.ContextVar[str] = contextvars.ContextVar("unobot_cli_lang", default="en")


def argv_lang(args: Sequence[str]) -> str | None:
    """The language `--lang es` (or `--lang=es`) asks for among `args`, if the bot has it."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        value = args[i + 1] if arg == "--lang" and i + 1 < len(args) else arg.partition("=")[2] \
            if arg.startswith("--lang=") else None
        if value is not None:
            return known(value)
    return None


def reader_of(args: Sequence[str]) -> str:
    """Who reads this command line's help and errors: `--lang`, else the locale, else English."""
    return argv_lang(args) or env_lang() or "en"


def config_error_line(exc: Any, args: Sequence[str] | None = None) -> str:
    """`error: file:line: key: message` for a `ConfigError` (or any error with
    `text(lang)`), in the language of whoever reads this command line
    (:func:`reader_of`: `--lang`, else the locale).

    Why: `unobot replay` with no store, a config.yaml that does not parse,
    a key misspelt, said in English to an operator who reads Spanish, while
    the command's help and argparse's errors were in Spanish."""
    import sys

    lang = reader_of(sys.argv[1:] if args is None else args)
    said = exc.text(lang) if callable(getattr(exc, "text", None)) else str(exc)
    _ = gettext_for(lang)
    return f"{_('error:')} {said}"


def error_line(message: Any, args: Sequence[str] | None = None) -> str:
    """`error: message` for an operator's mistake the command found itself (no
    token set, a bad option value), `message` a `Msg` said in the language of
    whoever reads this command line (:func:`reader_of`), or a plain text
    (a server's or a library's own words) as it is.

    Why: `unobot telegram` with no token and `unobot simulate --store foo`
    were English to an operator whose config errors were already Spanish."""
    import sys

    lang = reader_of(sys.argv[1:] if args is None else args)
    said = message.text(lang) if callable(getattr(message, "text", None)) else str(message)
    _ = gettext_for(lang)
    return f"{_('error:')} {said}"


def warning_line(message: Any, args: Sequence[str] | None = None) -> str:
    """`warning: message`, as `error_line` says an error: in the reader's language."""
    import sys

    lang = reader_of(sys.argv[1:] if args is None else args)
    said = message.text(lang) if callable(getattr(message, "text", None)) else str(message)
    _ = gettext_for(lang)
    label = _("warning:")
    return f"{label} {said}"


def cli_lang() -> str:
    """The language the command line is read in now (English outside `argparse_language`)."""
    return _reading.get()


def cli_gettext() -> Any:
    """`_` in the language the command line is read in: for the messages of an
    argument's `type` check (`--port 99999`), which argparse shows as they come."""
    return gettext_for(cli_lang())


@contextlib.contextmanager
def argparse_language(lang: str) -> Iterator[None]:
    """argparse's own words, and every help text, in `lang` while the block runs."""
    t = translations(lang)
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    token = _reading.set(lang)
    argparse._, argparse.ngettext = t.gettext, t.ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]
        _reading.reset(token)


class TranslatedHelp(argparse.HelpFormatter):
    """A help formatter that says each text in the command line's language
    (`cli_lang`): the options' help, the commands' one-line help in the list,
    descriptions and section titles. A text the catalogue does not know (a
    third party's) is shown as written."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return _say(action.help)

    def add_text(self, text: str | None) -> None:
        super().add_text(_say(text))

    def start_section(self, heading: str | None) -> None:
        super().start_section(_say(heading))


def _say(text: str | None) -> str | None:
    if not text or text == argparse.SUPPRESS:
        return text
    return str(gettext_for(cli_lang())(text))


def translate_parsers(parser: argparse.ArgumentParser) -> None:
    """Give `parser` and every command under it the translating formatter."""
    parser.formatter_class = TranslatedHelp
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                translate_parsers(sub)


#: What the system said, in words an operator reads in their language (the C library's
#: own `strerror` is English whatever the locale, unless its translations are installed).
OS_PROBLEMS = {
    "EEXIST": N_("a file of that name is there, not a folder"),
    "ENOTDIR": N_("a part of the path is a file, not a folder"),
    "EISDIR": N_("it is a folder, not a file"),
    "ENOENT": N_("no such file or folder"),
    "EACCES": N_("no permission"),
    "EPERM": N_("no permission"),
    "EROFS": N_("the file system is read-only"),
    "ENOSPC": N_("the disk is full"),
    "EDQUOT": N_("the disk quota is used up"),
    "ENAMETOOLONG": N_("the name is too long"),
}


def os_problem(exc: BaseException) -> Msg:
    """What went wrong with a file or folder (`exc`, an `OSError` or a text decoding
    error), to be said in its reader's language: the common reasons in their words, any
    other as the system says it."""
    import errno

    if isinstance(exc, UnicodeDecodeError):
        return Msg(N_("it is not UTF-8 text"))
    code = getattr(exc, "errno", None)
    name = errno.errorcode.get(code, "") if isinstance(code, int) else ""
    if name in OS_PROBLEMS:
        return Msg(OS_PROBLEMS[name])
    return Msg.plain(str(getattr(exc, "strerror", None) or exc))
