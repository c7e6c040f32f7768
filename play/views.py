"""The phase page: what step the table is at, and the controls for it.

Each member fetches their own render (the GM's controls, each player's for their own
character); pushes only signal that the page should fetch it again.
"""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from blades.rules import abilities as ability_rules
from blades.rules import character as character_rules
from blades.rules import crew as crew_rules
from blades.rules import score as score_rules
from blades.rules.clocks import CLOCK_MAX, CLOCK_MIN
from blades.rules.errors import RuleError
from characters.access import can_edit_character
from characters.models import Character
from crews import actions as crew_actions
from crews.models import Claim, Cohort, Faction
from sessions import inputs
from sessions.access import access_table, clocks_for, require_gm
from sessions.models import Clock
from sessions.refusals import answers_refusals

from . import downtime, phases
from .models import DowntimeActivity, Flashback
from .queries import phase_page

PAGE = "play/phase.html"
# Forms that draw a refusal beside the field at fault (its `RuleError.field`), by view;
# any other refusal of the form goes beside the first.
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


def _run(request, table_id: int, change, *, gm: bool = True) -> HttpResponse:
    """GM steps need the GM; player steps pass `gm=False` and check the character."""
    table, membership = access_table(request.user, table_id)
    if gm:
        require_gm(membership)
    change(table, membership)
    return _answer(request, table, membership)


def _refused(request, error: RuleError) -> HttpResponse:
    """The panel with the message, and what was typed back in the form it was typed in."""
    kwargs = request.resolver_match.kwargs
    table, membership = access_table(request.user, kwargs["table_id"])
    typed = {**request.POST.dict(), "for_character": kwargs.get("character_id")}
    fields = FIELD_ERRORS.get(request.resolver_match.url_name)
    if fields:
        # Beside the field at fault; a refusal of the choice as a whole goes by the menu.
        at = error.field if error.field in fields else fields[0]
        return _answer(
            request, table, membership, status=422, typed=typed, field_errors={at: str(error)}
        )
    return _answer(request, table, membership, status=422, error=str(error), typed=typed)


def _own(table, membership, character_id) -> Character:
    """A character the member may act for: their own, or any for the GM."""
    character = get_object_or_404(Character, pk=character_id, table=table)
    if not can_edit_character(membership, character):
        raise PermissionDenied("Players act for their own characters.")
    return character


def _active_characters(table):
    return Character.objects.filter(table=table, state=Character.State.ACTIVE)


def _faction(table, post, name: str = "faction") -> Faction | None:
    # Factions are named in GM steps only; the GM may name every faction of the table.
    return inputs.one(Faction.objects.filter(table=table), post, name, what="Faction")


def _text(post, name: str, max_length: int) -> str:
    return inputs.text(post, name, max_length=max_length)


def _character(table, post, name: str = "character") -> Character | None:
    return inputs.one(Character.objects.filter(table=table), post, name, what="Character")


