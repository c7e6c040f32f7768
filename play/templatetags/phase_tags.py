"""The phase line on pages that do not come from the phase views, and the phase page's
words."""

from django import template
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext

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


@register.filter
def either(names) -> str:
    """Entanglements the roll offers (the rules' English names), as a reader reads the
    choice: "Rivals or Unquiet Dead"."""
    words = [gettext(name) for name in names]
    if len(words) < 2:
        return "".join(words)
    return gettext("%(some)s or %(last)s") % {"some": ", ".join(words[:-1]), "last": words[-1]}


@register.filter
def way_out(choice) -> str:
    """A way out of an entanglement (blades.rules.score.Choice) in the reader's language."""
    return str(choice.label)
