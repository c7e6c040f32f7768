"""HTTP for the shared roll: parse, call one step, answer with this person's flow panel.

Every other browser at the table gets the change through the push (a signal that
makes each page fetch its own panel), so the response here is only for the sender.
"""

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from blades.rules import character as char_rules
from blades.rules import flow as flow_rules
from blades.rules.dice import MAX_POOL
from blades.rules.rolls import Effect, Position
from characters.models import Character
from sessions.access import access_table
from sessions.models import Clock

from . import actions as flow
from . import group as flow_group
from . import outcome as flow_outcome
from .access import access_consequence, access_roll, own_character
from .models import ActionRoll
from .queries import panel_context
from .undo import undo_last

TEMPLATE = "rolls/flow.html"


class StartRollForm(forms.Form):
    goal = forms.CharField(label="Goal", max_length=200)
    action = forms.ChoiceField(
        label="Action", choices=[(a, a.capitalize()) for a in char_rules.ACTIONS]
    )
    group = forms.BooleanField(label="Group action (I lead)", required=False)
    gather_information = forms.BooleanField(label="Gather information", required=False)
    flashback = forms.BooleanField(label="Flashback", required=False)
    setup_for = forms.TypedChoiceField(
        label="Set up a teammate", coerce=int, required=False, empty_value=None
    )
    setup_benefit = forms.ChoiceField(
        label="Set-up benefit",
        choices=[("", "—"), *flow_rules.SETUP_BENEFITS.items()],
        required=False,
    )

    def __init__(self, *args, teammates=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["setup_for"].choices = [("", "Nobody")] + [(c.pk, c.name) for c in teammates]

    def clean(self):
        data = super().clean()
        if data.get("setup_for") and not data.get("setup_benefit"):
            self.add_error("setup_benefit", "Choose +1 effect or an improved position.")
        return data


class FortuneForm(forms.Form):
    goal = forms.CharField(label="What is at stake", max_length=200)
    trait = forms.IntegerField(label="Trait dice", min_value=0, max_value=MAX_POOL, initial=2)
    advantages = forms.IntegerField(label="Advantages", min_value=0, max_value=4, initial=0)
    disadvantages = forms.IntegerField(label="Disadvantages", min_value=0, max_value=4, initial=0)
    gather_information = forms.BooleanField(label="Gather information", required=False)
    secret = forms.BooleanField(label="Secret (GM only)", required=False)


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


@login_required
@require_POST
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
        try:
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
        except flow.FlowError as error:
            form.add_error(None, str(error))
    context = {"table": table, **start_forms(membership, start_form=form)}
    return render(request, f"{TEMPLATE}#flow-start", context, status=status)


@login_required
@require_POST
def flow_fortune(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    if not membership.is_gm:
        raise PermissionDenied("Only the GM makes fortune rolls.")
    form = FortuneForm(request.POST, prefix="fortune")
    status = 422
    if form.is_valid():
        try:
            flow_outcome.fortune_roll(by=membership, table=table, **form.cleaned_data)
            form, status = FortuneForm(prefix="fortune"), 200
            if not request.htmx:
                return redirect("table_detail", table_id=table.pk)
        except flow.FlowError as error:
            form.add_error(None, str(error))
    context = {"table": table, **start_forms(membership, fortune_form=form)}
    return render(request, f"{TEMPLATE}#flow-fortune", context, status=status)


# --- Steps on an open roll ------------------------------------------------------------


def _choice(post, name: str, choices, what: str):
    value = post.get(name, "")
    for choice in choices:
        if str(getattr(choice, "value", choice)) == value:
            return choice
    raise flow.FlowError(f"Choose {what}.")


def _clock(post, roll, name: str = "clock") -> Clock:
    clock = Clock.objects.filter(pk=post.get(name) or 0, table_id=roll.table_id).first()
    if clock is None:
        raise flow.FlowError("Choose a clock.")
    return clock


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


def _number(post, name: str, default: int = 0) -> int:
    value = post.get(name, "")
    return int(value) if value.isdigit() else default


def _consequence(membership, roll, post):
    kind = post.get("kind", "")
    target = Character.objects.filter(pk=post.get("character") or 0, table_id=roll.table_id)
    heat = _number(post, "heat") if kind == "complication" else 0
    # A complication ticks a clock or gives heat: a clock is required only without heat.
    clock = None
    if kind == "complication" and (post.get("clock") or not heat):
        clock = _clock(post, roll)
    return flow_outcome.add_consequence(
        by=membership,
        roll=roll,
        kind=kind,
        description=post.get("description", ""),
        level=_number(post, "level") or None,
        clock=clock,
        ticks=_number(post, "ticks"),
        heat=heat,
        attribute=post.get("attribute", ""),
        character=target.first(),
    )


def _group_assist(membership, roll, post):
    participant = Character.objects.filter(pk=post.get("participant") or 0, table_id=roll.table_id)
    return flow_group.assist_group(by=membership, roll=roll, participant=participant.first())


def _roll(membership, roll, post):
    if roll.kind == ActionRoll.Kind.GROUP:
        return flow_group.roll_dice(by=membership, roll=roll)
    return flow.roll_dice(by=membership, roll=roll)


ROLL_STEPS = {
    "terms": _terms,
    "ask-trade": lambda m, r, p: flow.ask_trade(by=m, roll=r),
    "accept-trade": lambda m, r, p: flow.answer_trade(by=m, roll=r, accept=True),
    "refuse-trade": lambda m, r, p: flow.answer_trade(by=m, roll=r, accept=False),
    "assist": lambda m, r, p: flow.assist(by=m, roll=r),
    "join": lambda m, r, p: flow_group.join_group(by=m, roll=r),
    "group-bonus": lambda m, r, p: flow_group.set_group_bonus(
        by=m, roll=r, push=p.get("push_dice") == "1", bargain=p.get("bargain", "")
    ),
    "group-assist": _group_assist,
    "push": lambda m, r, p: flow.set_push(
        by=m, roll=r, dice_=p.get("push_dice") == "1", effect=p.get("push_effect") == "1"
    ),
    "offer-bargain": lambda m, r, p: flow.offer_bargain(by=m, roll=r, text=p.get("bargain", "")),
    "accept-bargain": lambda m, r, p: flow.accept_bargain(by=m, roll=r),
    "ability": lambda m, r, p: flow.add_ability_bonus(
        by=m, roll=r, bonus=p.get("bonus", ""), reason=p.get("reason", "")
    ),
    "roll": _roll,
    "cancel": lambda m, r, p: flow.cancel(by=m, roll=r),
    "consequence": _consequence,
    "tick": lambda m, r, p: flow_outcome.tick_target(by=m, roll=r, clock=_clock(p, r)),
    "finish": lambda m, r, p: flow_outcome.finish(by=m, roll=r),
}

CONSEQUENCE_STEPS = {
    "resist": lambda m, c, p: flow_outcome.resist(by=m, consequence=c),
    "armor": lambda m, c, p: flow_outcome.use_armor(by=m, consequence=c, box=p.get("box", "armor")),
    "protect": lambda m, c, p: flow_outcome.protect(by=m, consequence=c),
    "reduced": lambda m, c, p: flow_outcome.judge_resistance(by=m, consequence=c, avoided=False),
    "avoided": lambda m, c, p: flow_outcome.judge_resistance(by=m, consequence=c, avoided=True),
}


@login_required
@require_POST
def flow_step(request: HttpRequest, table_id: int, roll_id: int, step: str) -> HttpResponse:
    membership, roll = access_roll(request.user, table_id, roll_id)
    if step not in ROLL_STEPS:
        raise Http404
    try:
        ROLL_STEPS[step](membership, roll, request.POST)
    except flow.FlowError as error:
        return _panel(request, membership.table, membership, error=str(error), error_roll=roll.pk)
    return _panel(request, membership.table, membership)


@login_required
@require_POST
def flow_consequence_step(
    request: HttpRequest, table_id: int, roll_id: int, consequence_id: int, step: str
) -> HttpResponse:
    membership, consequence = access_consequence(request.user, table_id, roll_id, consequence_id)
    if step not in CONSEQUENCE_STEPS:
        raise Http404
    try:
        CONSEQUENCE_STEPS[step](membership, consequence, request.POST)
    except flow.FlowError as error:
        return _panel(request, membership.table, membership, error=str(error), error_roll=roll_id)
    return _panel(request, membership.table, membership)


@login_required
@require_POST
def flow_undo(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    roll_id = request.POST.get("roll", "")
    try:
        undo_last(by=membership, table=table, roll_id=int(roll_id) if roll_id.isdigit() else None)
    except flow.FlowError as error:
        return _panel(request, table, membership, error=str(error))
    return _panel(request, table, membership)
