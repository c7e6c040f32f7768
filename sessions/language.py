"""The table's language: what the whole table shares (the shared screen and its overlays,
the journal and its export, Discord posts) is drawn in the language the GM sets, whoever
opens it, while each person's own pages stay in their own language. The GM sets it with
a step of the table (sessions.table_steps.SetLanguage)."""

from django.http import HttpResponse
from django.utils import translation

from .models import Table


def table_language(table: Table) -> translation.override:
    """Draw what the table shares in its language: `with table_language(table): render(...)`."""
    return translation.override(table.language)


def said_in_table_language(table: Table, response: HttpResponse) -> HttpResponse:
    """A response drawn in the table's language says so (`Content-Language`), as its
    `<html lang>` does: otherwise the reader's language, which LocaleMiddleware would
    name, is said of a page in another."""
    response["Content-Language"] = table.language
    return response
