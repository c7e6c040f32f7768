"""The one refusal: every layer raises `RuleError`, and one place answers it (422).

Its message is written in English for the catalog and translated when it is read, in the
reader's language: the rules know no Django, so the Django layer installs its `gettext`
and `ngettext` here at start-up (`install`). A message is a %-format whose numbers and
names are the error's params, so that the catalog holds one sentence per refusal."""

from collections.abc import Callable
from typing import NamedTuple


def _(message: str) -> str:
    """Marks `message` for the catalog (`_` is one of xgettext's default keywords, so
    `makemessages` finds it here); `RuleError` translates it when it is read."""
    return message


class Term(str):
    """A param that is itself a marked word of the rules ("Stress", "Tier"): read in the
    reader's language too. Other params (a character's name, a harm's description) are
    the players' words and stay as written."""


class Terms(tuple):
    """Several words of the rules as one param ("Prowl, Finesse, Tinker"): each read in
    the reader's language, listed with commas."""


class Plural(NamedTuple):
    singular: str
    plural: str
    count: int


def ngettext(singular: str, plural: str, count: int) -> Plural:
    """Marks a message whose form follows `count` ("1 box", "2 boxes"); named as gettext's
    so that xgettext takes both forms."""
    return Plural(singular, plural, count)


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


_translate: Callable[[str], str] = _english
_translate_plural: Callable[[str, str, int], str] = _english_plural


def install(gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> None:
    """Every `RuleError` read from now on is read in what these two answer (the active
    language, for Django's)."""
    global _translate, _translate_plural
    _translate, _translate_plural = gettext, ngettext


class RuleError(ValueError):
    """A move the rules (or the roll's progress) do not allow; the message is written for
    the player and shown beside the control they used. Nothing was changed.

    `message` is marked (`_("Stress stops at %(limit)s.")`, or `ngettext(...)`) and its
    params are given by name (`limit=9`). `field` names the form field the message
    belongs beside, where one field is at fault (a form draws it there rather than above
    the whole form)."""

    def __init__(self, message: str | Plural = "", *, field: str = "", **params) -> None:
        super().__init__(message)
        self.message = message
        self.params = params
        self.field = field

    def __str__(self) -> str:
        if isinstance(self.message, Plural):
            text = _translate_plural(*self.message)
        else:
            text = _translate(self.message) if self.message else ""
        if not self.params:
            return text
        return text % {name: _read(value) for name, value in self.params.items()}


def _read(param):
    if isinstance(param, Term):
        return _translate(param)
    if isinstance(param, Terms):
        return ", ".join(_translate(term) for term in param)
    return param
