"""The phase page: what step the table is at, and the controls for it.

Each member fetches their own render (the GM's controls, each player's for their own
character); pushes only signal that the page should fetch it again.
"""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from blades.rules import character as character_rules
from blades.rules import score as score_rules
from blades.rules.character import RuleError
from blades.rules.rolls import OVERINDULGENCES
from characters.access import can_edit_character
from characters.models import Character
from crews import queries
from crews.models import Claim, Faction
from sessions import queries as table_queries
from sessions.access import access_table, require_gm
from sessions.models import Clock

from . import downtime, phases
from .downtime import allowance
from .models import DowntimeActivity, Flashback
from .phases import choices_for, phase_of

PAGE = "play/phase.html"


def phase_context(table, membership, **extra) -> dict:
    phase = phase_of(table.pk)
    crew = queries.crew_sheet(table.pk)
    score = phase.score
    characters = list(
        Character.objects.filter(table=table, state=Character.State.ACTIVE).select_related(
            "owner", "vice"
        )
    )
    activities = (
        list(DowntimeActivity.objects.filter(score=score).select_related("roll")) if score else []
    )
    mine = {c.pk for c in characters if membership.is_gm or c.owner_id == membership.user_id}
    for character in characters:
        character.mine = character.pk in mine
        character.activities = [a for a in activities if a.character_id == character.pk]
        character.xp_done = character.pk in phase.xp_done
    factions = list(Faction.objects.filter(table=table)) if membership.is_gm else []
    entanglement_choices = {}
    if crew and score and score.entanglements:
        for name in score.entanglements:
            try:
                entanglement_choices[name] = choices_for(crew, name, score.target_faction)
            except RuleError:  # a faction entanglement waits for the GM to name the faction
                entanglement_choices[name] = None
    return {
        "table": table,
        "phase": phase,
        "score": score,
        "crew": crew,
        "is_gm": membership.is_gm,
        "characters": characters,
        "flashbacks": list(score.flashbacks.select_related("character")) if score else [],
        "allowance": allowance(crew) if crew else 0,
        "factions": factions,
        "entanglement_choices": entanglement_choices,
        "project_clocks": Clock.objects.filter(table=table, kind=Clock.Kind.PROJECT)
        .exclude(visibility=Clock.Visibility.GM if not membership.is_gm else "")
        .order_by("pk"),
        "held_claims": crew.claims.filter(held=True, lair=False)
        if crew and membership.is_gm
        else [],
        "faction_clocks": Clock.objects.filter(table=table, kind=Clock.Kind.FACTION)
        if membership.is_gm
        else [],
        "rolls": table_queries.recent_rolls(table.pk, membership.is_gm),
        "plans": list(score_rules.PLANS.items()),
        "checklist": list(score_rules.ENGAGEMENT_CHECKLIST.items()),
        "activities": list(score_rules.ACTIVITIES.items()),
        "raisable": score_rules.RAISABLE,
        "overindulgences": list(OVERINDULGENCES.items()),
        "actions": character_rules.ACTIONS,
        "character_triggers": list(score_rules.CHARACTER_TRIGGERS.items()),
        "crew_triggers": list(score_rules.CREW_TRIGGERS.items()),
        **extra,
    }


@login_required
def phase_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    return render(request, PAGE, phase_context(table, membership))


@login_required
def phase_panel(request: HttpRequest, table_id: int) -> HttpResponse:
    table, membership = access_table(request.user, table_id)
    return render(request, f"{PAGE}#phase-panel", phase_context(table, membership))


# --- Posts: parse, authorize, call one action, answer with the panel --------------------


def _answer(request, table, membership, *, status: int = 200, **extra) -> HttpResponse:
    if status == 200 and not request.htmx:
        return redirect("phase_detail", table_id=table.pk)
    template = f"{PAGE}#phase-panel" if request.htmx else PAGE
    return render(request, template, phase_context(table, membership, **extra), status=status)


def _run(request, table_id: int, change, *, gm: bool = True) -> HttpResponse:
    """GM steps need the GM; player steps pass `gm=False` and check the character."""
    table, membership = access_table(request.user, table_id)
    if gm:
        require_gm(membership)
    try:
        change(table, membership)
    except RuleError as error:
        return _answer(request, table, membership, status=422, error=str(error))
    return _answer(request, table, membership)


