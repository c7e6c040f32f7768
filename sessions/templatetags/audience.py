"""Names of things the GM can hide, for the audience of the template (sessions.audience).

A template without `is_gm` in its context renders for players."""

from dataclasses import dataclass

from django import template

from sessions import access, audience

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


@dataclass(frozen=True)
class ClockPowers:
    progress: bool  # its ticks and whether it is full
    tick: bool
    edit: bool
    mine: bool  # the viewer's own clock


@register.simple_tag(takes_context=True)
def clock_powers(context, clock) -> ClockPowers:
    """What the one drawing this clock is for may see and do with it (sessions.access).
    `viewer` (a Membership) draws for one member; without it, `is_gm` says GM or the
    players at large."""
    viewer = context.get("viewer") or (access.GM if context.get("is_gm") else access.PUBLIC)
    return ClockPowers(
        progress=access.can_see_progress(viewer, clock),
        tick=access.can_tick_clock(viewer, clock),
        edit=access.can_edit_clock(viewer, clock),
        mine=not viewer.is_gm and clock.owner_id is not None and clock.owner_id == viewer.user_id,
    )


@register.filter
def progress_shown(clock, is_gm) -> bool:
    """A linked clock named on another's face: whether "(full)" may be said of it."""
    return access.can_see_progress(access.GM if is_gm else access.PUBLIC, clock)
