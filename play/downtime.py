"""Downtime activities, the end of downtime, and the end-of-session xp review.

Same shape as play.phases: lock the table's phase, check the step, change the books
through the crew's and the characters' own actions, log every roll.
"""

from django.db import transaction
from django.utils.translation import gettext_noop

from blades.rules import abilities as ability_rules
from blades.rules import character as character_rules
from blades.rules import crew as crew_rules
from blades.rules import score as rules
from blades.rules.dice import Outcome
from blades.rules.errors import RuleError
from blades.rules.rolls import (
    OVERINDULGENCES,
    PUSH_DICE,
    PUSH_STRESS,
    RollKind,
    action_pool,
    downtime_ticks,
    raise_outcome,
    ticks_text,
    tier_result,
)
from blades.rules.words import Joined, Term, Words, ngettext
from characters import actions as character_actions
from characters.models import Character
from characters.signals import IGNORED_VICE
from crews import actions as crew_actions
from crews.models import Cohort, Crew
from sessions import actions as table_actions
from sessions import audience
from sessions.actions import SYSTEM_RNG
from sessions.models import Clock, Table

from .live import push_phase
from .models import DowntimeActivity, Phase
from .phases import expect_step, locked_phase, move_to, phase_of, store_roll, table_crew

Step = Phase.Step
Kind = DowntimeActivity.Kind
PROJECT_SEGMENTS = 8


def allowance(crew: Crew) -> int:
    """Free activities per PC: two, one at war (unless the Bravos' War Dogs)."""
    return crew_rules.downtime_activities(crew.at_war, war_dogs="war_dogs" in crew.abilities)


def calculating_at_table(table_id: int) -> int:
    """How many of the crew's scoundrels have Calculating: each gives one extra activity."""
    return Character.objects.filter(
        table_id=table_id, state=Character.State.ACTIVE, abilities__ability__key="calculating"
    ).count()


def _begin(character: Character, kind: str, pay_with: str) -> tuple[Phase, Crew, dict]:
    """Lock the phase, check it is downtime, and pay for an extra activity if this is one."""
    phase = locked_phase(character.table_id)
    score = expect_step(phase, Step.ACTIVITIES)
    character_actions.require_active(character)
    crew = table_crew(character.table_id)
    spent = DowntimeActivity.objects.filter(score=score, character=character).count()
    paid = ""
    if spent >= allowance(crew) and ability_rules.calculating_gives(
        pay_with,
        spiders=calculating_at_table(character.table_id),
        used=DowntimeActivity.objects.filter(
            score=score, paid_with=ability_rules.CALCULATING
        ).count(),
    ):
        paid = ability_rules.CALCULATING
    elif spent >= allowance(crew):
        paid = rules.extra_activity_payment(pay_with)
        if paid == "coin":
            character_actions.add_coin(character=character, amount=-rules.EXTRA_ACTIVITY_COST)
        else:
            crew_actions.add_rep(crew=crew, amount=-rules.EXTRA_ACTIVITY_COST)
    return phase, crew, {"score": score, "character": character, "kind": kind, "paid_with": paid}


def _roll(character: Character, roller, pool: int, rng, label: Words, summary=None):
    text = summary or (lambda result: ticks_text(downtime_ticks(result.outcome)))
    roll = store_roll(
        character.table_id, roller, RollKind.DOWNTIME, pool, rng, text, label, character
    )
    return roll.as_dice, roll


def _rating(character: Character, action: str) -> int:
    if action not in character_rules.ACTIONS:
        raise RuleError(gettext_noop("“%(action)s” is not an action."), action=action)
    return getattr(character, action)


def _push(character: Character, push: bool) -> int:
    """Pushing yourself on a downtime roll: a die for stress ("This may be used for an
    action roll or downtime roll or any other kind of roll", 001 §Pushing Yourself)."""
    if not push:
        return 0
    character_actions.mark_stress(character=character, amount=PUSH_STRESS)
    return PUSH_DICE


def _help(helped: bool) -> int:
    """A friend or contact who helps with a downtime roll adds a die."""
    return rules.HELP_DICE if helped else 0


