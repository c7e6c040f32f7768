"""HTTP for the shared roll: parse, call one step, answer with this person's flow panel.

Every other browser at the table gets the change through the push (a signal that
makes each page fetch its own panel), so the response here is only for the sender.
"""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST

from blades.rules import character as char_rules
from blades.rules import flow as flow_rules
from blades.rules.errors import RuleError
from blades.rules.rolls import Effect, Position
from characters.models import Character
from crews.models import Cohort
from sessions import inputs
from sessions.access import access_table, clocks_for
from sessions.models import Clock
from sessions.refusals import answers_refusals

from . import actions as flow
from . import group as flow_group
from . import outcome as flow_outcome
from .access import access_consequence, access_roll, own_character
from .forms import FortuneForm, StartRollForm
from .models import ActionRoll
from .queries import panel_context
from .undo import undo_last

TEMPLATE = "rolls/flow.html"


def _text(post, name: str, max_length: int) -> str:
    return inputs.text(post, name, max_length=max_length)


def _teammates(membership):
    mine = own_character(membership)
    others = Character.objects.filter(table_id=membership.table_id, state="active")
    return others.exclude(pk=mine.pk) if mine else others.none()


def start_forms(membership, **bound) -> dict:
    """The forms above the panel: a player's roll, the GM's fortune roll."""
    if membership.is_gm:
        return {"fortune_form": bound.get("fortune_form") or FortuneForm(prefix="fortune")}
    return {
        "start_form": bound.get("start_form")
        or StartRollForm(prefix="start", teammates=_teammates(membership)),
        "mine": own_character(membership),
    }


def table_page_context(request, table, membership) -> dict:
    """The table page's action roll card: the panel and the form that starts a roll.
    A sheet's "Roll Survey" links here with `?roll=survey`: the form comes open with
    that action chosen, and the player says the goal."""
    context = {**panel_context(table, membership), **start_forms(membership)}
    action = request.GET.get("roll", "")
    if "start_form" in context and action in char_rules.ACTIONS:
        context["start_form"].initial["action"] = action
        context["start_open"] = True
    return context


def _panel(request, table, membership, *, error: str = "", error_roll: int | None = None):
    context = panel_context(table, membership)
    context.update(error=error, error_roll=error_roll)
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


def _start_refused(request, error: RuleError) -> HttpResponse:
    """The form that was sent, bound again, the refusal as its error."""
    table, membership = access_table(request.user, request.resolver_match.kwargs["table_id"])
    if membership.is_gm:
        form, partial = FortuneForm(request.POST, prefix="fortune"), "flow-fortune"
        bound = {"fortune_form": form}
    else:
        teammates = _teammates(membership)
        form = StartRollForm(request.POST, prefix="start", teammates=teammates)
        partial, bound = "flow-start", {"start_form": form}
    form.is_valid()
    form.add_error(None, str(error))
    context = {"table": table, **start_forms(membership, **bound)}
    return render(request, f"{TEMPLATE}#{partial}", context, status=422)


