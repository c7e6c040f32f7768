"""One way to read a value from a POST that no form class covers: through a Django form
field with its bounds, never a bare `int(request.POST[...])`.

A value that does not parse (not a number, a fraction, past its bounds, too long, a NUL
byte, an id that is not among the ones the member may name) raises `InputError`, a
`RuleError` whose message names the field (and whose `field` is its name), before any
action runs: the refusal path answers 422 with the message beside the control, and
nothing has changed.

Being replaced by `sessions.steps` (a form per step); this goes when the last view has
moved.
"""

from typing import Any, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.utils.translation import gettext_noop

from .steps import ID_MAX, NUMBER_MAX, InputError

M = TypeVar("M", bound=Model)


def _clean(field: forms.Field, post, name: str, what: str) -> Any:
    try:
        return field.clean(post.get(name))
    except ValidationError as error:
        raise InputError(
            gettext_noop("%(what)s: %(problem)s"), field=name, what=what, problem=error.messages[0]
        ) from None


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
        raise InputError(gettext_noop("%(what)s: choose one from the list."), field=name, what=what)
    return found
