"""Who may do what to a shared roll: one helper per question.

The actions in actions.py call these, so a permission holds whichever view (or test)
calls the action. A roll at another table is a 404, like everything of a table.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404

from characters.models import Character
from sessions.access import access_table
from sessions.models import Membership

from .models import ActionRoll, Consequence


def access_roll(user, table_id: int, roll_id: int) -> tuple[Membership, ActionRoll]:
    """A member of the table reaches its rolls; a player never reaches a secret one."""
    table, membership = access_table(user, table_id)
    roll = ActionRoll.objects.filter(pk=roll_id, table=table).first()
    if roll is None or (roll.secret and not membership.is_gm):
        raise Http404
    return membership, roll


def access_consequence(
    user, table_id: int, roll_id: int, consequence_id: int
) -> tuple[Membership, Consequence]:
    membership, roll = access_roll(user, table_id, roll_id)
    consequence = Consequence.objects.filter(pk=consequence_id, roll=roll).first()
    if consequence is None:
        raise Http404
    return membership, consequence


def own_character(membership: Membership) -> Character | None:
    """The member's active character at this table (the GM has none)."""
    if membership.is_gm:
        return None
    return Character.objects.filter(
        table_id=membership.table_id, owner_id=membership.user_id, state=Character.State.ACTIVE
    ).first()


def _deny(message: str) -> None:
    raise PermissionDenied(message)


def _same_table(membership: Membership, roll: ActionRoll) -> None:
    if membership.table_id != roll.table_id:
        raise Http404


def is_roller(membership: Membership, roll: ActionRoll) -> bool:
    return (
        membership.table_id == roll.table_id
        and roll.character is not None
        and roll.character.owner_id == membership.user_id
    )


def require_gm_of(membership: Membership, roll: ActionRoll) -> None:
    _same_table(membership, roll)
    if not membership.is_gm:
        _deny("Only the GM can do that.")


def require_gm_at(membership: Membership, table) -> None:
    if membership.table_id != table.pk:
        raise Http404
    if not membership.is_gm:
        _deny("Only the GM can do that.")


def require_roller(membership: Membership, roll: ActionRoll) -> None:
    _same_table(membership, roll)
    if not is_roller(membership, roll):
        _deny("Only the player making this roll can do that.")


def require_member(membership: Membership, roll: ActionRoll) -> None:
    _same_table(membership, roll)


def require_teammate(membership: Membership, roll: ActionRoll) -> Character:
    """Another player with a character of their own: the one who assists or joins in."""
    _same_table(membership, roll)
    character = own_character(membership)
    if character is None or (roll.character and character.pk == roll.character_id):
        _deny("Only another player's character can do that.")
    return character


def require_participant(membership: Membership, roll: ActionRoll) -> Character:
    """A player whose own character takes part in the group action: only they add bonus
    dice to, and roll, that character's share."""
    _same_table(membership, roll)
    character = own_character(membership)
    if character is None or str(character.pk) not in roll.group:
        _deny("Only a participant does that, for their own roll.")
    return character


def can_cancel(membership: Membership, roll: ActionRoll) -> bool:
    return membership.table_id == roll.table_id and (
        membership.is_gm or is_roller(membership, roll)
    )


def require_cancel(membership: Membership, roll: ActionRoll) -> None:
    _same_table(membership, roll)
    if not can_cancel(membership, roll):
        _deny("Only the GM or the player making the roll can cancel it.")


def suffers(membership: Membership, consequence: Consequence) -> bool:
    character = consequence.character
    return character is not None and character.owner_id == membership.user_id


def require_sufferer(membership: Membership, consequence: Consequence) -> None:
    _same_table(membership, consequence.roll)
    if not suffers(membership, consequence):
        _deny("Only the player whose character suffers this can resist it.")
