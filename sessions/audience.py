"""The one place that decides how a thing the GM can hide is named to each audience.

The GM may hide a clock or a faction and still use it in a step everyone watches (tick a
GM-only clock as a roll's complication, start a score against a hidden faction). What
players receive then names it only as "a hidden clock" or "a target the GM keeps hidden".

Logs never store such a name: a line that names a clock or a faction stores a reference,
`{clock:12}` or `{faction:3}`, and each rendering fills it in for its audience from the
object as it is now. Revealing the clock later shows its name in every old line; hiding
it again hides it; deleting it leaves "a clock since deleted". A rendering that does not
say it is for the GM (`is_gm` missing from a template's context, as on the shared-screen
link) is for players.

Kinds of things register here (`register`): clocks below, factions from crews, so this
base layer names them without importing the floors above it.
"""

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext, gettext_noop

from .models import Clock


@dataclass(frozen=True)
class Kind:
    model: type[models.Model]
    # Marked with gettext_noop where they are made, read in the reader's language here.
    hidden: str  # what players read instead of the name
    gone: str  # the object was deleted since the line was written


KINDS: dict[str, Kind] = {}


def register(key: str, kind: Kind) -> None:
    KINDS[key] = kind


register(
    "clock",
    Kind(Clock, hidden=gettext_noop("a hidden clock"), gone=gettext_noop("a clock since deleted")),
)

HIDDEN_TARGET = gettext_noop("a target the GM keeps hidden")
GONE_TARGET = gettext_noop("a target since deleted")
# How the GM's menus mark a choice players will see only as "a hidden ...".
HIDDEN_MARK = gettext_noop("(hidden from players)")

REFERENCE = re.compile(r"\{([a-z]+):(\d+)\}")


def ref(key: str, thing: models.Model) -> str:
    """What a log line stores in place of the thing's name."""
    if key not in KINDS or not isinstance(thing, KINDS[key].model):
        raise ValueError(f"{thing!r} is not a {key}")
    return f"{{{key}:{thing.pk}}}"


def name(thing, *, is_gm: bool, key: str = "clock") -> str:
    """The name of one thing for this audience (None: deleted)."""
    kind = KINDS[key]
    if thing is None:
        return gettext(kind.gone)
    if thing.hidden and not is_gm:
        return gettext(kind.hidden)
    return thing.name


def menu_label(thing) -> str:
    """A choice in the GM's menus, marked when players will not see its name."""
    return f"{thing.name} {gettext(HIDDEN_MARK)}" if thing.hidden else thing.name


def target(*, faction, named: str, is_gm: bool) -> str:
    """A score's target: the faction it was started against, or a name typed by hand."""
    if faction is None:
        return named or gettext(GONE_TARGET)
    if faction.hidden and not is_gm:
        return gettext(HIDDEN_TARGET)
    return faction.name


def _lookup(texts: Iterable[str]) -> dict[tuple[str, int], models.Model | None]:
    wanted: dict[str, set[int]] = defaultdict(set)
    for text in texts:
        for key, pk in REFERENCE.findall(text or ""):
            if key in KINDS:
                wanted[key].add(int(pk))
    found = {}
    for key, pks in wanted.items():
        objects = KINDS[key].model.objects.in_bulk(pks)
        found.update({(key, pk): objects.get(pk) for pk in pks})
    return found


def fill_all(texts: list, *, is_gm: bool, legacy: Iterable = ()) -> list[str]:
    """Each text (or stored words, read in the active language) with its references named
    for this audience, in one query per kind.

    `legacy`: clocks a line written before references may name outright; for players,
    the names of those now hidden are taken out of such old lines.
    """
    texts = [str(text) if text else "" for text in texts]
    found = _lookup(texts)

    def named(match: re.Match) -> str:
        key, pk = match.group(1), int(match.group(2))
        if key not in KINDS:
            return match.group(0)
        return name(found[(key, pk)], is_gm=is_gm, key=key)

    hidden_names = [] if is_gm else [c.name for c in legacy if c is not None and c.hidden]
    filled = []
    for text in texts:
        text = REFERENCE.sub(named, text)
        for old in hidden_names:
            text = text.replace(old, gettext(KINDS["clock"].hidden))
        filled.append(text)
    return filled


def fill(text, *, is_gm: bool) -> str:
    text = str(text) if text else ""
    return fill_all([text], is_gm=is_gm)[0] if "{" in text else text