def _action_dice(
    character: Character, action: str, helped: bool, push: bool, ability_dice: int = 0,
    push_act: bool = False, push_special: bool = False,
) -> int:  # fmt: skip
    """A downtime action roll: the rating, a friend's help, a push, an ability's dice and
    harm's penalties as on any action roll (severe harm acts only with help or a push to
    act, a push of its own: `push_act`, 2 stress more). `push_special`: Mastermind's
    special armor pays one of the pushes instead of its stress."""
    rating = _rating(character, action)
    character_rules.check_can_act(character.felt_harm, helped=helped, pushed=push_act)
    pushes = int(push) + int(push_act)
    if push_special:
        pushes = ability_rules.mastermind_push(character.ability_keys, pushes)
        character_actions.use_armor(character=character, box="special")
    if pushes:
        character_actions.mark_stress(character=character, amount=PUSH_STRESS * pushes)
    harm_dice = character_rules.harm_dice_penalty(character.felt_harm)
    extra = _help(helped) + (PUSH_DICE if push else 0) + ability_dice + harm_dice
    return action_pool(rating, extra_dice=extra)


def acquire_asset(
    *, character: Character, roller, description: str, helped: bool = False,
    restricted: bool = False, pay_with: str = "", push: bool = False, rng=SYSTEM_RNG,
) -> DowntimeActivity:  # fmt: skip
    """Roll the crew's tier; the result is the asset's quality. Restricted: +2 heat."""
    with transaction.atomic():
        phase, crew, fields = _begin(character, Kind.ACQUIRE_ASSET, pay_with)
        tier = crew.shown_tier
        dice, levels = ability_rules.acquire_bonus(character.ability_keys, crew.abilities)
        result, roll = _roll(
            character, roller, tier + dice + _help(helped) + _push(character, push), rng,
            Words(gettext_noop("Acquire asset: %(description)s"), description=description),
            lambda r: _quality(tier_result(tier, raise_outcome(r.outcome, levels))),
        )  # fmt: skip
        outcome = raise_outcome(result.outcome, levels)
        quality = tier_result(tier, outcome)
        if restricted:
            crew_actions.add_heat(crew=crew, amount=rules.RESTRICTED_HEAT)
            said = Words(
                gettext_noop("%(asset)s: quality %(quality)s (+%(heat)s heat)"),
                asset=description, quality=quality, heat=rules.RESTRICTED_HEAT,
            )  # fmt: skip
        else:
            said = _asset(description, quality)
        activity = DowntimeActivity.objects.create(
            **fields, detail=description[:200], roll=roll, outcome=outcome,
            amount=quality, result=said,
        )  # fmt: skip
        push_phase(phase)
    return activity


def long_term_project(
    *, character: Character, roller, action: str, clock: Clock | None = None,
    name: str = "", segments: int = PROJECT_SEGMENTS, helped: bool = False,
    pay_with: str = "", push: bool = False, push_act: bool = False,
    push_special: bool = False, analyst: int = 0, rng=SYSTEM_RNG,
) -> DowntimeActivity:  # fmt: skip
    """An action roll ticks a project clock (a new one when none is chosen). `analyst`:
    Analyst's free ticks the player puts on it too; `push_special`: a Mastermind's push
    paid with special armor."""
    with transaction.atomic():
        phase, crew, fields = _begin(character, Kind.PROJECT, pay_with)
        free = ability_rules.analyst_ticks(
            analyst,
            has_it=ability_rules.ANALYST in character.ability_keys,
            used=sum(
                DowntimeActivity.objects.filter(
                    score=fields["score"], character=character
                ).values_list("free_ticks", flat=True)
            ),
        )
        if clock is None:
            if not name:
                raise RuleError(gettext_noop("Choose a project clock or name a new one."))
            clock = table_actions.create_clock(
                table=character.table, name=name, segments=segments,
                kind=Clock.Kind.PROJECT, visibility=Clock.Visibility.EVERYONE,
            )  # fmt: skip
        elif clock.table_id != character.table_id or clock.kind != Clock.Kind.PROJECT:
            raise RuleError(gettext_noop("Choose one of the table's project clocks."))
        named = audience.ref("clock", clock)
        dice = _action_dice(character, action, helped, push, 0, push_act, push_special)
        result, roll = _roll(
            character, roller, dice, rng, Words(gettext_noop("Project: %(clock)s"), clock=named)
        )
        ticks = downtime_ticks(result.outcome) + free
        table_actions.tick_clock(clock=clock, by=ticks)
        activity = DowntimeActivity.objects.create(
            **fields, detail=action, roll=roll, outcome=result.outcome, amount=ticks,
            free_ticks=free, clock=clock, result=_project(named, ticks, free),
        )  # fmt: skip
        push_phase(phase)
    return activity


