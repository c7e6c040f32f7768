"""Moving in from Foundry VTT: upload, preview, import; and the export back.

The import is two posts. The upload is read and matched and shown as a preview (what
matched, what did not, what stops it); nothing is saved. The preview's form carries the
export itself back with the player's choices for anything unmatched, so the second post
reads it again, checks it again, and imports it in one transaction.
"""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from blades.rules.errors import RuleError
from sessions.access import access_table
from sessions.refusals import answers_refusals

from . import actions
from .access import access_character, can_import_character
from .forms import ConfirmForm, UploadForm, confirm_form
from .foundry import to_actor
from .foundry_import import match, sheet_of

PAGE = "characters/foundry_import.html"


def _import_refused(request: HttpRequest, error: RuleError) -> HttpResponse:
    """The preview again with the import's refusal above it (what the player chose kept)."""
    table, _ = access_table(request.user, request.resolver_match.kwargs["table_id"])
    confirm = ConfirmForm(request.POST, table=table)
    confirm.is_valid()
    found = match(confirm.sheet, table)
    context = {"table": table, "found": found, "confirm": confirm, "refused": str(error)}
    return render(request, PAGE, context)


@login_required
@require_http_methods(["GET", "POST"])
@answers_refusals(_import_refused)
def foundry_import(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    if not can_import_character(membership):
        raise PermissionDenied(gettext("Players import their own characters; the GM has no seat."))
    context = {"table": table}
    if request.method == "GET":
        return render(request, PAGE, {**context, "upload": UploadForm()})
    if "document" not in request.POST:
        upload = UploadForm(request.POST, request.FILES)
        if not upload.is_valid():
            return render(request, PAGE, {**context, "upload": upload}, status=422)
        found = match(upload.sheet, table)
        confirm = confirm_form(table, upload.document, found)
        return render(request, PAGE, {**context, "found": found, "confirm": confirm})

    confirm = ConfirmForm(request.POST, table=table)
    if not confirm.is_valid():
        if "document" in confirm.errors:
            refused = " ".join(confirm.errors["document"])
            context |= {"upload": UploadForm(), "refused": refused}
            return render(request, PAGE, context, status=422)
        found = match(confirm.sheet, table)
        return render(request, PAGE, {**context, "found": found, "confirm": confirm}, status=422)
    choices = {k: confirm.cleaned_data[k] for k in ("playbook", "heritage", "background", "vice")}
    character = actions.import_character(
        table=table, owner=request.user, sheet=confirm.sheet, **choices
    )
    return redirect("character_sheet", table_id=table.pk, character_id=character.pk)


@login_required
@require_GET
def foundry_export(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    """The sheet as a Foundry actor, for anyone at the table (who sees the sheet anyway;
    the GM's private notes are not part of it)."""
    _, character = access_character(request.user, table_id, character_id)
    response = JsonResponse(to_actor(sheet_of(character)), json_dumps_params={"indent": 2})
    name = slugify(character.name) or "character"
    response["Content-Disposition"] = f'attachment; filename="fvtt-Actor-{name}.json"'
    return response
