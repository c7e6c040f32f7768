"""One way to read a value from a POST that no form class covers: through a Django form
field with its bounds, never a bare `int(request.POST[...])`.

A value that does not parse (not a number, a fraction, past its bounds, too long, a NUL
byte, an id that is not among the ones the member may name) raises `InputError`, a
`RuleError` whose message names the field (and whose `field` is its name), before any
action runs: the refusal path answers 422 with the message beside the control, and
nothing has changed.
"""

import re
from typing import Any, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet

from blades.rules.errors import RuleError

# The largest key an integer column holds (PostgreSQL's `integer`); any id past it is
# no id at all, and asking the database about it fails on some backends.
ID_MAX = 2**31 - 1
# For a count the rules judge themselves (and say so in their words): bounds only
# against garbage, such as a 30-digit number no column holds.
NUMBER_MAX = 1000

M = TypeVar("M", bound=Model)
# What `secrets.token_urlsafe` makes: anything else in a link is no token.
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


class InputError(RuleError):
    """A value that does not parse; the message names the field."""


def _clean(field: forms.Field, post, name: str, what: str) -> Any:
    try:
        return field.clean(post.get(name))
    except ValidationError as error:
        raise InputError(f"{what}: {error.messages[0]}", field=name) from None


def _what(name: str) -> str:
    return name.replace("_", " ").capitalize()


def whole(post, name: str, *, low: int, high: int, default: int | None = None) -> int:
    """A whole number from `low` to `high`; blank is `default` (or refused without one)."""
    field = forms.IntegerField(min_value=low, max_value=high, required=default is None)
    value = _clean(field, post, name, _what(name))
    return default if value is None else value


def number(post, name: str, *, default: int | None = None) -> int:
    """A whole number for the rules to judge: only garbage is refused here."""
    return whole(post, name, low=-NUMBER_MAX, high=NUMBER_MAX, default=default)


def text(post, name: str, *, max_length: int, required: bool = False) -> str:
    """Stripped text of at most `max_length` characters (the model's column or less)."""
    field = forms.CharField(max_length=max_length, required=required)
    return _clean(field, post, name, _what(name))


def is_token(value: str) -> bool:
    """Whether a link's token could be one of ours (PostgreSQL cannot even compare a NUL)."""
    return TOKEN.fullmatch(value) is not None


def flag(post, name: str) -> bool:
    return post.get(name) in ("1", "on", "true")


def one(queryset: QuerySet[M], post, name: str, *, what: str = "") -> M | None:
    """The object whose id is posted as `name`, looked up in `queryset` (what the member
    may name, from an access function: never a whole table); blank is None."""
    what = what or _what(name)
    key = whole(post, name, low=1, high=ID_MAX, default=0)
    if not key:
        return None
    found = queryset.filter(pk=key).first()
    if found is None:
        raise InputError(f"{what}: choose one from the list.", field=name)
    return found
