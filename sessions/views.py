from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from blades.rules.errors import RuleError
from blades.rules.rolls import RollKind

from . import actions, panels, queries
from .access import access_table, can_edit_clock, can_tick_clock, clocks_for, is_token, require_gm
from .forms import NEW_CLOCK, ClockForm, PlayerClockForm, RollForm, TableForm
from .models import Clock, Membership, Table
from .refusals import answers_refusals
from .steps import ID_MAX

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
    clocks = queries.clocks_seen_by(table.pk, membership)
    context = {
        "table": table,
        "membership": membership,
        "viewer": membership,
        "is_gm": is_gm,
        "clocks": clocks,
        "rolls": queries.recent_rolls(table.pk, is_gm),
        "members": table.memberships.select_related("user"),
        "roll_form": forms.get("roll_form") or RollForm(gm=is_gm),
        # The new clock's links are chosen from the same list the page draws (one query).
        "clock_form": forms.get("clock_form")
        or _clock_form(table, membership, None, clocks=clocks),
    }
    if is_gm:
        context["invite_url"] = request.build_absolute_uri(
            reverse("join", args=[table.invite_token])
        )
    return context


@login_required
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    # The apps above add their panels (the action roll's card), see sessions/panels.py;
    # the page's own clock list, with a player's own clocks in it, is the one drawn.
    context = panels.page_context(request, table, membership)
    context.update(_table_context(request, table, membership))
    return render(request, PAGE, context)


def join(request: HttpRequest, token: str) -> HttpResponse:
    """Anyone with the link sees which table invites them (or that the link is revoked)
    before being asked to log in; only a logged-in visitor can join."""
    invited = None
    if is_token(token):
        invited = Table.objects.filter(invite_token=token).select_related("gm").first()
    table = invited if invited is not None and invited.invite_active else None
    if request.method == "POST" and request.user.is_authenticated and table is not None:
        table = actions.join_table(user=request.user, token=token)
        return redirect("table_detail", table_id=table.pk)
    if request.method == "POST" and table is not None:
        return redirect(f"{reverse('login')}?next={request.path}")
    context = {"table": table, "revoked": invited is not None and table is None}
    return render(request, "sessions/join.html", context, status=200 if table else 404)