def _own(table, membership, character_id) -> Character:
    """A character the member may act for: their own, or any for the GM."""
    character = get_object_or_404(Character, pk=character_id, table=table)
    if not can_edit_character(membership, character):
        raise PermissionDenied("Players act for their own characters.")
    return character


def _int(request, name: str, default: int | None = None) -> int:
    value = request.POST.get(name, "")
    if value == "" and default is not None:
        return default
    try:
        return int(value)
    except ValueError:
        raise RuleError(f"Give a whole number for {name.replace('_', ' ')}.") from None


def _flag(request, name: str) -> bool:
    return request.POST.get(name) in ("1", "on", "true")


def _faction(table, request, name: str = "faction") -> Faction | None:
    pk = request.POST.get(name)
    return get_object_or_404(Faction, pk=pk, table=table) if pk else None


@login_required
@require_POST
def score_start(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        phases.start_score(
            table=table,
            plan=request.POST.get("plan", ""),
            detail=request.POST.get("detail", "").strip()[:200],
            target_faction=_faction(table, request),
            target_name=request.POST.get("target_name", "").strip()[:120],
            target_tier=_int(request, "target_tier", 0),
        )

    return _run(request, table_id, change)


@login_required
@require_POST
def score_load(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    def change(table, membership):
        character = _own(table, membership, character_id)
        phases.choose_load(character=character, level=request.POST.get("load", ""))

    return _run(request, table_id, change, gm=False)


@login_required
@require_POST
def score_engagement(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        marks = {key: request.POST.get(key, "") for key in score_rules.ENGAGEMENT_CHECKLIST}
        phases.roll_engagement(table=table, roller=request.user, marks=marks)

    return _run(request, table_id, change)


@login_required
@require_POST
def score_flashback(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        character = get_object_or_404(Character, pk=request.POST.get("character"), table=table)
        phases.call_flashback(
            table=table,
            character=character,
            stress=_int(request, "stress"),
            note=request.POST.get("note", "").strip()[:200],
        )

    return _run(request, table_id, change)


@login_required
@require_POST
def flashback_pay(request: HttpRequest, table_id: int, flashback_id: int) -> HttpResponse:
    def change(table, membership):
        flashback = get_object_or_404(Flashback, pk=flashback_id, score__table=table)
        _own(table, membership, flashback.character_id)
        phases.pay_flashback(flashback=flashback)

    return _run(request, table_id, change, gm=False)


@login_required
@require_POST
def score_end(request: HttpRequest, table_id: int) -> HttpResponse:
    return _run(
        request, table_id,
        lambda table, m: phases.end_score(table=table, gave_up=_flag(request, "gave_up")),
    )  # fmt: skip


@login_required
@require_POST
def phase_payoff(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        phases.payoff(
            table=table,
            size=request.POST.get("size", ""),
            extra=_int(request, "extra", 0),
            quiet=_flag(request, "quiet"),
            tithe=_flag(request, "tithe"),
        )

    return _run(request, table_id, change)


@login_required
@require_POST
def phase_heat(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        phases.take_heat(
            table=table,
            exposure=request.POST.get("exposure", ""),
            high_profile=_flag(request, "high_profile"),
            hostile_turf=_flag(request, "hostile_turf"),
            killing=_flag(request, "killing"),
        )

    return _run(request, table_id, change)


@login_required
@require_POST
def entanglement_roll(request: HttpRequest, table_id: int) -> HttpResponse:
    return _run(
        request, table_id,
        lambda table, m: phases.roll_entanglement(table=table, roller=request.user),
    )  # fmt: skip


@login_required
@require_POST
def entanglement_resolve(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        claim_id = request.POST.get("claim")
        phases.resolve_entanglement(
            table=table,
            roller=request.user,
            name=request.POST.get("name", ""),
            choice=request.POST.get("choice", ""),
            faction=_faction(table, request),
            claim=get_object_or_404(Claim, pk=claim_id, crew__table=table) if claim_id else None,
            prisoner=request.POST.get("prisoner", "").strip()[:80],
        )

    return _run(request, table_id, change)


@login_required
@require_POST
def crew_incarcerate(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        phases.incarcerate(
            crew=phases.table_crew(table.pk),
            roller=request.user,
            prisoner=request.POST.get("prisoner", "").strip()[:80],
            faction=_faction(table, request),
        )

    return _run(request, table_id, change)


@login_required
@require_POST
def downtime_activity(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    """One downtime activity for one PC; the form names the kind and its details."""

    def change(table, membership):
        character = _own(table, membership, character_id)
        post = request.POST
        common = {"character": character, "pay_with": post.get("pay_with", "")}
        helped = _flag(request, "helped")
        match post.get("kind"):
            case "acquire_asset":
                downtime.acquire_asset(
                    **common, roller=request.user, description=post.get("detail", "")[:200],
                    helped=helped, restricted=_flag(request, "restricted"),
                )  # fmt: skip
            case "project":
                clock_id = post.get("clock")
                clock = get_object_or_404(Clock, pk=clock_id, table=table) if clock_id else None
                downtime.long_term_project(
                    **common, roller=request.user, action=post.get("action", ""), clock=clock,
                    name=post.get("clock_name", "").strip()[:80],
                    segments=_int(request, "segments", downtime.PROJECT_SEGMENTS), helped=helped,
                )  # fmt: skip
            case "recover":
                healer_id = post.get("healer_character")
                downtime.recover(
                    **common, roller=request.user, healer=post.get("healer", ""),
                    quality=_int(request, "quality", 0), helped=helped,
                    healer_character=get_object_or_404(Character, pk=healer_id, table=table)
                    if healer_id else None,
                )  # fmt: skip
            case "reduce_heat":
                downtime.reduce_heat(
                    **common, roller=request.user, action=post.get("action", ""), helped=helped
                )
            case "train":
                downtime.train(**common, track=post.get("track", ""))
            case "indulge_vice":
                downtime.indulge_vice(**common, roller=request.user)
            case _:
                raise RuleError("Choose a downtime activity.")

    return _run(request, table_id, change, gm=False)


def _activity(table, membership, activity_id) -> DowntimeActivity:
    activity = get_object_or_404(DowntimeActivity, pk=activity_id, score__table=table)
    _own(table, membership, activity.character_id)
    return activity


@login_required
@require_POST
def activity_raise(request: HttpRequest, table_id: int, activity_id: int) -> HttpResponse:
    def change(table, membership):
        activity = _activity(table, membership, activity_id)
        downtime.raise_result(activity=activity, coin=_int(request, "coin", 1))

    return _run(request, table_id, change, gm=False)


@login_required
@require_POST
def activity_overindulge(request: HttpRequest, table_id: int, activity_id: int) -> HttpResponse:
    def change(table, membership):
        activity = _activity(table, membership, activity_id)
        downtime.overindulge(activity=activity, choice=request.POST.get("choice", ""))

    return _run(request, table_id, change, gm=False)


@login_required
@require_POST
def downtime_faction_roll(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        clock = get_object_or_404(Clock, pk=request.POST.get("clock"), table=table)
        link = getattr(clock, "faction_link", None)
        if link is None:
            raise RuleError("Choose a faction's goal clock.")
        downtime.faction_roll(faction=link.faction, clock=clock, roller=request.user)

    return _run(request, table_id, change)


@login_required
@require_POST
def downtime_end(request: HttpRequest, table_id: int) -> HttpResponse:
    return _run(request, table_id, lambda table, m: downtime.end_downtime(table=table))


@login_required
@require_POST
def session_end(request: HttpRequest, table_id: int) -> HttpResponse:
    """Starts the xp review from free play; from the review, closes the session."""

    def change(table, membership):
        if phase_of(table.pk).step == "xp_review":
            downtime.end_session(table=table)
        else:
            downtime.start_xp_review(table=table)

    return _run(request, table_id, change)


def _marks(request, triggers: dict[str, str]) -> dict[str, int]:
    return {key: _int(request, key, 0) for key in triggers}


@login_required
@require_POST
def xp_character(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    def change(table, membership):
        downtime.review_character_xp(
            character=_own(table, membership, character_id),
            triggers=_marks(request, score_rules.CHARACTER_TRIGGERS),
            track=request.POST.get("track", ""),
        )

    return _run(request, table_id, change, gm=False)


@login_required
@require_POST
def xp_crew(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        downtime.review_crew_xp(table=table, triggers=_marks(request, score_rules.CREW_TRIGGERS))

    return _run(request, table_id, change)
