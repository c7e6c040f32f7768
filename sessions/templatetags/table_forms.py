from django import template

from ..forms import ClockForm, OwnClockForm
from ..models import Clock

register = template.Library()


@register.simple_tag
def clock_edit_form(view, clocks=None) -> ClockForm | OwnClockForm:
    """`view`: a clock its viewer may edit (sessions.audience.ClockView, its model at
    hand): the player's own, or any for the GM. `clocks`: the page's clock list (the
    GM's views, each with its clock); a pushed clock alone asks for its table's."""
    clock = view.model
    if view.can.mine:
        return OwnClockForm(clock=clock)
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