# Who may treat the wounds, each with the recovery roll's line (`healer`: the PC who does).
TREATED_BY = {
    "npc": gettext_noop("Recover: %(name)s, treated by a healer"),
    "pc": gettext_noop("Recover: %(name)s, treated by %(healer)s"),
    "self": gettext_noop("Recover: %(name)s, treated by themself"),
    "none": gettext_noop("Recover: %(name)s, treated by nobody"),
}


def recover(
    *, character: Character, roller, healer: str, quality: int = 0,
    healer_character: Character | None = None, helped: bool = False, pay_with: str = "",
    rng=SYSTEM_RNG,
) -> DowntimeActivity:  # fmt: skip
    """The healer rolls (an NPC's quality, a PC's Tinker; healing yourself costs 2 stress;
    untreated: 1 stress and 0d) and the healing clock ticks; a full clock lowers all harm."""
    if healer not in TREATED_BY:
        raise RuleError(gettext_noop("Choose who treats the wounds."))
    with transaction.atomic():
        phase, crew, fields = _begin(character, Kind.RECOVER, pay_with)
        if healer == "npc":
            quality = crew_rules.check_range(
                quality, 0, rules.HEALER_QUALITY_MAX, gettext_noop("Healer's quality")
            )
            pool, who = quality, {}
        elif healer == "pc":
            if healer_character is None or healer_character.table_id != character.table_id:
                raise RuleError(gettext_noop("Choose the PC who treats them."))
            pool, who = healer_character.tinker, {"healer": healer_character.name}
        elif healer == "self":
            character = character_actions.mark_stress(
                character=character, amount=rules.SELF_HEAL_STRESS
            )
            pool, who = character.tinker, {}
        else:
            character = character_actions.mark_stress(
                character=character, amount=rules.UNTREATED_STRESS
            )
            pool, who = rules.UNTREATED_DICE, {}
        pool = character_rules.healing_dice(pool, character_actions.vigorous(character))
        pool += ability_rules.healing_bonus(
            Character.objects.filter(
                table_id=character.table_id, state=Character.State.ACTIVE,
                abilities__ability__key="physicker",
            ).exists()
        )  # fmt: skip
        treated = Words(TREATED_BY[healer], name=character.name, **who)
        result, roll = _roll(character, roller, pool + _help(helped), rng, treated)
        ticks = downtime_ticks(result.outcome)
        character_actions.tick_healing(character=character, ticks=ticks)
        activity = DowntimeActivity.objects.create(
            **fields, detail=healer, roll=roll, outcome=result.outcome, amount=ticks,
            result=_healed(ticks),
        )  # fmt: skip
        push_phase(phase)
    return activity


def reduce_heat(
    *, character: Character, roller, action: str, helped: bool = False, pay_with: str = "",
    push: bool = False, push_act: bool = False, rng=SYSTEM_RNG,
) -> DowntimeActivity:  # fmt: skip
    with transaction.atomic():
        phase, crew, fields = _begin(character, Kind.REDUCE_HEAT, pay_with)
        dice, levels = ability_rules.reduce_heat_bonus(character.ability_keys, crew.abilities)
        result, roll = _roll(
            character, roller, _action_dice(character, action, helped, push, dice, push_act), rng,
            Words(gettext_noop("Reduce heat")),
            lambda r: _cooled(downtime_ticks(raise_outcome(r.outcome, levels))),
        )  # fmt: skip
        outcome = raise_outcome(result.outcome, levels)
        removed = downtime_ticks(outcome)
        crew_actions.add_heat(crew=crew, amount=-removed)
        activity = DowntimeActivity.objects.create(
            **fields, detail=action, roll=roll, outcome=outcome, amount=removed,
            result=_cooled(removed),
        )  # fmt: skip
        push_phase(phase)
    return activity


