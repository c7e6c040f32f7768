"""The table's language: what the whole table shares (the shared screen and its overlays,
the journal and its export, Discord posts) is drawn in the language the GM sets, whoever
opens it, while each person's own pages stay in their own language."""

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import translation
from django.views.decorators.http import require_POST

from . import actions
from .access import access_table, require_gm
from .models import Table
from .steps import Step


def table_language(table: Table) -> translation.override:
    """Draw what the table shares in its language: `with table_language(table): render(...)`."""
    return translation.override(table.language)


class TableLanguageStep(Step):
    language = forms.ChoiceField(choices=settings.LANGUAGES)

    def execute(self) -> Table:
        return actions.set_table_language(table=self.table, language=self.cleaned_data["language"])


@login_required
@require_POST
def set_table_language(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    TableLanguageStep(request.POST, by=membership, table=table).take()
    return redirect("table_settings", table_id=table.pk)
