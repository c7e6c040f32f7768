from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from sessions.access import access_table, require_gm

from .tables import dumps, export_table


@login_required
@require_GET
def table_settings(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    return render(request, "backup/settings.html", {"table": table})


@login_required
@require_GET
def table_export(request: HttpRequest, table_id: int) -> HttpResponse:
    """The same file `manage.py export_table` writes, as a download for the GM."""
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    response = HttpResponse(dumps(export_table(table.pk)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="table-{table.pk}.json"'
    return response
