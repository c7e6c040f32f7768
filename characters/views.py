"""Character creation, custom playbooks and the sheet: parse, authorize, one action, render."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from blades.rules.errors import RuleError
from sessions import steps
from sessions.access import access_table
from sessions.queries import recent_rolls
from sessions.refusals import answers_refusals
from sessions.step_view import Room

from . import access, actions, queries
from .access import (
    access_character,
    can_edit_character,
    can_see_gm_notes,
    mastery_for,
)
from .forms import STEPS, CustomPlaybookForm, DetailsForm, step_form
from .models import WIZARD_STEPS
from .steps import (
    HARM_TEXT_MAX,
    NOTES_MAX,
    SHEET_STEPS,
    TRAUMA_REASON_MAX,
    SheetStep,
    sheet_steps_for,
)

SHEET = "characters/sheet.html"
WIZARD = "characters/wizard.html"
ANSWER_MAX = 200  # the longest wizard field


# --- The creation wizard --------------------------------------------------------------


def _answers(request: HttpRequest, form) -> dict[str, str]:
    """What was typed, kept in the draft even when the step is refused; a NUL byte is no
    answer (PostgreSQL's JSON cannot store one), and no answer is longer than a field."""
    answers = {name: request.POST.get(name, "")[:ANSWER_MAX] for name in form.fields}
    return {name: value.replace("\x00", "") for name, value in answers.items()}


@login_required
def wizard(request: HttpRequest, table_id: int) -> HttpResponse:
    """One step per screen; the answers live in a Draft row, and the character is made
    only after the last step."""
    table, membership = access_table(request.user, table_id)
    current = queries.active_character(table, request.user)
    if current is not None:
        return redirect("character_sheet", table_id=table.pk, character_id=current.pk)
    draft = actions.open_draft(table=table, user=request.user)
    if request.method != "POST":
        form = step_form(draft, draft.step, table)
        return _render_step(request, table, membership, draft, form)
    step = queries.posted_step(draft, table, request.POST.get("step", draft.step))
    if step is None:
        raise Http404
    form = step_form(draft, step, table, request.POST)
    back = request.POST.get("nav") == "back"
    answered = actions.take_wizard_step(
        draft=draft,
        table=table,
        step=step,
        answers=_answers(request, form),
        back=back,
        accepted=not back and form.is_valid(),
    )
    if answered.character is not None:
        return redirect("character_sheet", table_id=table.pk, character_id=answered.character.pk)
    if answered.refused is not None:
        return _render_step(request, table, membership, draft, answered.refused, status=422)
    if back or draft.step != step:
        return redirect("character_new", table_id=table.pk)
    return _render_step(request, table, membership, draft, form, status=422)


def _render_step(request, table, membership, draft, form, status=200) -> HttpResponse:
    title, _ = STEPS[draft.step]
    number = WIZARD_STEPS.index(draft.step) + 1
    context = {
        "table": table,
        "membership": membership,
        "form": form,
        "step": draft.step,
        "step_title": title,
        "number": number,
        "steps": len(WIZARD_STEPS),
        "last": number == len(WIZARD_STEPS),
        "playbook": queries.draft_playbook(draft, table),
    }
    return render(request, WIZARD, context, status=status)


# --- Custom playbooks -----------------------------------------------------------------


def _playbook_refused(request, error: RuleError) -> HttpResponse:
    table, _ = access_table(request.user, request.resolver_match.kwargs["table_id"])
    form = CustomPlaybookForm(request.POST)
    form.is_valid()
    form.add_error(None, str(error))
    return render(
        request, "characters/custom_playbook.html", {"table": table, "form": form}, status=422
    )


@login_required
@answers_refusals(_playbook_refused)
def custom_playbook_new(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    if not access.can_make_playbook(membership):
        raise PermissionDenied(gettext("Only the GM can do that."))
    form = CustomPlaybookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        actions.create_custom_playbook(
            table=table,
            name=data["name"],
            xp_trigger=data["xp_trigger"],
            primary=data["primary"],
            secondary=data["secondary"],
            ability_keys=data["abilities"],
            own_abilities=data["own_abilities"],
            friends=form.friends,
            items=form.items,
        )
        return redirect("table_detail", table_id=table.pk)
    status = 422 if form.is_bound else 200
    return render(
        request, "characters/custom_playbook.html", {"table": table, "form": form}, status=status
    )


# --- The sheet ------------------------------------------------------------------------


def _sheet_context(membership, character_id: int, **extra) -> dict:
    character = queries.load_character(character_id)
    is_gm = can_see_gm_notes(membership)
    context = {
        "character": character,
        "table": character.table,
        "membership": membership,
        # The details page's question; each control on the sheet asks its own step's.
        "can_edit": can_edit_character(membership, character),
        "may": sheet_steps_for(membership, character),
        # Only the character's own player starts its action rolls (at the table).
        "is_owner": character.owner_id == membership.user_id,
        "is_gm": is_gm,
        "v": queries.sheet_view(character, mastery=mastery_for(character.table)),
        "errors": {},
        "typed": {},
        # The longest text each field takes, the same numbers the steps check.
        "harm_text_max": HARM_TEXT_MAX,
        "trauma_reason_max": TRAUMA_REASON_MAX,
        "notes_max": NOTES_MAX,
        **extra,
    }
    if is_gm:
        context["gm_note"] = queries.gm_note_text(character)
    return context


@login_required
def sheet(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    membership, character = access_character(request.user, table_id, character_id)
    context = _sheet_context(membership, character.pk)
    if request.htmx:
        return render(request, f"{SHEET}#sheet", context)
    context["rolls"] = recent_rolls(table_id, membership.is_gm)
    return render(request, SHEET, context)


@login_required
def edit(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    """The words on the sheet: only its player and the GM may open this page."""
    membership, character = access_character(request.user, table_id, character_id)
    if not can_edit_character(membership, character):
        raise PermissionDenied(
            gettext("Only the character's player and the GM can edit this sheet.")
        )
    form = DetailsForm(request.POST or None, instance=character)
    if request.method == "POST" and form.is_valid():
        changed = {name: form.cleaned_data[name] for name in form.changed_data}
        if changed:
            actions.update_details(character=character, **changed)
        return redirect("character_sheet", table_id=table_id, character_id=character.pk)
    status = 422 if form.is_bound else 200
    return render(
        request,
        "characters/edit.html",
        {"form": form, "character": character, "table": character.table},
        status=status,
    )


class SheetRoom(Room):
    """Every step of the sheet (characters/steps.py), on a character the member sees."""

    steps = SHEET_STEPS

    def step(self, request, table_id: int, name: str, ids: dict) -> SheetStep:
        membership, character = access_character(request.user, table_id, ids["character_id"])
        return steps.step_for(self.steps, name, request.POST, by=membership, character=character)

    def answer(self, request, step: SheetStep) -> HttpResponse:
        return _sheet_response(request, step.by, step.character)

    def refusal(self, request, step: SheetStep, error: RuleError) -> HttpResponse:
        """The sheet with the message beside the control of the step, what was typed kept."""
        errors, typed = {step.refused_at(): str(error)}, request.POST
        return _sheet_response(request, step.by, step.character, errors=errors, typed=typed)


def _sheet_response(request, membership, character, **extra) -> HttpResponse:
    status = 422 if extra.get("errors") else 200
    if not request.htmx and status != 422:
        return redirect("character_sheet", table_id=character.table_id, character_id=character.pk)
    context = _sheet_context(membership, character.pk, **extra)
    if request.htmx:
        return render(request, f"{SHEET}#sheet", context, status=status)
    context["rolls"] = recent_rolls(character.table_id, membership.is_gm)
    return render(request, SHEET, context, status=status)
