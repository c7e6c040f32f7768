from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from accounts.views import signup_form
from blades.rules.errors import RuleError

from . import access, actions, audience, links, panels, queries, steps
from .access import access_table, clocks_for, is_token
from .forms import TableForm
from .models import Membership, Table
from .step_view import Room
from .steps import ID_MAX, InputError
from .table_steps import (
    STEPS,
    ClockStep,
    DeleteClock,
    EditClock,
    NewClock,
    NewInvite,
    QuickRoll,
    RemovePlayer,
    RevokeInvite,
    SetLanguage,
    TablePageStep,
    TickClock,
)

PAGE = "sessions/table.html"


def home(request: HttpRequest) -> HttpResponse:
    return redirect("table_list" if request.user.is_authenticated else "login")


@login_required
def table_list(request: HttpRequest) -> HttpResponse:
    form = TableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        table = actions.create_table(gm=request.user, name=form.cleaned_data["name"])
        return redirect("table_detail", table_id=table.pk)
    memberships = Membership.objects.filter(user=request.user).select_related("table")
    return render(request, "sessions/table_list.html", {"memberships": memberships, "form": form})


def _table_context(request, table: Table, membership: Membership, **forms) -> dict:
    is_gm = membership.is_gm
    clocks = list(queries.clocks_seen_by(table.pk, membership))
    context = {
        "table": table,
        "membership": membership,
        "viewer": membership,
        "is_gm": is_gm,
        "keeps_table": access.can_keep_table(membership),
        "clocks": audience.clock_views(clocks, membership),
        "rolls": queries.recent_rolls(table.pk, is_gm),
        "members": table.memberships.select_related("user"),
        "roll_form": forms.get("roll_form") or QuickRoll(None, by=membership, table=table),
        # The new clock's links are chosen from the same list the page draws (one query).
        "clock_form": forms.get("clock_form")
        or NewClock(None, by=membership, table=table, clocks=clocks),
    }
    if is_gm:
        context["invite_url"] = links.absolute(request, reverse("join", args=[table.invite_token]))
    return context


@login_required
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    return _page(request, table, membership)


def _page(request, table: Table, membership: Membership, *, status=200, **forms) -> HttpResponse:
    """The whole table page. The apps above add their panels (the action roll's card,
    the party...), see sessions/panels.py; the page's own clock list, with a player's own
    clocks in it, is the one drawn."""
    context = panels.page_context(request, table, membership)
    context.update(_table_context(request, table, membership, **forms))
    return render(request, PAGE, context, status=status)


def _invited(token: str) -> tuple[Table | None, Table | None]:
    """(the table the link names, that table if its link is live)."""
    invited = None
    if is_token(token):
        invited = Table.objects.filter(invite_token=token).select_related("gm").first()
    return invited, invited if invited is not None and invited.invite_active else None


def join(request: HttpRequest, token: str) -> HttpResponse:
    """Anyone with the link sees which table invites them (or that the link is revoked)
    before being asked to log in; only a logged-in visitor can join."""
    invited, table = _invited(token)
    if request.method == "POST" and request.user.is_authenticated and table is not None:
        table = actions.join_table(user=request.user, token=token)
        return redirect("table_detail", table_id=table.pk)
    if request.method == "POST" and table is not None:
        return redirect(f"{reverse('login')}?next={request.path}")
    context = {"table": table, "revoked": invited is not None and table is None}
    return render(request, "sessions/join.html", context, status=200 if table else 404)


def join_signup(request: HttpRequest, token: str) -> HttpResponse:
    """The sign-up of a live invite link, open even where the server closed its own
    (SIGNUP_OPEN=0): the invited make their account, then come back to join."""
    if _invited(token)[1] is None:
        return join(request, token)  # says the link is revoked or wrong
    return signup_form(request, reverse("join", args=[token]))


