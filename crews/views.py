"""Crew sheet and faction views: the page, the crew's founding, and the room of the app's
steps (crews/steps.py), which the one step view serves (sessions/step_view.py).

An htmx request gets back the section it changed (the rest of the table gets it over the
socket); a plain form post is redirected to the page. A refusal from the rules or a bad
form re-renders the section with the message next to it, status 422, nothing changed.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from blades.rules import crew as rules
from blades.rules.errors import RuleError
from sessions import audience
from sessions import queries as table_queries
from sessions.access import access_table
from sessions.refusals import answers_refusals
from sessions.step_view import Room, refused, take_step

from . import access, actions, queries, screen
from .forms import CrewChoicesForm, CrewCreateForm, FactionForm, crew_type_cards
from .steps import STEPS

CREW_PAGE = "crews/crew.html"
FACTIONS_PAGE = "crews/factions.html"


@login_required
def crew_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    crew = queries.crew_sheet(table.pk)
    if crew is None:
        # No crew yet: the founding form, drawn where `may.found_crew` says.
        crew_type = request.GET.get("crew_type") or crew_type_cards()[0][0]
        choices = CrewChoicesForm(crew_type=crew_type)
        # The type whose choices are drawn is the card shown chosen.
        form = CrewCreateForm(initial={"crew_type": crew_type})
        context = _founding(table, membership, form, choices)
        if request.htmx:
            # The crew type changed: its sheet's choices follow.
            return render(request, f"{CREW_PAGE}#crew-choices", context)
        return render(request, CREW_PAGE, context)
    return render(request, CREW_PAGE, _page_context(table, membership, crew))


def _founding(table, membership, form: CrewCreateForm, choices: CrewChoicesForm) -> dict:
    """The page of a table with no crew: its founding form, with who may send it."""
    form.fields["crew_type"].widget.attrs.update(
        {
            "hx-get": reverse("crew_detail", args=[table.pk]),
            "hx-target": "#crew-choices",
            "hx-swap": "morph",
        }
    )
    return {
        "table": table,
        "may": access.may(membership.is_gm, None),
        "create_form": form,
        "choices_form": choices,
    }


def _page_context(table, membership, crew, **extra) -> dict:
    return {"table": table, **queries.sheet_context(crew, is_gm=membership.is_gm, **extra)}


def _create_refused(request, error: RuleError) -> HttpResponse:
    table, membership = access_table(request.user, request.resolver_match.kwargs["table_id"])
    crew_type = request.POST.get("crew_type", "")
    choices = CrewChoicesForm(request.POST, crew_type=crew_type)
    # The bound form again, the refusal as its error: nothing chosen is lost.
    choices.is_valid()
    choices.add_error(None, str(error))
    context = _founding(table, membership, CrewCreateForm(request.POST), choices)
    return render(request, CREW_PAGE, context, status=422)


@login_required
@require_POST
@answers_refusals(_create_refused)
def crew_create(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    # Asked as the form was drawn, with no crew: one founded since is refused by the
    # action, in its transaction, beside the bound form.
    access.require(access.can_found_crew, membership, None)
    form = CrewCreateForm(request.POST)
    choices = CrewChoicesForm(request.POST, crew_type=request.POST.get("crew_type", ""))
    if form.is_valid() and choices.is_valid():
        actions.create_crew(table=table, **form.cleaned_data, **choices.choices())
        return redirect("crew_detail", table_id=table.pk)
    return render(request, CREW_PAGE, _founding(table, membership, form, choices), status=422)


def _section(request, table, membership, part: str, *, status: int = 200, **extra) -> HttpResponse:
    """The changed section for htmx; otherwise back to the page (or the page with errors)."""
    if status == 200 and not request.htmx:
        return redirect("crew_detail", table_id=table.pk)
    crew = queries.crew_sheet(table.pk)
    template = f"{CREW_PAGE}#crew-{part}" if request.htmx else CREW_PAGE
    context = _page_context(table, membership, crew, error_part=part, **extra)
    return render(request, template, context, status=status)


def _answer(request, step, *, status: int = 200, **extra) -> HttpResponse:
    """The part of the page the step changed (or its refusal, `extra` drawing it)."""
    table, membership = step.table, step.by
    if step.page == "crew":
        return _section(request, table, membership, step.part, status=status, **extra)
    if step.page == "factions":
        return _ladder(request, table, membership, status=status, **extra)
    if step.page == "faction-form":
        if status == 200 and not request.htmx:
            return redirect("faction_list", table_id=table.pk)
        template = f"{FACTIONS_PAGE}#faction-form" if request.htmx else FACTIONS_PAGE
        context = _factions_context(table, membership, **extra)
        return render(request, template, context, status=status)
    if status == 200 and request.htmx:
        return screen.share_answer(request, table)
    return redirect("screen", table_id=table.pk)


class CrewRoom(Room):
    """Every step of the crew sheet, the faction ladder and the screen's link."""

    steps = STEPS

    def answer(self, request, step) -> HttpResponse:
        return _answer(request, step)

    def refusal(self, request, step, error: RuleError) -> HttpResponse:
        return _answer(request, step, status=422, **step.redraw(error))


# --- Factions --------------------------------------------------------------------------


def _factions_context(table, membership, **extra) -> dict:
    return {
        "table": table,
        "table_id": table.pk,
        "is_gm": membership.is_gm,
        "may": access.may(membership.is_gm, None),
        "factions": queries.visible_factions(table.pk, membership.is_gm),
        # What each goal clock's edit form offers to link to, asked once for them all.
        "clocks": audience.clock_views(
            table_queries.visible_clocks(table.pk, membership.is_gm), membership
        ),
        "faction_form": extra.pop("faction_form", None) or FactionForm(),
        "status_range": (rules.STATUS_MIN, rules.STATUS_MAX),
        "war": rules.war_effects(True),
        "peace": rules.war_effects(False),
        **extra,
    }


@login_required
@answers_refusals(refused)
def faction_list(request: HttpRequest, table_id: int, step: str, room: Room) -> HttpResponse:
    """The ladder; a post to it adds a faction (the step `step`), through the one step
    view: the ladder and its form share one address."""
    if request.method == "POST":
        return take_step(request, table_id, step, room=room)
    table, membership = access_table(request.user, table_id)
    return render(request, FACTIONS_PAGE, _factions_context(table, membership))


def _ladder(request, table, membership, *, status: int = 200, **extra) -> HttpResponse:
    if status == 200 and not request.htmx:
        return redirect("faction_list", table_id=table.pk)
    template = f"{FACTIONS_PAGE}#faction-ladder" if request.htmx else FACTIONS_PAGE
    context = _factions_context(table, membership, **extra)
    return render(request, template, context, status=status)
