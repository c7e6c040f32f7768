from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from blades.rules.errors import RuleError
from sessions.access import access_table
from sessions.language import said_in_table_language, table_language
from sessions.step_view import Room

from . import access, journal
from . import actions as journal_actions
from .forms import DiscordForm, SessionForm
from .models import DiscordHook, PlaySession
from .stats import table_statistics
from .steps import STEPS


@login_required
@require_http_methods(["GET", "POST"])
def discord_settings(request: HttpRequest, table_id: int) -> HttpResponse:
    """The GM's webhooks. Only the GM ever gets this page: the URLs are secrets."""
    table, membership = access_table(request.user, table_id)
    access.require(access.can_set_webhooks, membership)
    if request.method == "GET":
        return _discord_page(request, table)
    hook = DiscordHook.objects.filter(table=table).first() or DiscordHook(table=table)
    form = DiscordForm(request.POST, instance=hook)
    if not form.is_valid():
        return _discord_page(request, table, form=form, status=422)
    journal_actions.set_webhooks(table=table, **form.cleaned_data)
    # Said after the redirect, beside the form: a reload does not save again.
    messages.success(request, gettext("Webhooks saved."))
    return redirect("discord_settings", table_id=table.pk)


def _discord_page(request, table, *, form=None, status=200, **extra) -> HttpResponse:
    """`form`: the one posted, with its errors; else the webhooks as saved."""
    hook = DiscordHook.objects.filter(table=table).first() or DiscordHook(table=table)
    context = {
        "table": table,
        "form": form or DiscordForm(instance=hook),
        "hook": hook,
        "has_hook": bool(hook.players_url or hook.gm_url),
        **extra,
    }
    return render(request, "chronicle/discord.html", context, status=status)


@login_required
@require_GET
def dice_statistics(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    secrets = access.can_read_secrets(membership.is_gm)
    people = table_statistics(table.pk, gm=secrets)
    return render(
        request,
        "chronicle/dice.html",
        {"table": table, "people": people, "may": access.may(membership.is_gm)},
    )


# --- The session journal --------------------------------------------------------------


def _journal_page(request, table, membership, *, status=200, **extra):
    is_gm = membership.is_gm
    context = {
        "table": table,
        "is_gm": is_gm,
        "may": access.may(is_gm),
        "play_session": journal_actions.open_session(table.pk),
        "journals": journal.build(table, is_gm=access.can_read_secrets(is_gm)),
        **extra,
    }
    # The page is the reader's; its record, the table's (the template says which is which).
    return render(request, "chronicle/journal.html", context, status=status)


@login_required
@require_GET
def journal_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    return _journal_page(request, table, membership)


class JournalRoom(Room):
    """Every step of the journal and the Discord page's test post."""

    steps = STEPS

    def answer(self, request, step) -> HttpResponse:
        if step.done:
            messages.success(request, step.done)
        # The table page's button comes back to the table; any other to the step's page.
        if request.POST.get("back") == "table":
            return redirect("table_detail", table_id=step.table.pk)
        return redirect(step.page, table_id=step.table.pk)

    def refusal(self, request, step, error: RuleError) -> HttpResponse:
        if step.page == "discord_settings":
            return _discord_page(request, step.table, status=422, **step.redraw(error))
        return _journal_page(request, step.table, step.by, status=422, **step.redraw(error))


@login_required
@require_http_methods(["GET", "POST"])
def session_edit(request: HttpRequest, table_id: int, session_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    access.require(access.can_keep_journal, membership)
    session = get_object_or_404(PlaySession, pk=session_id, table=table)
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


def _markdown(request, table, journals, is_gm: bool, filename: str) -> HttpResponse:
    with table_language(table):
        text = render_to_string(
            "chronicle/journal.md", {"table": table, "journals": journals, "is_gm": is_gm}
        )
    response = said_in_table_language(
        table, HttpResponse(text, content_type="text/markdown; charset=utf-8")
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def session_export(request: HttpRequest, table_id: int, session_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    session = get_object_or_404(PlaySession, pk=session_id, table=table)
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
    """The journal's links and the GM's start and end buttons, which need the session
    under way."""
    may = access.may(membership.is_gm)
    if not may["keep_journal"]:
        return {"journal_may": may}
    return {"journal_may": may, "play_session": journal_actions.open_session(table.pk)}
