"""The table's settings (its export, the characters waiting for their players) and the
restore of an export as a new table from the web.

The restore is two posts. The upload is read and restored as a preview, rolled back,
so the GM sees exactly what the restore will make, or why it is refused. The file's
text then waits in the GM's session, not in the page: the confirm restores that text,
checked again from the start, and takes nothing from the browser but the go-ahead (and
the preview's digest, so a preview in another tab cannot be confirmed by this one). A
file carried back through the page would have to pass the request body's limit, far
below an export's, and choosing the file twice is a step the GM can get wrong.
"""

import hashlib

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from blades.rules.errors import RuleError
from sessions import steps
from sessions.access import access_table
from sessions.step_view import Room

from . import access
from .forms import RestoreForm
from .restore import ImportRefused, read_document, restore_table
from .steps import STEPS, HandOverStep, HandSeatStep
from .tables import dumps, export_table

SETTINGS = "backup/settings.html"
RESTORE = "backup/restore.html"
UPLOADED = "backup.restore"  # the session key of the previewed file


def _settings(request: HttpRequest, table, membership, bound=None, status=200) -> HttpResponse:
    """The page, with `bound` (a refused step's form) in place of its empty form."""
    hand_over, hand_seat = (
        bound if isinstance(bound, kind) else kind(None, by=membership, table=table)
        for kind in (HandOverStep, HandSeatStep)
    )
    context = {
        "table": table,
        "hand_over": hand_over,
        "waiting": hand_over.fields["character"].queryset,
        "hand_seat": hand_seat,
        "seats": hand_seat.fields["seat"].queryset,
    }
    return render(request, SETTINGS, context, status=status)


@login_required
@require_GET
def table_settings(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    access.require_keeper(membership)
    return _settings(request, table, membership)


class SettingsRoom(Room):
    """The settings page's steps (backup/steps.py)."""

    steps = STEPS

    def answer(self, request, step) -> HttpResponse:
        return redirect("table_settings", table_id=step.table.pk)

    def refusal(self, request, step, error: RuleError) -> HttpResponse:
        """The settings page, the bound form with the refusal beside its field."""
        step.is_valid()  # a field that does not parse is shown beside itself
        if not isinstance(error, steps.InputError):
            step.add_error(None, str(error))
        return _settings(request, step.table, step.by, step, status=422)


@login_required
@require_GET
def table_export(request: HttpRequest, table_id: int) -> HttpResponse:
    """The same file `manage.py export_table` writes, as a download for the GM."""
    table, membership = access_table(request.user, table_id)
    access.require_keeper(membership)
    response = HttpResponse(dumps(export_table(table.pk)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="table-{table.pk}.json"'
    return response


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@login_required
@require_http_methods(["GET", "POST"])
def table_restore(request: HttpRequest) -> HttpResponse:
    """Anyone signed in may restore an export: the new table is theirs, as a table they
    start is, and nothing else of the file is written."""
    if request.method == "GET":
        return render(request, RESTORE, {"upload": RestoreForm(gm=request.user)})
    if "digest" in request.POST:
        return _confirm(request)
    upload = RestoreForm(request.POST, request.FILES, gm=request.user)
    if not upload.is_valid():
        request.session.pop(UPLOADED, None)
        return render(request, RESTORE, {"upload": upload}, status=422)
    digest = _digest(upload.text)
    request.session[UPLOADED] = {"text": upload.text, "digest": digest}
    return render(request, RESTORE, {"preview": upload.preview, "digest": digest})


def _confirm(request: HttpRequest) -> HttpResponse:
    uploaded = request.session.pop(UPLOADED, None) or {}
    if uploaded.get("digest") != request.POST["digest"]:
        return _upload_again(request, gettext("This preview has expired: upload the file again."))
    try:
        restored = restore_table(read_document(uploaded["text"]), gm=request.user)
    except ImportRefused as error:
        return _upload_again(request, str(error))
    return redirect("table_detail", table_id=restored.table.pk)


def _upload_again(request: HttpRequest, message: str) -> HttpResponse:
    """The upload form with `message` beside the file field."""
    upload = RestoreForm({}, gm=request.user)
    upload.errors["export"] = upload.error_class([message])
    return render(request, RESTORE, {"upload": upload}, status=422)
