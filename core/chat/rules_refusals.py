"""What exactly a chat is told when a game's rules cannot be put together.

Why its own module: the refusals "this chat's house rules do not fit that
variant" and "this game's rules cannot be loaded" said only that; the admin
who must act was never told which rules clash, or which rule is missing.
The `VariantError` knows (its `kind` and `rules`); these turn it into one
sentence naming them by their titles in the reader's language, said before
the refusal's own words of how to fix it (`Outcome.detail`). Used by the
lobby (/new, Start) and the service (a game whose rule plugin is gone).
"""

from __future__ import annotations

from ..variants import VariantError, load_variant
from .i18n import N_, Msg
from .settings import RuleLabel


class VariantTitle(Msg):
    """A variant's title in the reader's language (its name when it cannot be loaded)."""

    def text(self, lang: str | None = None) -> str:
        try:
            return load_variant(self.msgid).label(lang or "en")
        except VariantError:
            return self.msgid


def clash_detail(exc: VariantError, variant: str) -> Msg | None:
    """Which rules clash in `variant` with the chat's house rules, or None
    when the error is no clash (then the refusal's own words stand alone)."""
    if len(exc.rules) < 2:
        return None
    rule, other = exc.rules[:2]
    if exc.kind == "conflict":
        return Msg(N_("With the variant “{variant}”, “{rule}” and “{other}” cannot both be on."),
                   variant=VariantTitle(variant), rule=RuleLabel(rule), other=RuleLabel(other))
    if exc.kind == "requires":
        return Msg(N_("With the variant “{variant}”, “{rule}” needs “{other}”, which is off."),
                   variant=VariantTitle(variant), rule=RuleLabel(rule), other=RuleLabel(other))
    return None


def missing_detail(exc: VariantError) -> Msg | None:
    """Which rule is missing (and its package, when the plugin is installed
    but failed to load), or None when the error names none."""
    if exc.kind not in ("missing", "unknown_rule") or not exc.rules:
        return None
    from ..registry import rule_package

    rule = exc.rules[0]
    package = rule_package(rule)
    if package:
        return Msg(N_("The rule “{rule}” (package {package}) is not installed or failed to load."),
                   rule=rule, package=package)
    return Msg(N_("The rule “{rule}” is not installed or failed to load."), rule=rule)
