"""One question per helper: who may see or change what at a table.

Every table-scoped view goes through `access_table`, so a non-member gets a 404 for
everything of a table and never learns whether it exists.
"""

import re
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext

from .models import Clock, Membership, Table
from .steps import ID_MAX


def access_table(user, table_id: int) -> tuple[Table, Membership]:
    # An id past any column's range is no table (and SQLite cannot even be asked).
    if not user.is_authenticated or not 0 < table_id <= ID_MAX:
        raise Http404
    membership = (
        Membership.objects.select_related("table").filter(table_id=table_id, user=user).first()
    )
    if membership is None:
        raise Http404
    return membership.table, membership


def require_gm(membership: Membership) -> None:
    if not membership.is_gm:
        raise PermissionDenied(gettext("Only the GM can do that."))


def can_keep_table(viewer) -> bool:
    """The invite link, who sits at the table, the language it shares: the GM's.
    `viewer`: a Membership or an Audience."""
    return viewer.is_gm


def can_see_roll(is_gm: bool, roll) -> bool:
    """A line of the roll log: a secret roll is the GM's alone (the log's queries ask the
    same, as a filter: sessions.queries.recent_rolls)."""
    return is_gm or not roll.secret


# (table id, user id) pairs in one query: well inside SQLite's limit on variables.
PAIRS_AT_ONCE = 250


def memberships(places: set[tuple[int, int]]) -> dict[tuple[int, int], Membership]:
    """For sockets, many at once: the memberships among these (table id, user id) pairs."""
    found: dict[tuple[int, int], Membership] = {}
    pairs = sorted(places)
    for start in range(0, len(pairs), PAIRS_AT_ONCE):
        chunk = pairs[start : start + PAIRS_AT_ONCE]
        rows = Membership.objects.filter(
            table_id__in={table_id for table_id, _ in chunk},
            user_id__in={user_id for _, user_id in chunk},
        )
        found.update((key, row) for row in rows if (key := (row.table_id, row.user_id)) in places)
    return found


# --- Clocks: who sees, sees the ticks of, ticks and edits which --------------------------
#
# Each question is answered twice, side by side: for one clock in hand (the page, the
# guard) and as a filter (lists, the UPDATE a tick races in). tests/sessions/test_clock_access
# asks both over every kind of clock and holds them equal.


@dataclass(frozen=True)
class Audience:
    """Who a clock is drawn for when no membership is at hand: the GM, the players at
    large (a push to their group), who own nothing, or the shared screen, which shows
    what the players see and is read-only for everyone in the room."""

    is_gm: bool
    user_id: int | None = None
    acts: bool = True  # as Membership.acts


GM = Audience(is_gm=True)
PUBLIC = Audience(is_gm=False)
SCREEN = Audience(is_gm=False, acts=False)

_PUBLIC = (Clock.Visibility.EVERYONE, Clock.Visibility.KNOWN)


def can_see_clock(viewer, clock: Clock) -> bool:
    """`viewer`: a Membership or an Audience. A player sees the clocks shown to everyone and
    their own private ones."""
    if viewer.is_gm:
        return True
    return clock.visibility in _PUBLIC or (
        clock.visibility == Clock.Visibility.OWNER
        and clock.owner_id is not None
        and clock.owner_id == viewer.user_id
    )


def clocks_seen(viewer) -> Q:
    if viewer.is_gm:
        return Q()
    mine = Q(visibility=Clock.Visibility.OWNER, owner_id=viewer.user_id)
    return Q(visibility__in=_PUBLIC) | (mine if viewer.user_id is not None else Q(pk__in=[]))


def can_see_progress(viewer, clock: Clock) -> bool:
    """Its ticks (and whether it is full): not a "known, progress hidden" clock's."""
    return can_see_clock(viewer, clock) and (
        viewer.is_gm or clock.visibility != Clock.Visibility.KNOWN
    )


def can_tick_clock(viewer, clock: Clock) -> bool:
    """The GM any clock; a player their own, and those the GM lets players tick; the
    screen none."""
    if not viewer.acts:
        return False
    if can_edit_clock(viewer, clock):
        return True
    return clock.players_may_tick and can_see_progress(viewer, clock)


def clocks_tickable(viewer) -> Q:
    if not viewer.acts:
        return Q(pk__in=[])
    if viewer.is_gm:
        return Q()
    shown = Q(visibility=Clock.Visibility.EVERYONE)
    theirs = Q(owner_id=viewer.user_id) if viewer.user_id is not None else Q(pk__in=[])
    return (
        clocks_seen(viewer)
        & ~Q(visibility=Clock.Visibility.KNOWN)
        & ~Q(kind=Clock.Kind.FACTION)
        & ((shown & Q(players_tick=True)) | theirs)
    )


def can_edit_clock(viewer, clock: Clock) -> bool:
    """Untick, edit, hide, delete: the GM's, over every clock; a player's, over her own
    while she sees its ticks and it is no faction's (the GM may take it out of her hands)."""
    if viewer.is_gm:
        return True
    return (
        clock.owner_id is not None
        and clock.owner_id == viewer.user_id
        and can_see_progress(viewer, clock)
        and clock.kind != Clock.Kind.FACTION
    )


def clocks_for(membership: Membership):
    """The clocks a member may name in a request. Every clock id in a POST is looked up
    here, never by table alone."""
    return Clock.objects.filter(clocks_seen(membership), table_id=membership.table_id)


# What `secrets.token_urlsafe` makes: anything else in a link is no token.
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_token(value: str) -> bool:
    """Whether a link's token could be one of ours (PostgreSQL cannot even compare a NUL)."""
    return TOKEN.fullmatch(value) is not None