def train(*, character: Character, track: str, pay_with: str = "") -> DowntimeActivity:
    """1 xp on a track (2 with the crew's training upgrade), each track once per downtime."""
    with transaction.atomic():
        phase, crew, fields = _begin(character, Kind.TRAIN, pay_with)
        trained = DowntimeActivity.objects.filter(
            score=fields["score"], character=character, kind=Kind.TRAIN, detail=track
        )
        if trained.exists():
            raise RuleError(
                gettext_noop("%(name)s has already trained %(track)s this downtime."),
                name=character.name,
                track=track,
            )
        xp = crew.training_for(track)
        character_actions.mark_xp(character=character, track=track, amount=xp)
        said = Words(gettext_noop("%(track)s +%(xp)s xp"), track=Term(track.capitalize()), xp=xp)
        activity = DowntimeActivity.objects.create(**fields, detail=track, amount=xp, result=said)
        push_phase(phase)
    return activity


def tend_cohort(
    *, character: Character, cohort: Cohort | None, pay_with: str = ""
) -> DowntimeActivity:
    """A PC spends an activity on a harmed cohort: it heals two levels at the end of
    downtime instead of one."""
    with transaction.atomic():
        phase, crew, fields = _begin(character, Kind.TEND_COHORT, pay_with)
        if cohort is None or cohort.crew_id != crew.pk:
            raise RuleError(gettext_noop("Choose one of the crew's cohorts."), field="cohort")
        if not 0 < cohort.harm < crew_rules.COHORT_DEAD:
            raise RuleError(
                gettext_noop("%(cohort)s has no harm to heal."), field="cohort", cohort=cohort
            )
        if DowntimeActivity.objects.filter(score=fields["score"], cohort=cohort).exists():
            raise RuleError(
                gettext_noop("%(cohort)s is already tended this downtime."),
                field="cohort",
                cohort=cohort,
            )
        healed = crew_rules.heal_cohort(cohort.harm, tended=True)
        activity = DowntimeActivity.objects.create(
            **fields, cohort=cohort, detail=str(cohort)[:200], amount=cohort.harm - healed,
            result=Words(AFTER_DOWNTIME[healed], cohort=cohort.named),
        )  # fmt: skip
        push_phase(phase)
    return activity


def indulge_vice(*, character: Character, roller, pay_with: str = "", rng=SYSTEM_RNG):
    """Lowest attribute in dice; the best die clears stress. Clearing more than is marked
    is overindulging: the player then picks what it costs (`overindulge`)."""
    with transaction.atomic():
        phase, crew, fields = _begin(character, Kind.INDULGE_VICE, pay_with)
        before = Character.objects.get(pk=character.pk).stress
        roll = character_actions.indulge_vice(character=character, roller=roller, rng=rng)
        relief = roll.as_dice.counting
        activity = DowntimeActivity.objects.create(
            **fields, roll=roll, outcome=roll.outcome, amount=min(relief, before),
            overindulged=relief > before, result=roll.summary,
        )  # fmt: skip
        push_phase(phase)
    return activity


def overindulge(*, activity: DowntimeActivity, choice: str) -> DowntimeActivity:
    """Brag is a book change (+2 heat); the others are the table's to play out."""
    if choice not in OVERINDULGENCES:
        raise RuleError(gettext_noop("Choose attract trouble, brag, lost or tapped."))
    with transaction.atomic():
        phase = locked_phase(activity.character.table_id)
        activity = DowntimeActivity.objects.select_related("character").get(pk=activity.pk)
        if not activity.overindulged or activity.overindulgence:
            raise RuleError(gettext_noop("There is no overindulgence to choose."))
        if choice == "brag":
            crew_actions.add_heat(crew=table_crew(activity.character.table_id), amount=2)
        activity.overindulgence = choice
        activity.result = Joined(" · ", [activity.result, Term(OVERINDULGENCES[choice].label)])
        activity.save(update_fields=["overindulgence", "result"])
        push_phase(phase)
    return activity


