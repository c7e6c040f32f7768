"""One way to read a value from a POST that no form class covers: through a Django form
field with its bounds, never a bare `int(request.POST[...])`.

A value that does not parse (not a number, a fraction, past its bounds, too long, a NUL
byte, an id that is not among the ones the member may name) raises `InputError`, a
`RuleError` whose message names the field (and whose `field` is its name), before any
action runs: the refusal path answers 422 with the message beside the control, and
nothing has changed.

Text that comes from a file (a JSON upload) passes one check before any of it is read,
`unstorable_text`: a form field cannot refuse what JSON's escapes put inside a file.
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

# Text a file can carry that a page cannot be encoded with (a lone surrogate, which JSON's
# `\ud800` escape makes) or that no PostgreSQL text column holds (NUL, `\u0000`). A form's
# own fields already refuse NUL, and a browser's UTF-8 cannot carry a surrogate: only
# parsed files bring these.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
PATH_SHOWN = 120

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


def _shown(text: str) -> str:
    return UNSTORABLE.sub(lambda found: f"\\u{ord(found.group()):04x}", text[:40])


def _unstorable(path: str, text: str, what: str) -> str:
    bad = UNSTORABLE.search(text).group()
    kind = "a NUL character" if bad == "\x00" else "a lone surrogate"
    shown = path if len(path) <= PATH_SHOWN else "…" + path[-PATH_SHOWN:]
    where = f"`{shown}` in the file" if shown else "The file"
    return f"{where} {what} {kind} ({_shown(bad)}), which cannot be saved as text."


def unstorable_text(document, *, limit: int = 10) -> list[str]:
    """The one check of text that comes from a file, run on the parsed JSON before any of
    it is read: each string (keys too) holding what no column can store, named by its
    path in the file (`items[3].name`). At most `limit` problems; none when it is clean."""
    problems: list[str] = []
    # A stack, not recursion: a file nests as deep as the JSON parser allowed.
    stack = [("", document)]
    while stack and len(problems) < limit:
        path, value = stack.pop()
        if isinstance(value, str):
            if UNSTORABLE.search(value):
                problems.append(_unstorable(path, value, "holds"))
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                inner = f"{path}.{_shown(key)}" if path else _shown(key)
                if UNSTORABLE.search(key):
                    problems.append(_unstorable(inner, key, "is named with"))
                stack.append((inner, item))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", item) for i, item in reversed(list(enumerate(value))))
    return problems[:limit]
