"""Words read in their reader's language: a refusal, a line of the roll log.

A sentence is kept as its English message (marked for the catalog) and its params, and
translated only when it is read, so that the Spanish player and the English GM each read
the same stored line of the log in their own language. The rules know no Django: the
Django layer installs its `gettext` and `ngettext` here at start-up (`install`).

A message is a %-format whose numbers and names are its params. A param is the players'
own words (a name, a goal: shown as typed), a number, a `Term` (a marked word of the rules,
translated), a `Named` (a name from the game's content, read in the content's
translation), or `Words` and `Joined` themselves. `to_data` and `from_data` turn all of it
into JSON and back, so a line can be stored and read in another language later."""

import json
import logging
import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

logger = logging.getLogger(__name__)


def _(message: str) -> str:
    """Marks `message` for the catalog (`_` is one of xgettext's default keywords, so
    `makemessages` finds it here); it is translated when it is read."""
    return message


class Term(str):
    """A param that is itself a marked word of the rules ("Stress", "Tier"): read in the
    reader's language too, like `Words`, whenever it is made a string (a note that is a
    word by itself, "Questioning"). Other params (a character's name, a harm's
    description) are the players' words and stay as written."""

    @property
    def english(self) -> str:
        return str.__str__(self)

    def __str__(self) -> str:
        return str.__str__(_read(self))

    def __repr__(self) -> str:
        return f"Term({self.english!r})"


class Named(str):
    """A param that is a name from the game's content (a vice, a claim, a gang type; `of`
    says which list, blades.content.NAMED), kept in English and read from the content's
    translation: the content is translated in its own files, not in the catalog. A name
    the list does not hold (a claim the GM named) reads as written."""

    def __new__(cls, name: str, of: str) -> "Named":
        named = super().__new__(cls, name)
        named.of = of
        return named

    @property
    def english(self) -> str:
        return str.__str__(self)

    def __str__(self) -> str:
        return _read(self)

    def __getnewargs__(self) -> tuple[str, str]:
        # A copy or a pickle keeps which list the name is from.
        return self.english, self.of

    def __repr__(self) -> str:
        return f"Named({self.english!r}, of={self.of!r})"


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


def _english_name(of: str, name: str) -> str:
    return name


_translate: Callable[[str], str] = _english
_translate_plural: Callable[[str, str, int], str] = _english_plural
_name: Callable[[str, str], str] = _english_name


def install(
    gettext: Callable[[str], str],
    ngettext: Callable[[str, str, int], str],
    name: Callable[[str, str], str],
) -> None:
    """Every message read from now on is read in what these answer (the active
    language, for Django's); `name(of, english)` reads a `Named`."""
    global _translate, _translate_plural, _name
    _translate, _translate_plural, _name = gettext, ngettext, name


def render(message: str | Plural, params: dict) -> str:
    if isinstance(message, Plural):
        text = _translate_plural(*message)
    else:
        text = _translate(message) if message else ""
    if not params:
        return text
    values = {name: _read(value) for name, value in params.items()}
    try:
        return text % values
    except (KeyError, TypeError, ValueError):
        # A translation its params do not fill: the English it translates, and a log line.
        logger.warning("A translation of %r is not filled by %r", message, params)
        english = message if isinstance(message, str) else _english_plural(*message)
        return english % values


def _read(value):
    if isinstance(value, Named):
        return _name(value.of, value.english)
    if isinstance(value, Term):
        # gettext("") is the catalog's header, not an empty word.
        return _translate(value) if value else ""
    if isinstance(value, Words | Joined):
        return str(value)
    return value


class Words:
    """One sentence, read in the active language each time it is made a string."""

    __slots__ = ("message", "params")

    def __init__(self, message: str | Plural, /, **params) -> None:
        self.message = message
        self.params = params

    def __str__(self) -> str:
        return render(self.message, self.params)

    def __repr__(self) -> str:
        return f"Words({self.message!r}, **{self.params!r})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Words):
            return NotImplemented
        return (self.message, self.params) == (other.message, other.params)

    __hash__ = None


class Joined:
    """Several parts in a row ("Harm 2 to Nyx; Heat +2"), their separator read too."""

    __slots__ = ("separator", "parts")

    def __init__(self, separator: str, parts: Iterable) -> None:
        self.separator = separator
        self.parts = list(parts)

    def __str__(self) -> str:
        return str(_read(self.separator)).join(str(_read(part)) for part in self.parts)

    def __repr__(self) -> str:
        return f"Joined({self.separator!r}, {self.parts!r})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Joined):
            return NotImplemented
        return (self.separator, self.parts) == (other.separator, other.parts)

    __hash__ = None

    def __bool__(self) -> bool:
        return bool(self.parts)


