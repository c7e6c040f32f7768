from django import template

from .. import access
from ..queries import party, party_view

register = template.Library()
# What the member may start from the party card: the views' own questions.
register.filter("can_import_character", access.can_import_character)
register.filter("can_make_playbook", access.can_make_playbook)


@register.simple_tag
def table_party(table_id: int) -> list:
    """The table's active characters with their at-a-glance figures, for the Party section
    of the table page and of the socket's catch-up snapshot (characters/live.py)."""
    return [(character, party_view(character)) for character in party(table_id)]


@register.simple_tag
def my_character(party: list, user):
    """The member's own character among `party` (table_party's list): the card has the
    party at hand, and asking the database again cost the page two queries."""
    return next((character for character, _ in party if character.owner_id == user.pk), None)
