"""Who may change what on the crew sheet and the faction ladder.

How a Blades group shares the sheet: the crew belongs to the players, so by default they
write its identity (name, reputation, lair, hunting grounds, notes), spend its advances
on special abilities and upgrades, and look after their cohorts. The books the GM runs
through the phases (tier, hold, rep, claims, heat, wanted level, coin and crew xp) are
the GM's by default, because payoff, heat and entanglements set them. A GM can change
either default on the sheet: `players_edit_sheet` (on by default) and
`players_keep_books` (off by default). The GM can always do everything. Factions are the
GM's alone; players only see what is not hidden.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from sessions.access import access_table, require_gm
from sessions.models import Membership, Table

from .models import Crew, Faction


# These take the audience (GM or player) rather than a user: every player at a table
# has the same rights on its crew, so one render serves all of them.
def can_edit_sheet(is_gm: bool, crew: Crew) -> bool:
    return is_gm or crew.players_edit_sheet


def can_keep_books(is_gm: bool, crew: Crew) -> bool:
    return is_gm or crew.players_keep_books


def require_sheet(membership: Membership, crew: Crew) -> None:
    if not can_edit_sheet(membership.is_gm, crew):
        raise PermissionDenied("The GM keeps the crew sheet at this table.")


def require_books(membership: Membership, crew: Crew) -> None:
    if not can_keep_books(membership.is_gm, crew):
        raise PermissionDenied("The GM keeps the crew's books at this table.")


def access_crew(user, table_id: int) -> tuple[Table, Membership, Crew]:
    """The table's crew for one of its members; 404 for everyone else, or if there is none."""
    table, membership = access_table(user, table_id)
    crew = Crew.objects.filter(table=table).first()
    if crew is None:
        raise Http404
    crew.table = table  # the sheet asks the table for factions; spare a query
    return table, membership, crew


def access_faction(user, table_id: int, faction_id: int) -> tuple[Table, Membership, Faction]:
    """Only the GM changes factions (players get 403 before learning whether it exists)."""
    table, membership = access_table(user, table_id)
    require_gm(membership)
    return table, membership, get_object_or_404(Faction, pk=faction_id, table=table)