_FORMAT = re.compile(r"%%|%\(\w+\)[sd]")

# --- Stored as JSON -----------------------------------------------------------------------
# {"term": "Stress"}, {"name": "Faith", "of": "vices"}, {"words": "…", "with": {…}} (a
# plural's message is its three parts), {"join": separator, "parts": […]}; the players'
# words and numbers as themselves.


def to_data(value):
    if isinstance(value, Named):
        return {"name": value.english, "of": value.of}
    if isinstance(value, Term):
        return {"term": value.english}
    if isinstance(value, Words):
        message = list(value.message) if isinstance(value.message, Plural) else value.message
        data = {"words": message}
        if value.params:
            data["with"] = {name: to_data(param) for name, param in value.params.items()}
        return data
    if isinstance(value, Joined):
        return {"join": to_data(value.separator), "parts": [to_data(p) for p in value.parts]}
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise TypeError(f"{type(value).__name__} is not words")


def from_data(data):
    """The words `to_data` wrote; a ValueError for anything else (a file may hold
    anything), including a message its params do not fill."""
    if isinstance(data, str) or (isinstance(data, int) and not isinstance(data, bool)):
        return data
    if not isinstance(data, dict):
        raise ValueError("not words")
    if data.keys() == {"term"} and isinstance(data["term"], str):
        return Term(data["term"])
    if data.keys() == {"name", "of"} and all(isinstance(v, str) for v in data.values()):
        return Named(data["name"], of=data["of"])
    if data.keys() == {"join", "parts"} and isinstance(data["parts"], list):
        return Joined(from_data(data["join"]), [from_data(p) for p in data["parts"]])
    if "words" in data and data.keys() <= {"words", "with"}:
        words = Words(_message(data["words"]), **_params(data.get("with", {})))
        forms = [words.message] if isinstance(words.message, str) else words.message[:2]
        # Only named params, and no widths: "%(a)999999999s" would fill the memory. A
        # message without params is read as written.
        if words.params and any(_FORMAT.sub("", form).count("%") for form in forms):
            raise ValueError("its message is no plain %-format")
        try:
            str(words)
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"its params do not fill its message ({error!r})") from None
        return words
    raise ValueError("not words")


def _message(data) -> str | Plural:
    if isinstance(data, str):
        return data
    if (
        isinstance(data, list)
        and len(data) == 3
        and all(isinstance(part, str) for part in data[:2])
        and isinstance(data[2], int)
        and not isinstance(data[2], bool)
    ):
        return Plural(*data)
    raise ValueError("its message is not words")


def _params(data) -> dict:
    if not (isinstance(data, dict) and all(isinstance(name, str) for name in data)):
        raise ValueError("its params are not named")
    return {name: from_data(value) for name, value in data.items()}


def as_written(data) -> str:
    """A stored line `from_data` cannot read (its message reworded since, a param that no
    longer fills it) as it was written: its English message, filled in where its params
    fill it, else as it stands. Never raises: one old line must not break a page."""
    if isinstance(data, str | int) and not isinstance(data, bool):
        return str(data)
    if not isinstance(data, dict):
        return json.dumps(data)
    if isinstance(data.get("term"), str):
        return data["term"]
    if isinstance(data.get("name"), str) and "of" in data:
        return data["name"]
    if isinstance(data.get("parts"), list):
        return as_written(data.get("join", "")).join(as_written(p) for p in data["parts"])
    message = data.get("words")
    if isinstance(message, list) and len(message) == 3:
        message = message[0] if message[2] == 1 else message[1]
    if not isinstance(message, str):
        return json.dumps(data)
    params = data.get("with")
    if not isinstance(params, dict) or _FORMAT.sub("", message).count("%"):
        return message
    try:
        return message % {name: as_written(value) for name, value in params.items()}
    except (KeyError, TypeError, ValueError):
        return message


class Encoder(json.JSONEncoder):
    """Writes words as `to_data` says: a `Term` is a str, so json would write it as the
    players' words before any `default` is asked."""

    def encode(self, o) -> str:
        return super().encode(to_data(o))


class Decoder(json.JSONDecoder):
    def decode(self, s, *args, **kwargs):
        return from_data(super().decode(s, *args, **kwargs))