@login_required
@require_POST
@answers_refusals(_refused)
def score_start(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        phases.start_score(
            table=table,
            plan=request.POST.get("plan", ""),
            detail=_text(request.POST, "detail", 200),
            target_faction=_faction(table, request.POST),
            target_name=_text(request.POST, "target_name", 120),
            target_tier=inputs.whole(
                request.POST, "target_tier", low=0, high=crew_rules.FACTION_TIER_MAX, default=0
            ),
        )

    return _run(request, table_id, change)


@login_required
@require_POST
@answers_refusals(_refused)
def score_load(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    def change(table, membership):
        character = _own(table, membership, character_id)
        phases.choose_load(character=character, level=request.POST.get("load", ""))

    return _run(request, table_id, change, gm=False)


@login_required
@require_POST
@answers_refusals(_refused)
def score_engagement(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        marks = {key: request.POST.get(key, "") for key in score_rules.ENGAGEMENT_CHECKLIST}
        phases.roll_engagement(table=table, roller=request.user, marks=marks)

    return _run(request, table_id, change)


@login_required
@require_POST
@answers_refusals(_refused)
def score_flashback(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        post = request.POST
        character = inputs.one(_active_characters(table), post, "character", what="Character")
        if character is None:
            raise inputs.InputError("Choose whose flashback it is.")
        phases.call_flashback(
            table=table,
            character=character,
            stress=inputs.whole(post, "stress", low=0, high=score_rules.FLASHBACK_STRESS_MAX),
            note=_text(post, "note", 200),
            downtime=inputs.flag(post, "downtime"),
        )

    return _run(request, table_id, change)


@login_required
@require_POST
@answers_refusals(_refused)
def flashback_pay(request: HttpRequest, table_id: int, flashback_id: int) -> HttpResponse:
    def change(table, membership):
        flashback = get_object_or_404(Flashback, pk=flashback_id, score__table=table)
        _own(table, membership, flashback.character_id)
        phases.pay_flashback(flashback=flashback, pay_with=request.POST.get("pay_with", ""))

    return _run(request, table_id, change, gm=False)


@login_required
@require_POST
@answers_refusals(_refused)
def score_end(request: HttpRequest, table_id: int) -> HttpResponse:
    gave_up = inputs.flag(request.POST, "gave_up")
    return _run(request, table_id, lambda table, m: phases.end_score(table=table, gave_up=gave_up))


@login_required
@require_POST
@answers_refusals(_refused)
def phase_payoff(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        phases.payoff(
            table=table,
            size=request.POST.get("size", ""),
            extra=inputs.whole(
                request.POST, "extra", low=0, high=crew_rules.JOB_EXTRA_MAX, default=0
            ),
            quiet=inputs.flag(request.POST, "quiet"),
            tithe=inputs.flag(request.POST, "tithe"),
            shares={
                c: inputs.whole(
                    request.POST, f"share_{c.pk}", low=0, high=crew_rules.JOB_EXTRA_MAX, default=0
                )
                for c in _active_characters(table)
            },
        )

    return _run(request, table_id, change)


@login_required
@require_POST
@answers_refusals(_refused)
def crew_share_coin(request: HttpRequest, table_id: int) -> HttpResponse:
    """The GM hands coin from the crew's books to one PC (excess past the vault, or coin
    for a PC's extra downtime)."""

    def change(table, membership):
        character = _character(table, request.POST)
        if character is None:
            raise RuleError("Choose the PC who takes the coin.")
        crew_actions.share_coin(
            crew=phases.table_crew(table.pk),
            character=character,
            amount=inputs.whole(request.POST, "amount", low=0, high=crew_rules.JOB_EXTRA_MAX),
        )

    return _run(request, table_id, change)


@login_required
@require_POST
@answers_refusals(_refused)
def phase_heat(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        phases.take_heat(
            table=table,
            exposure=request.POST.get("exposure", ""),
            high_profile=inputs.flag(request.POST, "high_profile"),
            hostile_turf=inputs.flag(request.POST, "hostile_turf"),
            killing=inputs.flag(request.POST, "killing"),
        )

    return _run(request, table_id, change)


@login_required
@require_POST
@answers_refusals(_refused)
def entanglement_roll(request: HttpRequest, table_id: int) -> HttpResponse:
    return _run(
        request, table_id,
        lambda table, m: phases.roll_entanglement(table=table, roller=request.user),
    )  # fmt: skip


@login_required
@require_POST
@answers_refusals(_refused)
def entanglement_resolve(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        post = request.POST
        # One menu names the entanglement and its way out together: "Rivals:coin".
        name, _, choice = post.get("choice", "").rpartition(":")
        phases.resolve_entanglement(
            table=table,
            roller=request.user,
            name=name,
            choice=choice,
            faction=_faction(table, post),
            claim=inputs.one(Claim.objects.filter(crew__table=table), post, "claim"),
            prisoner=_text(post, "prisoner", 80),
            character=_character(table, post),
            prison_claim=post.get("prison_claim", ""),
            trouble=inputs.one(
                DowntimeActivity.objects.filter(score__table=table), post, "activity"
            ),
            dice_pool=inputs.whole(
                post,
                "dice",
                low=0,
                high=score_rules.QUESTIONING_DICE_MAX,
                default=score_rules.QUESTIONING_DICE,
            ),
        )

    return _run(request, table_id, change)


@login_required
@require_POST
@answers_refusals(_refused)
def crew_incarcerate(request: HttpRequest, table_id: int) -> HttpResponse:
    """The GM sends someone to prison outside an Arrest (someone takes the fall)."""

    def change(table, membership):
        phases.incarcerate(
            crew=phases.table_crew(table.pk),
            roller=request.user,
            prisoner=_text(request.POST, "prisoner", 80),
            prison_claim=request.POST.get("prison_claim", ""),
            faction=_faction(table, request.POST),
            character=_character(table, request.POST),
        )

    return _run(request, table_id, change)


@login_required
@require_POST
@answers_refusals(_refused)
def downtime_activity(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    """One downtime activity for one PC; the form names the kind and its details."""

    def change(table, membership):
        character = _own(table, membership, character_id)
        post = request.POST
        common = {"character": character, "pay_with": post.get("pay_with", "")}
        helped, push = inputs.flag(post, "helped"), inputs.flag(post, "push")
        push_act = inputs.flag(post, "push_act")
        match post.get("kind"):
            case "acquire_asset":
                downtime.acquire_asset(
                    **common, roller=request.user, description=_text(post, "detail", 200),
                    helped=helped, restricted=inputs.flag(post, "restricted"), push=push,
                )  # fmt: skip
            case "project":
                # A player names only the clocks they can see: a GM-only clock is not one.
                clocks = clocks_for(membership).filter(kind=Clock.Kind.PROJECT)
                downtime.long_term_project(
                    **common, roller=request.user, action=post.get("action", ""),
                    clock=inputs.one(clocks, post, "clock", what="Project clock"),
                    name=_text(post, "clock_name", 80),
                    segments=inputs.whole(
                        post, "segments", low=CLOCK_MIN, high=CLOCK_MAX,
                        default=downtime.PROJECT_SEGMENTS,
                    ),
                    helped=helped, push=push, push_act=push_act,
                )  # fmt: skip
            case "recover":
                downtime.recover(
                    **common, roller=request.user, healer=post.get("healer", ""),
                    quality=inputs.whole(
                        post, "quality", low=0, high=score_rules.HEALER_QUALITY_MAX, default=0
                    ),
                    healer_character=inputs.one(
                        _active_characters(table), post, "healer_character", what="Healer"
                    ),
                    helped=helped,
                )  # fmt: skip
            case "reduce_heat":
                downtime.reduce_heat(
                    **common, roller=request.user, action=post.get("action", ""),
                    helped=helped, push=push, push_act=push_act,
                )  # fmt: skip
            case "train":
                downtime.train(**common, track=post.get("track", ""))
            case "indulge_vice":
                downtime.indulge_vice(**common, roller=request.user)
            case "tend_cohort":
                cohorts = Cohort.objects.filter(crew__table=table)
                downtime.tend_cohort(
                    **common, cohort=inputs.one(cohorts, post, "cohort", what="Cohort")
                )
            case _:
                raise RuleError("Choose a downtime activity.")

    return _run(request, table_id, change, gm=False)


def _activity(table, membership, activity_id) -> DowntimeActivity:
    activity = get_object_or_404(DowntimeActivity, pk=activity_id, score__table=table)
    _own(table, membership, activity.character_id)
    return activity


@login_required
@require_POST
@answers_refusals(_refused)
def activity_raise(request: HttpRequest, table_id: int, activity_id: int) -> HttpResponse:
    def change(table, membership):
        activity = _activity(table, membership, activity_id)
        coin = inputs.whole(
            request.POST,
            "coin",
            low=score_rules.RAISE_COIN,
            high=score_rules.RAISE_COIN_MAX,
            default=score_rules.RAISE_COIN,
        )
        downtime.raise_result(activity=activity, coin=coin)

    return _run(request, table_id, change, gm=False)


@login_required
@require_POST
@answers_refusals(_refused)
def activity_overindulge(request: HttpRequest, table_id: int, activity_id: int) -> HttpResponse:
    def change(table, membership):
        activity = _activity(table, membership, activity_id)
        downtime.overindulge(activity=activity, choice=request.POST.get("choice", ""))

    return _run(request, table_id, change, gm=False)


@login_required
@require_POST
@answers_refusals(_refused)
def activity_trouble(request: HttpRequest, table_id: int, activity_id: int) -> HttpResponse:
    """The GM rolls the extra entanglement an overindulgence's Attract Trouble brings."""

    def change(table, membership):
        activity = get_object_or_404(DowntimeActivity, pk=activity_id, score__table=table)
        phases.roll_trouble(activity=activity, roller=request.user)

    return _run(request, table_id, change)


@login_required
@require_POST
@answers_refusals(_refused)
def downtime_faction_roll(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        clock = inputs.one(clocks_for(membership), request.POST, "clock", what="Goal clock")
        downtime.faction_roll(clock=clock, roller=request.user)

    return _run(request, table_id, change)


@login_required
@require_POST
@answers_refusals(_refused)
def downtime_end(request: HttpRequest, table_id: int) -> HttpResponse:
    return _run(request, table_id, lambda table, m: downtime.end_downtime(table=table))


@login_required
@require_POST
@answers_refusals(_refused)
def session_end(request: HttpRequest, table_id: int) -> HttpResponse:
    return _run(request, table_id, lambda table, m: downtime.next_session_step(table=table))


def _marks(request, triggers: dict[str, str]) -> dict[str, int]:
    """Each xp trigger is worth 0, 1 or 2."""
    top = character_rules.XP_PER_TRIGGER_MAX
    return {key: inputs.whole(request.POST, key, low=0, high=top, default=0) for key in triggers}


@login_required
@require_POST
@answers_refusals(_refused)
def xp_character(request: HttpRequest, table_id: int, character_id: int) -> HttpResponse:
    def change(table, membership):
        character = _own(table, membership, character_id)
        triggers = ability_rules.character_triggers(
            score_rules.CHARACTER_TRIGGERS, character.ability_keys
        )
        # No track takes more than the whole review; the rules judge the total.
        most = character_rules.XP_PER_TRIGGER_MAX * len(triggers)
        downtime.review_character_xp(
            character=character,
            triggers=_marks(request, triggers),
            tracks={
                t: inputs.whole(request.POST, f"on_{t}", low=0, high=most, default=0)
                for t in character_rules.XP_TRACKS
            },
        )

    return _run(request, table_id, change, gm=False)


@login_required
@require_POST
@answers_refusals(_refused)
def xp_crew(request: HttpRequest, table_id: int) -> HttpResponse:
    def change(table, membership):
        downtime.review_crew_xp(table=table, triggers=_marks(request, score_rules.CREW_TRIGGERS))

    return _run(request, table_id, change)