class TablePageRoom(Room):
    """The steps of the table page and its settings (sessions/table_steps.py)."""

    steps = STEPS

    def step(self, request, table_id: int, name: str, ids: dict) -> TablePageStep:
        """On what the URL names: a clock the member can see (any other is no clock to
        them: 404), a member of the table."""
        table, membership = access_table(request.user, table_id)
        subject: dict = {"table": table, "user": request.user}
        if "clock_id" in ids:
            subject["clock"] = get_object_or_404(clocks_for(membership), pk=ids["clock_id"])
        if "user_id" in ids:
            if ids["user_id"] > ID_MAX:  # no user; SQLite cannot even be asked about it
                raise Http404
            subject["user_id"] = ids["user_id"]
        return steps.step_for(self.steps, name, request.POST, by=membership, **subject)

    def answer(self, request, step: TablePageStep) -> HttpResponse:
        """The member sees what changed (the others, over the socket)."""
        if not request.htmx:
            return redirect(step.back, table_id=step.table.pk)
        table, membership = step.table, step.by
        match step:
            case NewInvite() | RevokeInvite():
                return render(request, f"{PAGE}#invite", _table_context(request, table, membership))
            case RemovePlayer():
                return render(
                    request, f"{PAGE}#members", _table_context(request, table, membership)
                )
            case QuickRoll():
                return _rolled(request, step)
            case NewClock():
                return _form_response(request, table, membership, "clock-form")
            case DeleteClock():
                return HttpResponse("")
            case ClockStep():
                return _clock_face(request, table, membership, step.clock.pk)
            case SetLanguage():  # a page of its own, not a part of the table page
                return redirect(step.back, table_id=table.pk)
        raise NotImplementedError(type(step).__name__)

    def refusal(self, request, step: TablePageStep, error: RuleError) -> HttpResponse:
        """Its form with what was typed and the message beside the control, or the clock
        with the message beside it."""
        table, membership = step.table, step.by
        if isinstance(step, QuickRoll | NewClock | EditClock):
            step.is_valid()
            if not isinstance(error, InputError):  # a field's own error is beside it already
                step.add_error(None, str(error))
        match step:
            case QuickRoll():
                return _form_response(request, table, membership, "roll-form", roll_form=step)
            case NewClock():
                return _form_response(request, table, membership, "clock-form", clock_form=step)
            case EditClock():
                return _clock_face(request, table, membership, step.clock.pk, edit_form=step)
            case TickClock():
                return _clock_face(request, table, membership, step.clock.pk, refusal=str(error))
        return HttpResponse(str(error), content_type="text/plain")


def _rolled(request, taken: QuickRoll) -> HttpResponse:
    """The roll itself reaches this page over the socket, like everyone else's, so the
    form has nothing to show: the page clears the note itself (table.js). Only a form
    still showing errors from a refused try is drawn again, clean. Rolls are the busiest
    request at a table, and drawing the form was a fifth of its cost."""
    if "redraw" not in request.POST:
        return HttpResponse(status=204)
    clean = QuickRoll(None, by=taken.by, table=taken.table)
    clean.initial = {"kind": taken.cleaned_data["kind"], "pool": taken.cleaned_data["pool"]}
    return _form_response(request, taken.table, taken.by, "roll-form", roll_form=clean)


def _form_response(request, table, membership, partial: str, **forms) -> HttpResponse:
    """The page's form `partial` (the whole page without htmx), holding `forms` (a bound
    one with its errors: 422) or, left out, a fresh one."""
    status = 422 if any(form.is_bound and form.errors for form in forms.values()) else 200
    if not request.htmx:
        return _page(request, table, membership, status=status, **forms)
    context = _table_context(request, table, membership, **forms)
    return render(request, f"{PAGE}#{partial}", context, status=status)


def _clock_face(request, table, membership, clock_id: int, **extra) -> HttpResponse:
    """One clock drawn again for the member who acted on it, as the table's queries draw it."""
    clock = get_object_or_404(queries.clocks_seen_by(table.pk, membership), pk=clock_id)
    context = {"clock": audience.clock_view(clock, membership), "table": table}
    context.update(extra)
    return render(request, f"{PAGE}#clock", context)
