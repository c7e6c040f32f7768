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

A page or a push draws a clock from its audience's view of it (`ClockView`), never from
the model: where the audience does not see a clock's ticks the view holds none, so no
template can print them, and two views an audience cannot tell apart are equal, so a
change it cannot see sends it nothing (sessions.live).
"""

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import models
from django.utils.translation import gettext, gettext_noop

from blades.rules.words import Joined

from . import access
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
# A part of a line that tells a clock's progress: read only by an audience that sees it.
VEIL = re.compile(r"\{veil:(\d+)\}(.*?)\{/veil\}", re.DOTALL)


def ref(key: str, thing: models.Model) -> str:
    """What a log line stores in place of the thing's name."""
    if key not in KINDS or not isinstance(thing, KINDS[key].model):
        raise ValueError(f"{thing!r} is not a {key}")
    return f"{{{key}:{thing.pk}}}"


def veiled(clock: Clock, part) -> Joined:
    """`part` of a stored line, kept in it for the GM, and for players only while they
    see the clock's progress: where it stops on an undo, say, which would tell them how
    far it had run."""
    return Joined("", [f"{{veil:{clock.pk}}}", part, "{/veil}"])


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


@dataclass(frozen=True)
class Progress:
    filled: int
    full: bool


@dataclass(frozen=True)
class ClockPowers:
    """What the audience may do with the clock (sessions.access, the guards' own questions)."""

    tick: bool
    edit: bool
    mine: bool  # the viewer's own clock


@dataclass(frozen=True)
class Named:
    """A clock named on another's face: its name, or none where it is hidden from them.
    Read in the active language when drawn, so views drawn in two languages compare."""

    name: str
    hidden: bool

    def __str__(self) -> str:
        return gettext(KINDS["clock"].hidden) if self.hidden else self.name


def _named(clock: Clock | None, is_gm: bool) -> Named | None:
    if clock is None:
        return None
    hidden = clock.hidden and not is_gm
    return Named("" if hidden else clock.name, hidden)


@dataclass(frozen=True)
class ClockView:
    """One clock as one audience is shown it. `progress`: None where its ticks are not
    theirs to see. `model`: only for the GM, whose page edits it."""

    pk: int
    table_id: int
    name: str
    segments: int
    kind: str
    visibility: str
    hidden: bool
    tug_of_war: bool
    players_may_tick: bool
    owner_name: str  # "" for the GM's own
    progress: Progress | None
    can: ClockPowers
    locked_until: Named | None  # the clock still to fill before this one opens
    unlocks: Named | None
    rival: Named | None
    rival_full: bool  # said only where the rival's progress is theirs to see
    model: Clock | None = field(default=None, compare=False)

    @property
    def kind_label(self) -> str:
        return str(Clock.Kind(self.kind).label)


def clock_view(clock: Clock, viewer) -> ClockView:
    """`viewer`: a Membership or an access.Audience. The clock's links are read as
    sessions.queries.clock_faces loads them."""
    is_gm = viewer.is_gm
    rival = clock.rival
    edit = access.can_edit_clock(viewer, clock)
    return ClockView(
        pk=clock.pk,
        table_id=clock.table_id,
        name=clock.name,
        segments=clock.segments,
        kind=clock.kind,
        visibility=clock.visibility,
        hidden=clock.hidden,
        tug_of_war=clock.tug_of_war,
        players_may_tick=clock.players_may_tick,
        owner_name=clock.owner.username if clock.owner_id else "",
        progress=Progress(clock.filled, clock.full)
        if access.can_see_progress(viewer, clock)
        else None,
        can=ClockPowers(
            tick=access.can_tick_clock(viewer, clock),
            edit=edit,
            mine=not is_gm and clock.owner_id is not None and clock.owner_id == viewer.user_id,
        ),
        locked_until=_named(clock.locked_by, is_gm),
        unlocks=_named(clock.unlocks, is_gm),
        rival=_named(rival, is_gm),
        rival_full=bool(rival and rival.full and access.can_see_progress(viewer, rival)),
        model=clock if edit else None,
    )


def clock_views(clocks: Iterable[Clock], viewer) -> list[ClockView]:
    return [clock_view(clock, viewer) for clock in clocks]


def _lookup(
    texts: Iterable[str], known: dict[tuple[str, int], models.Model]
) -> dict[tuple[str, int], models.Model | None]:
    wanted: dict[str, set[int]] = defaultdict(set)
    for text in texts:
        for key, pk in REFERENCE.findall(text or ""):
            if key in KINDS:
                wanted[key].add(int(pk))
        for pk, _ in VEIL.findall(text or ""):
            wanted["clock"].add(int(pk))
    found: dict[tuple[str, int], models.Model | None] = {}
    for key, pks in wanted.items():
        missing = {pk for pk in pks if (key, pk) not in known}
        objects = KINDS[key].model.objects.in_bulk(missing) if missing else {}
        found.update({(key, pk): known.get((key, pk), objects.get(pk)) for pk in pks})
    return found


def fill_all(texts: list, *, is_gm: bool, legacy: Iterable = ()) -> list[str]:
    """Each text (or stored words, read in the active language) with its references named
    for this audience, in one query per kind.

    `legacy`: clocks a line written before references may name outright; for players,
    the names of those now hidden are taken out of such old lines. The callers have
    them in hand already, so references to them are not looked up again.
    """
    texts = [str(text) if text else "" for text in texts]
    legacy = [clock for clock in legacy if clock is not None]
    found = _lookup(texts, {("clock", clock.pk): clock for clock in legacy})

    def unveiled(match: re.Match) -> str:
        clock = found[("clock", int(match.group(1)))]
        shown = is_gm or (clock is not None and not clock.progress_hidden)
        return match.group(2) if shown else ""

    def named(match: re.Match) -> str:
        key, pk = match.group(1), int(match.group(2))
        if key not in KINDS:
            return match.group(0)
        return name(found[(key, pk)], is_gm=is_gm, key=key)

    hidden_names = [] if is_gm else [c.name for c in legacy if c.hidden]
    filled = []
    for text in texts:
        text = REFERENCE.sub(named, VEIL.sub(unveiled, text))
        for old in hidden_names:
            text = text.replace(old, gettext(KINDS["clock"].hidden))
        filled.append(text)
    return filled


def fill(text, *, is_gm: bool) -> str:
    text = str(text) if text else ""
    return fill_all([text], is_gm=is_gm)[0] if "{" in text else text
