"""Crew sheet and faction views: parse, authorize, call one action, render a section.

An htmx request gets back the section it changed (the rest of the table gets it over the
socket); a plain form post is redirected to the page. A refusal from the rules or a bad
form re-renders the section with the message next to it, status 422, nothing changed.
"""

from collections.abc import Callable

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from blades.rules import crew as rules
from blades.rules.errors import RuleError
from sessions import inputs
from sessions import queries as table_queries
from sessions.access import access_table, require_gm
from sessions.refusals import answers_refusals

from . import actions, queries
from .access import access_crew, access_faction, require_books, require_sheet
from .forms import (
    BooksForm,
    ClaimForm,
    CohortForm,
    CrewChoicesForm,
    CrewCreateForm,
    FactionForm,
    GoalClockForm,
    SettingsForm,
    SheetForm,
)
from .models import Claim, Cohort, crew_type_choices

CREW_PAGE = "crews/crew.html"
FACTIONS_PAGE = "crews/factions.html"
AMOUNT_LIMIT = max(rules.VAULT_LIMITS)  # the longest track: coin with a full vault


@login_required
def crew_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    crew = queries.crew_sheet(table.pk)
    if crew is None:
        context = {"table": table, "is_gm": membership.is_gm}
        if membership.is_gm:
            crew_type = request.GET.get("crew_type") or crew_type_choices()[0][0]
            context.update(
                _create_forms(table, CrewCreateForm(), CrewChoicesForm(crew_type=crew_type))
            )
            if request.htmx:
                # The crew type changed: its sheet's choices follow.
                return render(request, f"{CREW_PAGE}#crew-choices", context)
        return render(request, CREW_PAGE, context)
    return render(request, CREW_PAGE, _page_context(table, membership, crew))


def _create_forms(table, form: CrewCreateForm, choices: CrewChoicesForm) -> dict:
    form.fields["crew_type"].widget.attrs.update(
        {
            "hx-get": reverse("crew_detail", args=[table.pk]),
            "hx-target": "#crew-choices",
            "hx-swap": "morph",
        }
    )
    return {"create_form": form, "choices_form": choices}


def _page_context(table, membership, crew, **extra) -> dict:
    return {"table": table, **queries.sheet_context(crew, is_gm=membership.is_gm, **extra)}


def _refused_form(form: forms.Form, error: RuleError, field: str | None = None) -> forms.Form:
    """The bound form again, the refusal as its error: nothing typed is lost."""
    form.is_valid()
    form.add_error(field, str(error))
    return form


def _create_refused(request, error: RuleError) -> HttpResponse:
    table, _ = access_table(request.user, request.resolver_match.kwargs["table_id"])
    crew_type = request.POST.get("crew_type", "")
    choices = _refused_form(CrewChoicesForm(request.POST, crew_type=crew_type), error)
    context = {"table": table, "is_gm": True}
    context.update(_create_forms(table, CrewCreateForm(request.POST), choices))
    return render(request, CREW_PAGE, context, status=422)


