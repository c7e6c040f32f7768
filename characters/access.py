"""One question per helper: who may see or change a character."""

from django.http import Http404

from sessions.access import access_table
from sessions.models import Membership, Table

from .models import Character


def mastery_for(table: Table) -> bool:
    """Whether the table's crew has Mastery (action ratings may reach 4).

    The crews app owns `Crew`; it is read through the reverse one-to-one `table.crew`
    without importing it, so characters work whether or not a crew exists.
    """
    crew = getattr(table, "crew", None)
    return bool(getattr(crew, "has_mastery", False))


def access_character(user, table_id: int, character_id: int) -> tuple[Membership, Character]:
    """A member of the table may look at any of its characters; others get a 404."""
    table, membership = access_table(user, table_id)
    character = (
        Character.objects.select_related("table", "owner", "playbook", "heritage", "background")
        .select_related("vice")
        .filter(pk=character_id, table=table)
        .first()
    )
    if character is None:
        raise Http404
    return membership, character


def can_edit_character(membership: Membership, character: Character) -> bool:
    """The owner and the table's GM; everyone else at the table reads only."""
    if membership.table_id != character.table_id:
        return False
    return membership.is_gm or character.owner_id == membership.user_id


def can_see_gm_notes(membership: Membership) -> bool:
    return membership.is_gm
