from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from blades.rules.character import RuleError
from sessions.access import access_table, require_gm
from sessions.language import table_language

from . import actions as journal_actions
from . import journal
from .forms import DiscordForm, LearnedForm, SessionForm, StartSessionForm
from .models import DiscordHook, PlaySession
from .stats import table_statistics


@login_required
@require_http_methods(["GET", "POST"])
def discord_settings(request: HttpRequest, table_id: int) -> HttpResponse:
    """The GM's webhooks. Only the GM ever gets this page: the URLs are secrets."""
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    hook = DiscordHook.objects.filter(table=table).first() or DiscordHook(table=table)
    form = DiscordForm(request.POST or None, instance=hook)
    if request.method == "POST":
        if form.is_valid():
            hook = form.save(commit=False)
            # New webhooks start without the old ones' warning.
            hook.last_error, hook.last_error_at = "", None
            hook.save()
            return redirect("discord_settings", table_id=table.pk)
        status = 422
    else:
        status = 200
    return render(
        request,
        "chronicle/discord.html",
        {"table": table, "form": form, "hook": hook},
        status=status,
    )


@login_required
@require_GET
def dice_statistics(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    people = table_statistics(table.pk, gm=membership.is_gm)
    return render(
        request,
        "chronicle/dice.html",
        {"table": table, "people": people, "is_gm": membership.is_gm},
    )


# --- The session journal --------------------------------------------------------------


def _journal_page(request, table, membership, *, status=200, error="", **forms):
    is_gm = membership.is_gm
    current = journal_actions.open_session(table.pk)
    context = {
        "table": table,
        "is_gm": is_gm,
        "play_session": current,
        "journals": journal.build(table, is_gm=is_gm),
        "start_form": forms.get("start_form") or StartSessionForm(),
        "learned_form": forms.get("learned_form") or LearnedForm(),
        "error": error,
    }
    with table_language(table):
        return render(request, "chronicle/journal.html", context, status=status)


@login_required
@require_GET
def journal_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    return _journal_page(request, table, membership)


def _session(table, session_id: int) -> PlaySession:
    return get_object_or_404(PlaySession, pk=session_id, table=table)


def _back(request, table) -> HttpResponse:
    # The table page's button comes back to the table; the journal's to the journal.
    if request.POST.get("back") == "table":
        return redirect("table_detail", table_id=table.pk)
    return redirect("journal", table_id=table.pk)


@login_required
@require_POST
def session_start(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    form = StartSessionForm(request.POST)
    if not form.is_valid():
        return _journal_page(request, table, membership, status=422, start_form=form)
    try:
        journal_actions.start_session(table=table, title=form.cleaned_data["title"])
    except RuleError as error:
        return _journal_page(request, table, membership, status=422, error=str(error))
    return _back(request, table)


@login_required
@require_POST
def session_end(request: HttpRequest, table_id: int, session_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    try:
        journal_actions.end_session(session=_session(table, session_id))
    except RuleError as error:
        return _journal_page(request, table, membership, status=422, error=str(error))
    return _back(request, table)


@login_required
@require_http_methods(["GET", "POST"])
def session_edit(request: HttpRequest, table_id: int, session_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    session = _session(table, session_id)
    form = SessionForm(request.POST or None, instance=session)
    if request.method == "POST" and form.is_valid():
        journal_actions.edit_session(
            session=session,
            title=form.cleaned_data["title"],
            gm_notes=form.cleaned_data["gm_notes"],
        )
        return redirect("journal", table_id=table.pk)
    status = 422 if request.method == "POST" else 200
    return render(
        request,
        "chronicle/session_edit.html",
        {"table": table, "session": session, "form": form},
        status=status,
    )


@login_required
@require_POST
def learned_add(request: HttpRequest, table_id: int, session_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    session = _session(table, session_id)
    form = LearnedForm(request.POST)
    if not form.is_valid():
        return _journal_page(request, table, membership, status=422, learned_form=form)
    try:
        journal_actions.add_learned(
            session=session, author=request.user, text=form.cleaned_data["text"]
        )
    except RuleError as error:
        return _journal_page(request, table, membership, status=422, error=str(error))
    return redirect("journal", table_id=table.pk)


def _markdown(request, table, journals, is_gm: bool, filename: str) -> HttpResponse:
    with table_language(table):
        text = render_to_string(
            "chronicle/journal.md", {"table": table, "journals": journals, "is_gm": is_gm}
        )
    response = HttpResponse(text, content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def session_export(request: HttpRequest, table_id: int, session_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    session = _session(table, session_id)
    journals = journal.build(table, is_gm=membership.is_gm, session_id=session.pk)
    name = f"session-{session.started:%Y-%m-%d}-{session.pk}.md"
    return _markdown(request, table, journals, membership.is_gm, name)


@login_required
@require_GET
def campaign_export(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    journals = journal.build(table, is_gm=membership.is_gm)
    return _markdown(request, table, journals, membership.is_gm, f"campaign-{table.pk}.md")


def table_page_context(request, table, membership) -> dict:
    """The GM's start and end buttons on the table page need the session under way."""
    if not membership.is_gm:
        return {}
    return {"play_session": journal_actions.open_session(table.pk)}
