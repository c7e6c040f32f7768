"""Names of things the GM can hide, for the audience of the template (sessions.audience).

The audience is the drawing's, asked here in Python: a template never reads `is_gm`
(tests/test_template_audience.py). A context without `is_gm` draws for players (the
shared screen's)."""

from django import template

from sessions import access, audience

register = template.Library()


def _for_gm(context) -> bool:
    return bool(context.get("is_gm"))


@register.simple_tag(takes_context=True)
def for_audience(context, text) -> str:
    """A stored line with its references named for this audience."""
    return audience.fill(text, is_gm=_for_gm(context))


@register.simple_tag(takes_context=True)
def clock_name(context, clock) -> str:
    return audience.name(clock, is_gm=_for_gm(context))


@register.filter
def menu_label(thing) -> str:
    return audience.menu_label(thing)


@register.simple_tag(takes_context=True)
def score_target(context, score) -> str:
    return audience.target(
        faction=score.target_faction, named=score.target_name, is_gm=_for_gm(context)
    )


@register.simple_tag(takes_context=True)
def roll_shown(context, roll) -> bool:
    """Whether this audience sees the roll (a secret roll is the GM's)."""
    return access.can_see_roll(_for_gm(context), roll)
