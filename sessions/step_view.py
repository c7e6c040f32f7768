"""The one view that serves every step of every app (sessions/steps.py: a step is a form).

Each app routes its step URLs here, naming the step in the URL argument `step` and
passing its `Room`: what the app knows about its own steps (which there are, what each
is taken on, what the member sees after one and beside a refusal). The view does the
rest the same way everywhere: bind the step the URL names, ask who may before anything
posted is parsed (403 with the step's `forbidden`), parse and act (`Step.take`), and
answer with the room's page. A `RuleError` is drawn by the room too, through the one
refusal middleware (sessions/refusals.py): 422, the message beside the control.

    path("tables/<int:table_id>/crew/heat/", take_step, {"room": ROOM, "step": "heat"})
"""

from collections.abc import Mapping

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from blades.rules.errors import RuleError

from .access import access_table
from .refusals import answers_refusals
from .steps import Step, step_for


class Room:
    """An app's steps, as the one step view needs them. `steps` names them as the URLs
    do; the default `step` takes them at the URL's table (404 to an outsider) on what the
    URL's other ids name, as keyword arguments of the step (`claim_id=...`)."""

    steps: Mapping[str, type[Step]] = {}

    def step(self, request: HttpRequest, table_id: int, name: str, ids: dict) -> Step:
        """The step `name`, bound to the POST, taken by the member posting it, on what
        `ids` name; what the member may not see is no page (404)."""
        table, membership = access_table(request.user, table_id)
        return step_for(self.steps, name, request.POST, by=membership, table=table, **ids)

    def allow(self, step: Step) -> None:
        step.allow()

    def answer(self, request: HttpRequest, step: Step) -> HttpResponse:
        """What the member sees after the step: the part of the page it changed for
        htmx, else a redirect to the page."""
        raise NotImplementedError

    def refusal(self, request: HttpRequest, step: Step, error: RuleError) -> HttpResponse:
        """The page again with `error` beside the step's control and what was typed (the
        middleware sets the status, 422)."""
        raise NotImplementedError


def refused(request: HttpRequest, error: RuleError) -> HttpResponse:
    """The one refusal drawer of every step: the step bound again as the URL names it,
    drawn by its room."""
    ids = dict(request.resolver_match.kwargs)
    room = ids.pop("room")
    step = room.step(request, ids.pop("table_id"), ids.pop("step"), ids)
    return room.refusal(request, step, error)


@login_required
@require_POST
@answers_refusals(refused)
def take_step(request: HttpRequest, table_id: int, step: str, *, room: Room, **ids) -> HttpResponse:
    """Every step of every app: bind, ask who may, parse and act, answer."""
    taken = room.step(request, table_id, step, ids)
    room.allow(taken)
    taken.take()
    return room.answer(request, taken)
