"""Drawing helpers for the crew sheet's tracks. Pure drawing: no game rules here."""

from django import template

from characters.queries import track
from crews.models import shown_content

register = template.Library()

ROMAN = ("0", "I", "II", "III", "IV", "V")


@register.filter
def boxes(filled: int, total: int) -> list[bool]:
    """A track of `total` boxes, the first `filled` of them marked."""
    return [index < filled for index in range(int(total))]


@register.filter
def taps(marked: int, length: int):
    """The boxes of a book kept by tapping, as on the PC sheet: each posts the amount
    that brings the track to it (the count changes atomically, by an amount)."""
    return track(int(marked), int(length), change=True)


@register.filter
def sets(marked: int, length: int):
    """The boxes of a track the GM sets to a value (the wanted level)."""
    return track(int(marked), int(length))


@register.filter
def roman(tier: int) -> str:
    return ROMAN[int(tier)]


@register.simple_tag
def quality(cohort, crew) -> int:
    return cohort.quality(crew)


@register.simple_tag
def elite(cohort, crew) -> str:
    """The name, as the reader reads it, of the Elite upgrade that adds a die to this
    cohort's rolls, or ""."""
    key = cohort.elite(crew)
    names = {u["key"]: u["name"] for u in shown_content("crew_upgrades")}
    return names.get(key, "") if key else ""


@register.simple_tag
def scale(cohort, crew) -> str:
    return cohort.scale(crew)


@register.simple_tag
def faction_edit_form(faction, bound_forms=None):
    """The faction's edit form: the one just posted (with its errors) or a fresh one."""
    from crews.forms import FactionForm

    if bound_forms and faction.pk in bound_forms:
        return bound_forms[faction.pk]
    fields = ("name", "tier", "hold", "status", "notes", "hidden", "notes_hidden")
    return FactionForm(
        prefix=f"faction-{faction.pk}", initial={f: getattr(faction, f) for f in fields}
    )


@register.simple_tag
def goal_clock_form(faction, bound_forms=None):
    from crews.forms import GoalClockForm

    if bound_forms and faction.pk in bound_forms:
        return bound_forms[faction.pk]
    return GoalClockForm(prefix=f"goal-{faction.pk}")
