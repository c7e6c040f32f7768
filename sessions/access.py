"""One question per helper: who may see or change what at a table.

Every table-scoped view goes through `access_table`, so a non-member gets a 404 for
everything of a table and never learns whether it exists.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404

from .inputs import ID_MAX
from .models import Clock, Membership, Table


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
        raise PermissionDenied("Only the GM can do that.")


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


def clocks_for(membership: Membership):
    """The clocks a member may name in a request: the table's, less the GM-only ones for a
    player. Every clock id in a POST is looked up here, never by table alone."""
    clocks = Clock.objects.filter(table_id=membership.table_id)
    return clocks if membership.is_gm else clocks.exclude(visibility=Clock.Visibility.GM)
