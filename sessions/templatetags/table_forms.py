from django import template

from ..forms import ClockForm

register = template.Library()


@register.simple_tag
def clock_edit_form(clock) -> ClockForm:
    return ClockForm(
        prefix=f"clock-{clock.pk}",
        initial={
            "name": clock.name,
            "segments": clock.segments,
            "kind": clock.kind,
            "visibility": clock.visibility,
        },
    )