def shift_vice(*, activity: DowntimeActivity, shift: int) -> DowntimeActivity:
    """Functioning Vice: after seeing the indulgence's die, the player shifts it up or
    down by 1 or 2 (once, before any overindulgence is chosen); the stress it cleared is
    read again from the stress marked before the indulgence (blades.rules.abilities)."""
    with transaction.atomic():
        phase = locked_phase(activity.character.table_id)
        expect_step(phase, Step.ACTIVITIES)
        activity = DowntimeActivity.objects.select_related("character", "roll").get(pk=activity.pk)
        character = Character.objects.get(pk=activity.character_id)
        if activity.kind != Kind.INDULGE_VICE or activity.roll is None:
            raise RuleError(gettext_noop("Only an indulgence's die is shifted."))
        if ability_rules.FUNCTIONING_VICE not in character.ability_keys:
            raise RuleError(
                gettext_noop("%(name)s does not have Functioning Vice."), name=character.name
            )
        if activity.vice_shift or activity.overindulgence:
            raise RuleError(gettext_noop("This indulgence's die is already read."))
        relief = activity.roll.as_dice.counting
        marked = character.stress + activity.amount  # before the indulgence cleared it
        read = ability_rules.functioning_vice(relief, shift, marked)
        character_actions.mark_stress(character=character, amount=activity.amount - read.cleared)
        activity.vice_shift, activity.amount = shift, read.cleared
        activity.overindulged = read.overindulged
        said = Words(
            gettext_noop("Functioning Vice: the die reads %(die)s; clear %(stress)s stress"),
            die=read.relief,
            stress=read.cleared,
        )
        if read.overindulged:
            said = Words(gettext_noop("%(summary)s, overindulged!"), summary=said)
        activity.result = said
        activity.save(update_fields=["vice_shift", "amount", "overindulged", "result"])
        table_actions.amend_roll(activity.roll, summary=said)
        push_phase(phase)
    return activity


def raise_result(*, activity: DowntimeActivity, coin: int) -> DowntimeActivity:
    """After the roll, coin the PC spends lifts the result a level for each RAISE_COIN
    (an asset's quality past a critical, PAST_CRITICAL_COIN a level); the difference
    lands where the first result did."""
    with transaction.atomic():
        phase = locked_phase(activity.character.table_id)
        expect_step(phase, Step.ACTIVITIES)
        activity = DowntimeActivity.objects.select_related("character", "clock").get(pk=activity.pk)
        old = Outcome(activity.outcome)
        raised = rules.raise_result(activity.kind, old, coin)
        new, coin = raised.outcome, raised.coin
        character = character_actions.add_coin(character=activity.character, amount=-coin)
        crew = table_crew(character.table_id)
        if activity.kind == Kind.ACQUIRE_ASSET:
            # Past a critical the quality keeps what earlier coin bought on top of it.
            quality = activity.amount if new is old else tier_result(crew.shown_tier, new)
            activity.amount = quality + raised.past_critical
        else:
            more = downtime_ticks(new) - downtime_ticks(old)
            if activity.kind == Kind.PROJECT and activity.clock:
                table_actions.tick_clock(clock=activity.clock, by=more)
            elif activity.kind == Kind.RECOVER:
                character_actions.tick_healing(character=character, ticks=more)
            elif activity.kind == Kind.REDUCE_HEAT:
                crew_actions.add_heat(crew=crew, amount=-more)
            activity.amount += more
        activity.outcome, activity.raised = new, activity.raised + coin
        activity.result = _raised(_result(activity), activity.raised)
        activity.save(update_fields=["amount", "result", "outcome", "raised"])
        if activity.roll_id is not None:
            # The log line said what the dice gave; it now says what the coin made of it.
            table_actions.amend_roll(
                activity.roll, summary=_raised(_roll_result(activity), activity.raised)
            )
        push_phase(phase)
    return activity


# A tended cohort's harm once downtime ends, by its level (a tended cohort is not dead).
AFTER_DOWNTIME = {
    0: gettext_noop("%(cohort)s: unharmed after downtime"),
    1: gettext_noop("%(cohort)s: weakened after downtime"),
    2: gettext_noop("%(cohort)s: impaired after downtime"),
    3: gettext_noop("%(cohort)s: broken after downtime"),
}


