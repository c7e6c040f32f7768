"""One question per helper: who may see or change a character."""

from django.http import Http404
from django.utils.translation import gettext

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


def can_make_playbook(membership: Membership) -> bool:
    """A custom playbook is the GM's to make for the table."""
    return membership.is_gm


def can_import_character(membership: Membership) -> bool:
    """Players import their own characters from Foundry; the GM has no seat to fill."""
    return not membership.is_gm


# The sheet's steps, by the name the URL gives them, that are the GM's alone: trauma by
# hand, beyond what stress gives, is the GM's call, and so is a character's death (the
# state step setting "dead", asked about as MARK_DEAD); the GM's notes are the GM's own.
# Expertise's action is chosen once; choosing it again (a slip of the hand) is the GM's,
# asked about as EXPERTISE_AGAIN.
MARK_DEAD = "mark-dead"
EXPERTISE_AGAIN = "expertise-again"
GM_SHEET_STEPS = frozenset({"trauma-mark", "trauma-clear", MARK_DEAD, EXPERTISE_AGAIN, "gm-note"})


def can_take_sheet_step(membership: Membership, character: Character, step: str) -> bool:
    """Who may take the sheet step `step`: the page draws its control for them, and the
    step's view lets them through. The GM's own steps only the GM; the rest the
    character's player and the GM."""
    if step in GM_SHEET_STEPS:
        return membership.is_gm and membership.table_id == character.table_id
    return can_edit_character(membership, character)


def sheet_step_refusal(step: str) -> str:
    """What a member `can_take_sheet_step` refuses is told."""
    if step in GM_SHEET_STEPS:
        return gettext("Only the GM can do that.")
    return gettext("Only the character's player and the GM can change this sheet.")
