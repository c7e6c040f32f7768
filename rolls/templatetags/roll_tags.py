"""The shared roll on pages that do not come from the roll views (the shared screen)."""

from django import template
from django.utils.functional import SimpleLazyObject

from rolls.models import ActionRoll

register = template.Library()


@register.simple_tag
def rolls_in_progress(table_id: int) -> list[ActionRoll]:
    """The open rolls everyone may see, oldest first: a secret roll is the GM's alone, and
    the shared screen is drawn as the players see it."""
    rolls = ActionRoll.objects.filter(
        table_id=table_id,
        step__in=[ActionRoll.Step.SETUP, ActionRoll.Step.CONSEQUENCES],
        secret=False,
    )
    related = ("character", "assister", "log__roller")
    return list(rolls.select_related(*related).order_by("created", "pk"))


def screen_context(table_id: int) -> dict:
    """The shared screen's rolls in progress (crews/screen.py), read if a part drawn
    shows them (an overlay of the clocks does not)."""
    return {"rolling": SimpleLazyObject(lambda: rolls_in_progress(table_id))}
