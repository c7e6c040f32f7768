from django import template

from ..forms import ClockForm
from ..models import Clock

register = template.Library()


@register.simple_tag
def clock_edit_form(clock, clocks=None) -> ClockForm:
    """`clocks`: the page's clock list (the GM's views, each with its clock); a pushed
    clock alone asks for its table's."""
    clocks = (
        [view.model for view in clocks] if clocks else Clock.objects.filter(table_id=clock.table_id)
    )
    return ClockForm(
        prefix=f"clock-{clock.pk}",
        clocks=clocks,
        clock=clock,
        initial={
            "name": clock.name,
            "segments": clock.segments,
            "kind": clock.kind,
            "visibility": clock.visibility,
            "players_tick": clock.players_tick,
            "unlocks": clock.unlocks_id,
            "rival": clock.rival_id,
        },
    )