def _asset(description: str, quality: int) -> Words:
    return Words(gettext_noop("%(asset)s: quality %(quality)s"), asset=description, quality=quality)


def _quality(quality: int) -> Words:
    return Words(gettext_noop("Quality %(quality)s"), quality=quality)


def _project(named, ticks: int, free: int):
    """A project's result: its clock and ticks, saying how many were Analyst's."""
    said = Joined(": ", [named, ticks_text(ticks)])
    if not free:
        return said
    return Words(gettext_noop("%(result)s (%(free)s from Analyst)"), result=said, free=free)


def _cooled(heat: int) -> Words:
    return Words(gettext_noop("Heat −%(heat)s"), heat=heat)


def _healed(ticks: int) -> Words:
    return Words(gettext_noop("Healing clock +%(ticks)s"), ticks=ticks)


def _raised(said, coin: int) -> Words:
    message = ngettext(
        "%(result)s (raised for %(coin)s coin)", "%(result)s (raised for %(coin)s coin)", coin
    )
    return Words(message, result=said, coin=coin)


def _result(activity: DowntimeActivity):
    """A raisable activity's result, made again from its parts at its amount now."""
    if activity.kind == Kind.ACQUIRE_ASSET:
        return _asset(activity.detail, activity.amount)
    if activity.kind == Kind.PROJECT and activity.clock:
        named = audience.ref("clock", activity.clock)
        return _project(named, activity.amount, activity.free_ticks)
    if activity.kind == Kind.RECOVER:
        return _healed(activity.amount)
    if activity.kind == Kind.REDUCE_HEAT:
        return _cooled(activity.amount)
    return ticks_text(activity.amount)


def _roll_result(activity: DowntimeActivity) -> Words:
    """What the log's line says the roll gave, at the activity's amount now."""
    if activity.kind == Kind.ACQUIRE_ASSET:
        return _quality(activity.amount)
    if activity.kind == Kind.REDUCE_HEAT:
        return _cooled(activity.amount)
    return ticks_text(activity.amount - activity.free_ticks)  # the dice's, not Analyst's


def faction_roll(*, clock: Clock | None, roller, rng=SYSTEM_RNG) -> Clock:
    """The GM's faction downtime: a fortune roll on the faction's tier ticks the goal
    clock; the clock names its faction."""
    link = getattr(clock, "faction_link", None)
    if link is None:
        raise RuleError(gettext_noop("Choose a faction's goal clock."), field="clock")
    faction = link.faction
    with transaction.atomic():
        phase = locked_phase(faction.table_id)
        expect_step(phase, Step.ACTIVITIES)
        # A hidden clock's roll is the GM's alone, and so is its name.
        roll = store_roll(
            faction.table_id, roller, RollKind.FORTUNE, faction.tier, rng,
            lambda result: ticks_text(downtime_ticks(result.outcome)),
            audience.ref("clock", clock), secret=clock.hidden,
        )  # fmt: skip
        ticks = downtime_ticks(roll.as_dice.outcome)
        table_actions.tick_clock(clock=clock, by=ticks)
        push_phase(phase)
    return clock


def end_downtime(*, table: Table) -> list[tuple[Character, int]]:
    """Back to free play. A PC who did not indulge takes stress equal to their trauma,
    unless trauma since the last downtime satisfied the vice; this downtime uses that up.
    Cohorts heal a level, two when a PC tended them. Coin past the lair's keeping is
    spent or shared out first: downtime is the "as soon as possible" (001 §Coin)."""
    with transaction.atomic():
        phase = locked_phase(table.pk)
        score = expect_step(phase, Step.ACTIVITIES)
        crew = table_crew(table.pk)
        crew_rules.check_vault(crew.coin, crew.coin_limit)
        indulged = set(
            DowntimeActivity.objects.filter(score=score, kind=Kind.INDULGE_VICE).values_list(
                "character_id", flat=True
            )
        )
        tended = set(
            DowntimeActivity.objects.filter(score=score, kind=Kind.TEND_COHORT).values_list(
                "cohort_id", flat=True
            )
        )
        crew_actions.heal_cohorts(crew=crew, tended=tended)
        penalties = []
        for character in Character.objects.filter(table=table, state=Character.State.ACTIVE):
            stress = character_rules.ignored_vice_stress(
                len(character.traumas),
                indulged=character.pk in indulged,
                satisfied_by_trauma=character.vice_satisfied,
            )
            if character.vice_satisfied:
                character_actions.clear_vice_satisfied(character=character)
            if stress:
                character_actions.mark_stress(
                    character=character, amount=stress, cause=IGNORED_VICE
                )
                penalties.append((character, stress))
            stash = ability_rules.side_stash(character.ability_keys)
            if stash:
                character_actions.gain_stash(character=character, amount=stash)
        _crew_at_the_end_of_downtime(table_crew(table.pk))
        move_to(phase, Step.FREE_PLAY)
    return penalties