@login_required
@require_POST
@answers_refusals(_create_refused)
def crew_create(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    form = CrewCreateForm(request.POST)
    choices = CrewChoicesForm(request.POST, crew_type=request.POST.get("crew_type", ""))
    if form.is_valid() and choices.is_valid():
        actions.create_crew(table=table, **form.cleaned_data, **choices.choices())
        return redirect("crew_detail", table_id=table.pk)
    context = {"table": table, "is_gm": True, **_create_forms(table, form, choices)}
    return render(request, CREW_PAGE, context, status=422)


def _section(request, table, membership, part: str, *, status: int = 200, **extra) -> HttpResponse:
    """The changed section for htmx; otherwise back to the page (or the page with errors)."""
    if status == 200 and not request.htmx:
        return redirect("crew_detail", table_id=table.pk)
    crew = queries.crew_sheet(table.pk)
    template = f"{CREW_PAGE}#crew-{part}" if request.htmx else CREW_PAGE
    context = _page_context(table, membership, crew, error_part=part, **extra)
    return render(request, template, context, status=status)


def _book_change(
    request, table_id: int, part: str, need: str, change: Callable[..., object]
) -> HttpResponse:
    """Authorize, run one action, answer with the section; a rule's refusal is a 422."""
    table, membership, crew = access_crew(request.user, table_id)
    if need == "gm":
        require_gm(membership)
    else:
        {"books": require_books, "sheet": require_sheet}[need](membership, crew)
    change(crew)
    return _section(request, table, membership, part)


def _refused(part: str):
    """Draws a refused book change: its section, the message beside the control."""

    def draw(request, error: RuleError) -> HttpResponse:
        table, membership = access_table(request.user, request.resolver_match.kwargs["table_id"])
        return _section(request, table, membership, part, status=422, error=str(error))

    return answers_refusals(draw)


def _amount(request) -> int:
    amount = inputs.whole(request.POST, "amount", low=-AMOUNT_LIMIT, high=AMOUNT_LIMIT)
    if amount == 0:
        raise inputs.InputError(f"Give a number from −{AMOUNT_LIMIT} to {AMOUNT_LIMIT}, not 0.")
    return amount


@login_required
@require_POST
@_refused("books")
def crew_rep(request: HttpRequest, table_id: int) -> HttpResponse:
    return _book_change(
        request, table_id, "books", "books",
        lambda crew: actions.add_rep(crew=crew, amount=_amount(request)),
    )  # fmt: skip


@login_required
@require_POST
@_refused("books")
def crew_heat(request: HttpRequest, table_id: int) -> HttpResponse:
    return _book_change(
        request, table_id, "books", "books",
        lambda crew: actions.add_heat(crew=crew, amount=_amount(request)),
    )  # fmt: skip


@login_required
@require_POST
@_refused("books")
def crew_coin(request: HttpRequest, table_id: int) -> HttpResponse:
    return _book_change(
        request, table_id, "books", "books",
        lambda crew: actions.add_coin(crew=crew, amount=_amount(request)),
    )  # fmt: skip


@login_required
@require_POST
@_refused("books")
def crew_xp(request: HttpRequest, table_id: int) -> HttpResponse:
    return _book_change(
        request, table_id, "books", "books",
        lambda crew: actions.mark_xp(crew=crew, amount=_amount(request)),
    )  # fmt: skip


@login_required
@require_POST
@_refused("books")
def crew_develop(request: HttpRequest, table_id: int) -> HttpResponse:
    return _book_change(
        request, table_id, "books", "books", lambda crew: actions.develop(crew=crew)
    )


@login_required
@require_POST
@_refused("books")
def crew_advance(request: HttpRequest, table_id: int) -> HttpResponse:
    return _book_change(
        request, table_id, "books", "sheet",
        lambda crew: actions.spend_advance_on_upgrades(crew=crew),
    )  # fmt: skip


@login_required
@require_POST
@_refused("abilities")
def crew_ability(request: HttpRequest, table_id: int) -> HttpResponse:
    key = request.POST.get("key", "")
    if request.POST.get("drop"):
        # Dropping refunds an advance: the GM's call.
        return _book_change(
            request, table_id, "abilities", "gm",
            lambda crew: actions.drop_ability(crew=crew, key=key),
        )  # fmt: skip
    return _book_change(
        request, table_id, "abilities", "sheet",
        lambda crew: actions.take_ability(crew=crew, key=key),
    )  # fmt: skip


@login_required
@require_POST
@_refused("upgrades")
def crew_upgrade(request: HttpRequest, table_id: int) -> HttpResponse:
    key = request.POST.get("key", "")
    by = -1 if request.POST.get("by") == "-1" else 1
    return _book_change(
        request, table_id, "upgrades", "sheet",
        lambda crew: actions.mark_upgrade(crew=crew, key=key, by=by),
    )  # fmt: skip


def _claim_refused(request, error: RuleError) -> HttpResponse:
    """A seizure the map refuses, drawn with the one override the GM may use: for the
    claim just refused, not one per claim on the map."""
    kwargs = request.resolver_match.kwargs
    table, membership = access_table(request.user, kwargs["table_id"])
    override = None
    if error.field == "override" and membership.is_gm:
        override = Claim.objects.filter(pk=kwargs["claim_id"], crew__table=table).first()
    return _section(
        request, table, membership, "claims", status=422, error=str(error), override=override
    )


@login_required
@require_POST
@answers_refusals(_claim_refused)
def crew_claim(request: HttpRequest, table_id: int, claim_id: int) -> HttpResponse:
    held = request.POST.get("held") == "1"

    def change(crew):
        claim = get_object_or_404(Claim, pk=claim_id, crew=crew)
        if claim.lair:
            raise RuleError("The lair is where the crew lives; it is not seized or lost here.")
        # Only the GM may seize a claim the map does not reach.
        override = request.POST.get("override") == "1" and crew.table.gm_id == request.user.pk
        return actions.set_claim(claim=claim, held=held, override=override)

    return _book_change(request, table_id, "claims", "books", change)


@login_required
@require_POST
@_refused("claims")
def crew_claim_remove(request: HttpRequest, table_id: int, claim_id: int) -> HttpResponse:
    return _book_change(
        request, table_id, "claims", "books",
        lambda crew: actions.remove_claim(claim=get_object_or_404(Claim, pk=claim_id, crew=crew)),
    )  # fmt: skip


@login_required
@require_POST
@_refused("claims")
def crew_claim_add(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership, crew = access_crew(request.user, table_id)
    require_books(membership, crew)
    form = ClaimForm(request.POST)
    if not form.is_valid():
        return _section(request, table, membership, "claims", status=422, claim_form=form)
    actions.add_claim(crew=crew, **form.cleaned_data)
    return _section(request, table, membership, "claims")


def _cohort_refused(request, error: RuleError) -> HttpResponse:
    table, membership = access_table(request.user, request.resolver_match.kwargs["table_id"])
    form = _refused_form(CohortForm(request.POST, is_gm=membership.is_gm), error)
    return _section(request, table, membership, "cohorts", status=422, cohort_form=form)


@login_required
@require_POST
@answers_refusals(_cohort_refused)
def crew_cohort_add(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership, crew = access_crew(request.user, table_id)
    require_sheet(membership, crew)
    form = CohortForm(request.POST, is_gm=membership.is_gm)
    if form.is_valid():
        data = form.cleaned_data
        actions.recruit_cohort(
            crew=crew,
            name=data["name"],
            kind=data["kind"],
            types=data["type_list"],
            edges=data["edges"],
            flaws=data["flaws"],
            gained_in_play=data.get("gained_in_play", False),
        )
        return _section(request, table, membership, "cohorts")
    return _section(request, table, membership, "cohorts", status=422, cohort_form=form)


@login_required
@require_POST
@_refused("cohorts")
def crew_cohort_harm(request: HttpRequest, table_id: int, cohort_id: int) -> HttpResponse:
    def change(crew):
        harm = inputs.number(request.POST, "harm")
        cohort = get_object_or_404(Cohort, pk=cohort_id, crew=crew)
        return actions.set_cohort_harm(cohort=cohort, harm=harm)

    return _book_change(request, table_id, "cohorts", "sheet", change)


@login_required
@require_POST
@_refused("cohorts")
def crew_cohort_dismiss(request: HttpRequest, table_id: int, cohort_id: int) -> HttpResponse:
    return _book_change(
        request, table_id, "cohorts", "sheet",
        lambda crew: actions.dismiss_cohort(
            cohort=get_object_or_404(Cohort, pk=cohort_id, crew=crew)
        ),
    )  # fmt: skip


@login_required
@require_POST
@_refused("sheet")
def crew_sheet(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership, crew = access_crew(request.user, table_id)
    require_sheet(membership, crew)
    form = SheetForm(request.POST)
    if not form.is_valid():
        return _section(request, table, membership, "sheet", status=422, sheet_form=form)
    actions.update_sheet(crew=crew, **form.cleaned_data)
    return _section(request, table, membership, "sheet")


def _settings_refused(request, error: RuleError) -> HttpResponse:
    table, membership = access_table(request.user, request.resolver_match.kwargs["table_id"])
    form = _refused_form(SettingsForm(request.POST), error, "xp_track")
    return _section(request, table, membership, "settings", status=422, settings_form=form)


@login_required
@require_POST
@answers_refusals(_settings_refused)
def crew_settings(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership, crew = access_crew(request.user, table_id)
    require_gm(membership)
    form = SettingsForm(request.POST)
    if form.is_valid():
        actions.update_settings(crew=crew, **form.cleaned_data)
        return _section(request, table, membership, "settings")
    return _section(request, table, membership, "settings", status=422, settings_form=form)


@login_required
@require_POST
@_refused("books")
def crew_books(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership, crew = access_crew(request.user, table_id)
    require_gm(membership)
    form = BooksForm(request.POST)
    if not form.is_valid():
        return _section(request, table, membership, "books", status=422, books_form=form)
    actions.correct_books(crew=crew, **form.cleaned_data)
    return _section(request, table, membership, "books")


# --- Factions --------------------------------------------------------------------------


def _factions_context(table, membership, **extra) -> dict:
    return {
        "table": table,
        "table_id": table.pk,
        "is_gm": membership.is_gm,
        "factions": queries.visible_factions(table.pk, membership.is_gm),
        # What each goal clock's edit form offers to link to, asked once for them all.
        "clocks": table_queries.visible_clocks(table.pk, membership.is_gm),
        "faction_form": extra.pop("faction_form", None) or FactionForm(),
        "status_range": (rules.STATUS_MIN, rules.STATUS_MAX),
        "war": rules.war_effects(True),
        "peace": rules.war_effects(False),
        **extra,
    }


@login_required
def faction_list(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    if request.method == "POST":
        require_gm(membership)
        form = FactionForm(request.POST)
        if form.is_valid():
            actions.create_faction(table=table, **form.cleaned_data)
            if not request.htmx:
                return redirect("faction_list", table_id=table.pk)
            form = FactionForm()
        status = 422 if form.is_bound and form.errors else 200
        template = f"{FACTIONS_PAGE}#faction-form" if request.htmx else FACTIONS_PAGE
        context = _factions_context(table, membership, faction_form=form)
        return render(request, template, context, status=status)
    return render(request, FACTIONS_PAGE, _factions_context(table, membership))


def _ladder(request, table, membership, *, status: int = 200, **extra) -> HttpResponse:
    if status == 200 and not request.htmx:
        return redirect("faction_list", table_id=table.pk)
    template = f"{FACTIONS_PAGE}#faction-ladder" if request.htmx else FACTIONS_PAGE
    context = _factions_context(table, membership, **extra)
    return render(request, template, context, status=status)


def _ladder_refused(request, error: RuleError) -> HttpResponse:
    table, membership = access_table(request.user, request.resolver_match.kwargs["table_id"])
    return _ladder(request, table, membership, status=422, error=str(error))


@login_required
@require_POST
@answers_refusals(_ladder_refused)
def faction_update(request: HttpRequest, table_id: int, faction_id: int) -> HttpResponse:
    table, membership, faction = access_faction(request.user, table_id, faction_id)
    form = FactionForm(request.POST, prefix=f"faction-{faction.pk}")
    if not form.is_valid():
        return _ladder(request, table, membership, status=422, edit_forms={faction.pk: form})
    actions.update_faction(faction=faction, **form.cleaned_data)
    return _ladder(request, table, membership)


@login_required
@require_POST
@answers_refusals(_ladder_refused)
def faction_status(request: HttpRequest, table_id: int, faction_id: int) -> HttpResponse:
    table, membership, faction = access_faction(request.user, table_id, faction_id)
    delta = {"1": 1, "-1": -1}.get(request.POST.get("delta", ""), 0)
    if delta:
        actions.shift_status(faction=faction, delta=delta)
    return _ladder(request, table, membership)


@login_required
@require_POST
@answers_refusals(_ladder_refused)
def faction_delete(request: HttpRequest, table_id: int, faction_id: int) -> HttpResponse:
    table, membership, faction = access_faction(request.user, table_id, faction_id)
    actions.delete_faction(faction=faction)
    return _ladder(request, table, membership)


@login_required
@require_POST
@answers_refusals(_ladder_refused)
def faction_clock(request: HttpRequest, table_id: int, faction_id: int) -> HttpResponse:
    table, membership, faction = access_faction(request.user, table_id, faction_id)
    form = GoalClockForm(request.POST, prefix=f"goal-{faction.pk}")
    if not form.is_valid():
        return _ladder(request, table, membership, status=422, goal_forms={faction.pk: form})
    actions.add_goal_clock(faction=faction, **form.cleaned_data)
    return _ladder(request, table, membership)