@login_required
@require_POST
def invite_regenerate(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    actions.regenerate_invite(table=table)
    return _invite_response(request, table, membership)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    actions.revoke_invite(table=table)
    return _invite_response(request, table, membership)


def _invite_response(request, table, membership) -> HttpResponse:
    if request.htmx:
        return render(request, f"{PAGE}#invite", _table_context(request, table, membership))
    return redirect("table_detail", table_id=table.pk)


@login_required
@require_POST
def member_remove(request: HttpRequest, table_id: int, user_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    require_gm(membership)
    if user_id > ID_MAX:  # no user; SQLite cannot even be asked about it
        raise Http404
    actions.remove_player(table=table, user_id=user_id)
    if request.htmx:
        return render(request, f"{PAGE}#members", _table_context(request, table, membership))
    return redirect("table_detail", table_id=table.pk)


@login_required
@require_POST
def roll_create(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    form = RollForm(request.POST, gm=membership.is_gm)
    if form.is_valid():
        data = form.cleaned_data
        actions.quick_roll(
            table=table,
            roller=request.user,
            kind=RollKind(data["kind"]),
            pool=data["pool"],
            note=data["note"],
            secret=data.get("secret", False),
        )
        if not request.htmx:
            return redirect("table_detail", table_id=table.pk)
        # The roll itself reaches this page over the socket, like everyone else's, so the
        # form has nothing to show: the page clears the note itself (table.js). Only a
        # form still showing errors from a refused try is drawn again, clean. Rolls are
        # the busiest request at a table, and drawing the form was a fifth of its cost.
        if "redraw" not in request.POST:
            return HttpResponse(status=204)
        form = RollForm(initial={"kind": data["kind"], "pool": data["pool"]}, gm=membership.is_gm)
    return _form_response(request, table, membership, "roll-form", roll_form=form)


def _form_response(request, table, membership, partial: str, **forms) -> HttpResponse:
    context = _table_context(request, table, membership, **forms)
    bound = next(iter(forms.values()))
    status = 422 if bound.is_bound and bound.errors else 200
    template = f"{PAGE}#{partial}" if request.htmx else PAGE
    return render(request, template, context, status=status)


def _clock_form(
    table: Table, membership, data, *, prefix: str = NEW_CLOCK, clock=None, clocks=None
):
    """The GM's form, or a player's own (no links, no other player's ticks)."""
    if not membership.is_gm:
        return PlayerClockForm(data, prefix=prefix)
    # The GM links a clock only to the table's own clocks: the choices are the ownership check.
    if clocks is None:
        clocks = Clock.objects.filter(table=table)
    return ClockForm(data, prefix=prefix, clocks=clocks, clock=clock)


def _gm_clock(request, table_id: int, clock_id: int):
    """A clock to edit or delete (sessions.access.can_edit_clock)."""
    table, membership = access_table(request.user, table_id)
    clock = get_object_or_404(clocks_for(membership), pk=clock_id)
    if not can_edit_clock(membership, clock):
        raise PermissionDenied("Only the GM can change a clock.")
    return table, membership, clock


def _clock_face(request, table, membership, clock_id: int, *, status=200, **extra):
    """One clock drawn again for the member who acted on it, as the table's queries draw it."""
    clock = get_object_or_404(queries.clocks_seen_by(table.pk, membership), pk=clock_id)
    context = {"clock": clock, "is_gm": membership.is_gm, "viewer": membership, "table": table}
    context.update(extra)
    return render(request, f"{PAGE}#clock", context, status=status)


def _clock_create_refused(request, error: RuleError) -> HttpResponse:
    table, membership = access_table(request.user, request.resolver_match.kwargs["table_id"])
    form = _clock_form(table, membership, request.POST)
    form.is_valid()
    form.add_error(None, str(error))
    return _form_response(request, table, membership, "clock-form", clock_form=form)


def _clock_tick_refused(request, error: RuleError) -> HttpResponse:
    """A refused tick: the clock with the message beside it."""
    kwargs = request.resolver_match.kwargs
    table, membership = access_table(request.user, kwargs["table_id"])
    return _clock_face(request, table, membership, kwargs["clock_id"], refusal=str(error))


def _clock_update_refused(request, error: RuleError) -> HttpResponse:
    """A refused edit: the clock with its edit form open, holding what was typed."""
    kwargs = request.resolver_match.kwargs
    table, membership, clock = _gm_clock(request, kwargs["table_id"], kwargs["clock_id"])
    form = _clock_form(table, membership, request.POST, prefix=f"clock-{clock.pk}", clock=clock)
    form.is_valid()
    form.add_error(None, str(error))
    return _clock_face(request, table, membership, clock.pk, edit_form=form)


@login_required
@require_POST
@answers_refusals(_clock_create_refused)
def clock_create(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    form = _clock_form(table, membership, request.POST)
    if form.is_valid():
        # A player's clock is theirs to tick (sessions.access.can_tick_clock).
        owner = None if membership.is_gm else request.user
        actions.create_clock(table=table, owner=owner, **form.cleaned_data)
        form = _clock_form(table, membership, None)
        if not request.htmx:
            return redirect("table_detail", table_id=table.pk)
    return _form_response(request, table, membership, "clock-form", clock_form=form)


@login_required
@require_POST
@answers_refusals(_clock_update_refused)
def clock_update(request: HttpRequest, table_id: int, clock_id: int) -> HttpResponse:
    table, membership, clock = _gm_clock(request, table_id, clock_id)
    form = _clock_form(table, membership, request.POST, prefix=f"clock-{clock.pk}", clock=clock)
    if form.is_valid():
        clock = actions.update_clock(clock=clock, **form.cleaned_data)
        form = None
    if not request.htmx and form is None:
        return redirect("table_detail", table_id=table.pk)
    status = 422 if form is not None else 200
    return _clock_face(request, table, membership, clock.pk, status=status, edit_form=form)


@login_required
@require_POST
@answers_refusals(_clock_tick_refused)
def clock_tick(request: HttpRequest, table_id: int, clock_id: int) -> HttpResponse:
    """Who may tick which: sessions.access.can_tick_clock (a clock a player cannot see is
    no clock to them: 404)."""
    table, membership = access_table(request.user, table_id)
    clock = get_object_or_404(clocks_for(membership), pk=clock_id)
    if not can_tick_clock(membership, clock):
        raise PermissionDenied("You may not tick this clock.")
    by = 1 if request.POST.get("by", "1") != "-1" else -1
    actions.tick_clock(clock=clock, by=by, player=None if membership.is_gm else membership)
    if not request.htmx:
        return redirect("table_detail", table_id=table.pk)
    return _clock_face(request, table, membership, clock.pk)


@login_required
@require_POST
def clock_delete(request: HttpRequest, table_id: int, clock_id: int) -> HttpResponse:
    table, membership, clock = _gm_clock(request, table_id, clock_id)
    actions.delete_clock(clock=clock)
    if not request.htmx:
        return redirect("table_detail", table_id=table.pk)
    return HttpResponse("")
