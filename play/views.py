"""The phase page: what step the table is at, and the controls for it.

Each member fetches their own render (the GM's controls, each player's for their own
character); pushes only signal that the page should fetch it again. Every step is a form
in play/steps.py, served by the one step view (sessions/step_view.py) through `PhaseRoom`.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from blades.rules.errors import RuleError
from characters.models import Character
from sessions import steps
from sessions.access import access_table
from sessions.step_view import Room

from .models import DowntimeActivity, Flashback
from .queries import phase_page
from .steps import STEPS, PhaseStep

PAGE = "play/phase.html"
# Steps that draw a refusal beside the field at fault (its `RuleError.field`); any other
# refusal of the step goes beside the first.
FIELD_ERRORS = {
    "entanglement_resolve": (
        "choice",
        "faction",
        "claim",
        "prisoner",
        "character",
        "prison_claim",
        "dice",
    ),
}


@login_required
def phase_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    return render(request, PAGE, phase_page(table, membership))


@login_required
def phase_panel(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    return render(request, f"{PAGE}#phase-panel", phase_page(table, membership))


# --- Posts: parse, authorize, call one action, answer with the panel --------------------


def _answer(request, table, membership, *, status: int = 200, **extra) -> HttpResponse:
    if status == 200 and not request.htmx:
        return redirect("phase_detail", table_id=table.pk)
    template = f"{PAGE}#phase-panel" if request.htmx else PAGE
    return render(request, template, phase_page(table, membership, **extra), status=status)


def _subject(table, character_id=None, flashback_id=None, activity_id=None) -> dict:
    """What the URL names the step is taken on, looked up in the member's table; a
    flashback or an activity is taken for its scoundrel."""
    if flashback_id is not None:
        flashback = get_object_or_404(
            Flashback.objects.select_related("character"), pk=flashback_id, score__table=table
        )
        return {"flashback": flashback, "character": flashback.character}
    if activity_id is not None:
        activity = get_object_or_404(
            DowntimeActivity.objects.select_related("character"),
            pk=activity_id,
            score__table=table,
        )
        return {"activity": activity, "character": activity.character}
    if character_id is not None:
        return {"character": get_object_or_404(Character, pk=character_id, table=table)}
    return {}


class PhaseRoom(Room):
    """Any step of the phase: who may take it is the step's question (play/access.py)."""

    steps = STEPS

    def step(self, request, table_id: int, name: str, ids: dict) -> PhaseStep:
        table, membership = access_table(request.user, table_id)
        subject = _subject(table, **ids)
        return steps.step_for(self.steps, name, request.POST, by=membership, table=table, **subject)

    def answer(self, request, step: PhaseStep) -> HttpResponse:
        return _answer(request, step.table, step.by)

    def refusal(self, request, step: PhaseStep, error: RuleError) -> HttpResponse:
        """The panel with the message, and what was typed back in the form it was typed
        in."""
        kwargs = request.resolver_match.kwargs
        typed = {**request.POST.dict(), "for_character": kwargs.get("character_id")}
        table, membership = step.table, step.by
        fields = FIELD_ERRORS.get(kwargs["step"])
        if fields:
            # Beside the field at fault; a refusal of the choice as a whole goes by the menu.
            at = error.field if error.field in fields else fields[0]
            return _answer(
                request, table, membership, status=422, typed=typed, field_errors={at: str(error)}
            )
        return _answer(request, table, membership, status=422, error=str(error), typed=typed)