def _crew_at_the_end_of_downtime(crew: Crew) -> None:
    """High Society and Just Passing Through take 1 heat each downtime; then No Traces
    gives 1 rep if the crew ends downtime at 0 heat."""
    heat = ability_rules.downtime_heat(crew.abilities)
    if heat:
        crew_actions.add_heat(crew=crew, amount=heat)
    rep = ability_rules.downtime_rep(Crew.objects.get(pk=crew.pk).heat, crew.abilities)
    if rep:
        crew_actions.add_rep(crew=crew, amount=rep)


# --- End of session --------------------------------------------------------------------


def start_xp_review(*, table: Table) -> Phase:
    with transaction.atomic():
        phase = locked_phase(table.pk)
        expect_step(phase, Step.FREE_PLAY)
        phase.xp_done, phase.crew_xp_done = [], False
        move_to(phase, Step.XP_REVIEW)
    return phase


def _triggers(given: dict[str, int], known: dict[str, str]) -> int:
    if set(given) - set(known):
        raise RuleError(gettext_noop("Mark only the session's xp triggers."))
    return character_rules.end_of_session_xp(given)


def review_character_xp(
    *, character: Character, triggers: dict[str, int], tracks: dict[str, int]
) -> int:
    """Each trigger 0, 1 or 2 xp, spread over the tracks the player picks (`tracks`: xp
    per track, adding up to the triggers' xp); once per session."""
    known = ability_rules.character_triggers(rules.CHARACTER_TRIGGERS, character.ability_keys)
    amount = _triggers(triggers, known)
    placed = character_rules.split_session_xp(amount, tracks)
    with transaction.atomic():
        phase = locked_phase(character.table_id)
        expect_step(phase, Step.XP_REVIEW)
        if character.pk in phase.xp_done:
            raise RuleError(
                gettext_noop("%(name)s's xp is already marked this session."), name=character.name
            )
        for track, xp in placed.items():
            character_actions.mark_xp(character=character, track=track, amount=xp)
        phase.xp_done = [*phase.xp_done, character.pk]
        phase.save(update_fields=["xp_done"])
        push_phase(phase)
    return amount


def review_crew_xp(*, table: Table, triggers: dict[str, int]) -> int:
    amount = _triggers(triggers, rules.CREW_TRIGGERS)
    with transaction.atomic():
        phase = locked_phase(table.pk)
        expect_step(phase, Step.XP_REVIEW)
        if phase.crew_xp_done:
            raise RuleError(gettext_noop("The crew's xp is already marked this session."))
        if amount:
            crew_actions.mark_xp(crew=table_crew(table.pk), amount=amount)
        phase.crew_xp_done = True
        phase.save(update_fields=["crew_xp_done"])
        push_phase(phase)
    return amount


def next_session_step(*, table: Table) -> Phase:
    """The GM's one button: free play starts the xp review; the review closes the session.
    Each step locks and checks the phase itself, so a double click is refused, not doubled."""
    if phase_of(table.pk).step == Step.XP_REVIEW:
        return end_session(table=table)
    return start_xp_review(table=table)


def end_session(*, table: Table) -> Phase:
    with transaction.atomic():
        phase = locked_phase(table.pk)
        expect_step(phase, Step.XP_REVIEW)
        move_to(phase, Step.FREE_PLAY)
    return phase
