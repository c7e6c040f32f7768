"""Names of things the GM can hide, for the audience of the template (sessions.audience).

A template without `is_gm` in its context renders for players."""

from django import template

from sessions import audience

register = template.Library()


@register.filter
def for_audience(text: str, is_gm) -> str:
    """A stored line with its references named for this audience."""
    return audience.fill(text, is_gm=bool(is_gm))


@register.filter
def clock_name(clock, is_gm) -> str:
    return audience.name(clock, is_gm=bool(is_gm))


@register.filter
def menu_label(thing) -> str:
    return audience.menu_label(thing)


@register.filter
def score_target(score, is_gm) -> str:
    return audience.target(faction=score.target_faction, named=score.target_name, is_gm=bool(is_gm))
