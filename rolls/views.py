"""HTTP for the shared roll: the one step view (sessions/step_view.py) takes every step
(rolls/steps.py) through `RollRoom`, which answers with this person's flow panel, or the
form above it that was sent.

Every other browser at the table gets the change through the push (a signal that
makes each page fetch its own panel), so the response here is only for the sender.
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from blades.rules import character as char_rules
from blades.rules.errors import RuleError
from sessions import steps
from sessions.access import access_table
from sessions.step_view import Room

from .access import access_consequence, access_roll, own_character
from .queries import finished_roll_context, panel_context
from .steps import CONSEQUENCE_STEPS, ROLL_STEPS, TABLE_STEPS, FortuneRoll, StartRoll, TableRollStep

TEMPLATE = "rolls/flow.html"


def start_forms(table, membership, bound: TableRollStep | None = None) -> dict:
    """The forms above the panel that this member may send (each step's own question): a
    player's roll for their character, the GM's fortune roll; `bound`, the one that was
    sent, in its place."""
    steps = (
        StartRoll(None, by=membership, table=table),
        FortuneRoll(None, by=membership, table=table),
    )
    forms: dict = {step.form_key: step for step in steps if step.allowed()}
    if "start_form" in forms:
        forms["mine"] = own_character(membership)
    if bound is not None:
        forms[bound.form_key] = bound
    return forms


def table_page_context(request, table, membership) -> dict:
    """The table page's action roll card: the panel and the form that starts a roll.
    A sheet's "Roll Survey" links here with `?roll=survey`: the form comes open with
    that action chosen, and the player says the goal."""
    context = {**panel_context(table, membership), **start_forms(table, membership)}
    action = request.GET.get("roll", "")
    if "start_form" in context and action in char_rules.ACTIONS:
        context["start_form"].initial["action"] = action
        context["start_open"] = True
    return context


def _panel(
    request, table, membership, *, error: str = "", error_roll: int | None = None, card: str = ""
):
    """This person's panel; a refusal on `error_roll`, told on the card of consequence
    `card` that was tapped while that card is drawn, else above the roll's controls."""
    context = panel_context(table, membership)
    drawn = {(v.roll.pk, c.kind) for v in context["open_rolls"] for c in v.cards}
    context.update(
        error=error, error_roll=error_roll, error_card=card if (error_roll, card) in drawn else ""
    )
    status = 422 if error else 200
    if not request.htmx:
        if error:
            return HttpResponse(error, status=status)
        return redirect("table_detail", table_id=table.pk)
    return render(request, f"{TEMPLATE}#flow-panel", context, status=status)


@login_required
@require_GET
def flow_panel(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    return render(request, f"{TEMPLATE}#flow-panel", panel_context(table, membership))


@login_required
@require_GET
def finished_roll(request: HttpRequest, table_id: int, roll_id: int) -> HttpResponse:
    """A finished roll's whole story, fetched when its line in the panel is opened."""
    table, membership = access_table(request.user, table_id)
    context = finished_roll_context(table, membership, roll_id)
    if context is None:
        raise Http404
    return render(request, f"{TEMPLATE}#flow-done-body", context)


def _form_answer(
    request, step: TableRollStep, form: TableRollStep, status: int, *, sent: bool = False
) -> HttpResponse:
    """The form again: bound with its errors, or fresh once `sent` (the start form then
    folds, the roll in progress below it)."""
    context = {"table": step.table, "proposed": sent, **start_forms(step.table, step.by, form)}
    return render(request, f"{TEMPLATE}#{step.partial}", context, status=status)


class RollRoom(Room):
    """Every step of the shared roll, on the roll or consequence the URL names (a player
    never reaches a secret roll), or at the table."""

    def step(self, request, table_id: int, name: str, ids: dict) -> steps.Step:
        if "consequence_id" in ids:
            membership, consequence = access_consequence(
                request.user, table_id, ids["roll_id"], ids["consequence_id"]
            )
            subject, found = {"consequence": consequence}, CONSEQUENCE_STEPS
        elif "roll_id" in ids:
            membership, roll = access_roll(request.user, table_id, ids["roll_id"])
            subject, found = {"roll": roll}, ROLL_STEPS
        else:
            table, membership = access_table(request.user, table_id)
            subject, found = {"table": table}, TABLE_STEPS
        return steps.step_for(found, name, request.POST, by=membership, **subject)

    def allow(self, step: steps.Step) -> None:
        """A proposal, a fortune roll and an undo ask who may before reading what was
        posted; a step on a roll or a consequence is asked by its action, under the roll's
        row lock (the panel asks the same: rolls.access.allowed_steps)."""
        if isinstance(step, TableRollStep):
            step.allow()

    def answer(self, request, step: steps.Step) -> HttpResponse:
        if getattr(step, "form_key", ""):
            if not request.htmx:
                return redirect("table_detail", table_id=step.table.pk)
            fresh = type(step)(None, by=step.by, table=step.table)
            return _form_answer(request, step, fresh, 200, sent=True)
        return _panel(request, step.by.table, step.by)

    def refusal(self, request, step: steps.Step, error: RuleError) -> HttpResponse:
        """The form that was sent, bound again with its errors (a refusal of the rules
        above its fields); else this person's panel with the message on the roll it
        concerns."""
        if getattr(step, "form_key", ""):
            if step.is_valid():
                step.add_error(None, str(error))
            return _form_answer(request, step, step, 422)
        kwargs = request.resolver_match.kwargs
        card = request.POST.get("kind", "") if kwargs["step"] == "consequence" else ""
        return _panel(
            request,
            step.by.table,
            step.by,
            error=str(error),
            error_roll=kwargs.get("roll_id"),
            card=card,
        )