@login_required
@require_POST
@answers_refusals(_start_refused)
def flow_start(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    mine = own_character(membership)
    if mine is None:
        raise PermissionDenied("Only a player with a character makes action rolls.")
    teammates = _teammates(membership)
    form = StartRollForm(request.POST, prefix="start", teammates=teammates)
    status = 422
    if form.is_valid():
        data = form.cleaned_data
        flow.start_roll(
            by=membership,
            character=mine,
            goal=data["goal"],
            action=data["action"],
            group=data["group"],
            gather_information=data["gather_information"],
            flashback=data["flashback"],
            setup_for=teammates.filter(pk=data["setup_for"]).first(),
            setup_benefit=data["setup_benefit"],
        )
        form, status = StartRollForm(prefix="start", teammates=teammates), 200
        if not request.htmx:
            return redirect("table_detail", table_id=table.pk)
    context = {"table": table, **start_forms(membership, start_form=form)}
    return render(request, f"{TEMPLATE}#flow-start", context, status=status)


@login_required
@require_POST
@answers_refusals(_start_refused)
def flow_fortune(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    if not membership.is_gm:
        raise PermissionDenied("Only the GM makes fortune rolls.")
    form = FortuneForm(request.POST, prefix="fortune")
    status = 422
    if form.is_valid():
        flow_outcome.fortune_roll(by=membership, table=table, **form.cleaned_data)
        form, status = FortuneForm(prefix="fortune"), 200
        if not request.htmx:
            return redirect("table_detail", table_id=table.pk)
    context = {"table": table, **start_forms(membership, fortune_form=form)}
    return render(request, f"{TEMPLATE}#flow-fortune", context, status=status)


# --- Steps on an open roll ------------------------------------------------------------


def _choice(post, name: str, choices, what: str):
    value = post.get(name, "")
    for choice in choices:
        if str(getattr(choice, "value", choice)) == value:
            return choice
    raise RuleError(gettext_noop("Choose %(what)s."), what=what)


def _clock(membership, post) -> Clock:
    clock = inputs.one(clocks_for(membership), post, "clock")
    if clock is None:
        raise inputs.InputError(gettext_noop("Choose a clock."))
    return clock


def _character(roll, post, name: str) -> Character | None:
    return inputs.one(Character.objects.filter(table_id=roll.table_id), post, name)


def _terms(membership, roll, post):
    cost = post.get("flashback_cost")
    return flow.set_terms(
        by=membership,
        roll=roll,
        position=_choice(post, "position", list(Position), "a position"),
        effect=_choice(post, "effect", list(Effect), "an effect"),
        flashback_cost=int(_choice(post, "flashback_cost", flow_rules.FLASHBACK_COSTS, "a cost"))
        if cost
        else None,
    )


def _number(post, name: str) -> int:
    return inputs.number(post, name, default=0)


def _consequence(membership, roll, post):
    # Which of clock and heat a complication needs is the action's rule, not the view's.
    return flow_outcome.add_consequence(
        by=membership,
        roll=roll,
        kind=post.get("kind", ""),
        description=inputs.text(post, "description", max_length=120),
        level=_number(post, "level") or None,
        clock=inputs.one(clocks_for(membership), post, "clock"),
        ticks=_number(post, "ticks"),
        heat=_number(post, "heat"),
        attribute=post.get("attribute", ""),
        character=_character(roll, post, "character"),
    )


def _group_assist(membership, roll, post):
    participant = _character(roll, post, "participant")
    return flow_group.assist_group(by=membership, roll=roll, participant=participant)


def _roll(membership, roll, post):
    if roll.kind == ActionRoll.Kind.GROUP:
        return flow_group.roll_dice(by=membership, roll=roll)
    return flow.roll_dice(by=membership, roll=roll)


ROLL_STEPS = {
    "terms": _terms,
    "as-proposed": lambda m, r, p: flow.accept_as_proposed(by=m, roll=r),
    "ask-trade": lambda m, r, p: flow.ask_trade(by=m, roll=r, direction=p.get("for", "effect")),
    "accept-trade": lambda m, r, p: flow.answer_trade(by=m, roll=r, accept=True),
    "refuse-trade": lambda m, r, p: flow.answer_trade(by=m, roll=r, accept=False),
    "assist": lambda m, r, p: flow.assist(by=m, roll=r),
    "join": lambda m, r, p: flow_group.join_group(by=m, roll=r),
    "group-bonus": lambda m, r, p: flow_group.set_group_bonus(
        by=m,
        roll=r,
        push=p.get("push_dice") == "1",
        bargain=_text(p, "bargain", 200),
        act=p.get("push_act") == "1",
    ),
    "group-assist": _group_assist,
    "cohort": lambda m, r, p: flow_group.roll_cohort(
        by=m,
        roll=r,
        cohort=inputs.one(Cohort.objects.filter(crew__table_id=r.table_id), p, "cohort"),
    ),
    "push": lambda m, r, p: flow.set_push(
        by=m,
        roll=r,
        dice_=p.get("push_dice") == "1",
        effect=p.get("push_effect") == "1",
        act=p.get("push_act") == "1",
    ),
    "offer-bargain": lambda m, r, p: flow.offer_bargain(
        by=m, roll=r, text=_text(p, "bargain", 200)
    ),
    "accept-bargain": lambda m, r, p: flow.accept_bargain(by=m, roll=r),
    "rooks-gambit": lambda m, r, p: flow.rooks_gambit(by=m, roll=r),
    "ability": lambda m, r, p: flow.add_ability_bonus(
        by=m, roll=r, bonus=p.get("bonus", ""), reason=_text(p, "reason", 120)
    ),
    "roll": _roll,
    "cancel": lambda m, r, p: flow.cancel(by=m, roll=r),
    "consequence": _consequence,
    "tick": lambda m, r, p: flow_outcome.tick_target(by=m, roll=r, clock=_clock(m, p)),
    "finish": lambda m, r, p: flow_outcome.finish(by=m, roll=r),
}

CONSEQUENCE_STEPS = {
    "resist": lambda m, c, p: flow_outcome.resist(by=m, consequence=c),
    "armor": lambda m, c, p: flow_outcome.use_armor(by=m, consequence=c, box=p.get("box", "armor")),
    "protect": lambda m, c, p: flow_outcome.protect(by=m, consequence=c),
    "reduced": lambda m, c, p: flow_outcome.judge_resistance(by=m, consequence=c, avoided=False),
    "avoided": lambda m, c, p: flow_outcome.judge_resistance(by=m, consequence=c, avoided=True),
}


def _refused(request, error: RuleError) -> HttpResponse:
    """This person's panel with the message on the roll it concerns."""
    kwargs = request.resolver_match.kwargs
    table, membership = access_table(request.user, kwargs["table_id"])
    return _panel(request, table, membership, error=str(error), error_roll=kwargs.get("roll_id"))


@login_required
@require_POST
@answers_refusals(_refused)
def flow_step(request: HttpRequest, table_id: int, roll_id: int, step: str) -> HttpResponse:
    membership, roll = access_roll(request.user, table_id, roll_id)
    if step not in ROLL_STEPS:
        raise Http404
    ROLL_STEPS[step](membership, roll, request.POST)
    return _panel(request, membership.table, membership)


@login_required
@require_POST
@answers_refusals(_refused)
def flow_consequence_step(
    request: HttpRequest, table_id: int, roll_id: int, consequence_id: int, step: str
) -> HttpResponse:
    membership, consequence = access_consequence(request.user, table_id, roll_id, consequence_id)
    if step not in CONSEQUENCE_STEPS:
        raise Http404
    CONSEQUENCE_STEPS[step](membership, consequence, request.POST)
    return _panel(request, membership.table, membership)


@login_required
@require_POST
@answers_refusals(_refused)
def flow_undo(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    roll_id = inputs.whole(request.POST, "roll", low=0, high=inputs.ID_MAX, default=0)
    undo_last(by=membership, table=table, roll_id=roll_id or None)
    return _panel(request, table, membership)
