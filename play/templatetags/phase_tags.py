"""The phase line on pages that do not come from the phase views."""

from django import template
from django.utils.functional import SimpleLazyObject

from play.models import Phase

register = template.Library()


@register.simple_tag
def table_phase(table_id: int) -> Phase:
    """The table's phase (free play until a GM starts something); never written here."""
    return Phase.objects.select_related("score__target_faction").filter(
        table_id=table_id
    ).first() or Phase(table_id=table_id)


def screen_context(table_id: int) -> dict:
    """The shared screen's phase line (crews/screen.py), read if a part drawn shows it
    (an overlay does not)."""
    return {"phase": SimpleLazyObject(lambda: table_phase(table_id))}
