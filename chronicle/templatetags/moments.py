"""A moment of the journal, for the reader's clock.

The server does not know the reader's time zone, the browser does: the page writes the
moment in UTC, saying so (what a reader without JavaScript keeps), with the instant in
`datetime`, and static/js/local-time.js rewrites it in the reader's zone.
"""

from datetime import UTC

from django import template
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext

register = template.Library()

FORMATS = {"datetime": "DATETIME_FORMAT", "time": "TIME_FORMAT"}


@register.simple_tag
def moment(value, style: str = "datetime") -> str:
    """`style`: "datetime", or "time" for a moment whose day is said beside it."""
    utc = value.astimezone(UTC)
    text = gettext("%(when)s UTC") % {"when": date_format(utc, FORMATS[style])}
    # The attribute is for the script, in ISO 8601 whatever the reader's language.
    return format_html(
        '<time datetime="{}" data-local="{}">{}</time>', utc.isoformat(), style, text
    )
