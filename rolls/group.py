"""The group action (RULES.md "Teamwork"): a leader starts it, others join, and each
participant rolls the same action from their own browser, with their own bonus dice.

Each participant may push for +1d (2 stress) or take a devil's bargain, and one
character not taking part may assist them (+1d, 1 stress); that stress is paid at
their roll. The best single result counts for everyone, the leader takes 1 stress per
participant whose best die was 1-3, and each desperate roller marks xp. Same contract
as actions.py: one transaction per step, a RollEvent with every change.
"""

from functools import partial

from django.utils.translation import gettext_noop

from blades.rules import abilities as ability_rules
from blades.rules import crew as crew_rules
from blades.rules import dice
from blades.rules import flow as rules
from blades.rules.errors import RuleError
from blades.rules.rolls import (
    ASSIST_DICE,
    ASSIST_STRESS,
    BARGAIN_DICE,
    PUSH_DICE,
    PUSH_STRESS,
    RollKind,
    group_action,
)
from blades.rules.words import Joined, Term, Words
from characters.models import Character
from crews.models import Cohort
from sessions import actions
from sessions.models import Membership

from . import log
from .access import may_drop, require
from .actions import check_foresight
from .changes import Changes, Step, record, require_called, require_fit, require_ready, roll_step
from .derived import bonuses_of, crew_abilities, group_assists, terms_of
from .models import ActionRoll


def _unrolled(roll: ActionRoll, viewer) -> None:
    """The participant taking the step has not rolled yet."""
    character = viewer.character
    if roll.group[str(character.pk)] is not None:
        raise RuleError(gettext_noop("%(name)s has already rolled."), name=character.name)


def _joinable(roll: ActionRoll, viewer) -> None:
    member = viewer.character
    require_fit(member)
    if roll.kind != ActionRoll.Kind.GROUP:
        raise RuleError(gettext_noop("Only a group action can be joined."))
    if str(member.pk) in roll.group:
        raise RuleError(gettext_noop("%(name)s is already in."), name=member.name)
    if member.pk in group_assists(roll).values():
        raise RuleError(
            gettext_noop("%(name)s assists in this group action, so cannot also join."),
            name=member.name,
        )


def join_group(*, by: Membership, roll: ActionRoll) -> ActionRoll:
    with roll_step(roll, by=by, taken="join", check=_joinable) as (roll, viewer):
        member = viewer.character
        roll.group = {**roll.group, str(member.pk): None}
        roll.save(update_fields=["group"])
        text = Words(gettext_noop("%(name)s joins the group action"), name=member.name)
        record(roll, by, text)
    return roll


def set_group_bonus(
    *,
    by: Membership,
    roll: ActionRoll,
    push: bool,
    bargain: str,
    act: bool = False,
) -> ActionRoll:
    """A participant of a group action pushes for +1d (2 stress, paid at their roll) or
    takes the devil's bargain they were offered for their own roll, never both; and may
    push to act while incapacitated (2 stress more)."""
    bargain = bargain.strip()[:200]
    with roll_step(roll, by=by, taken="group-bonus", check=_unrolled) as (roll, viewer):
        character = viewer.character
        rules.group_member_bonuses(push=push, bargain=bool(bargain), assisted=False)
        entry = roll.group_bonuses.get(str(character.pk), {})
        entry = {**entry, "push": push, "bargain": bargain, "act": act}
        roll.group_bonuses = {**roll.group_bonuses, str(character.pk): entry}
        roll.save(update_fields=["group_bonuses"])
        if push:
            text = Words(
                gettext_noop("%(name)s pushes for +%(dice)sd (%(stress)s stress)"),
                name=character.name,
                dice=PUSH_DICE,
                stress=PUSH_STRESS,
            )
        elif bargain:
            text = Words(
                gettext_noop("%(name)s accepts a devil's bargain (+%(dice)sd): %(bargain)s"),
                name=character.name,
                dice=BARGAIN_DICE,
                bargain=bargain,
            )
        else:
            text = Words(gettext_noop("%(name)s takes no bonus die"), name=character.name)
        if act:
            text = Words(
                gettext_noop("%(text)s; pushes to act while incapacitated (%(stress)s stress)"),
                text=text,
                stress=PUSH_STRESS,
            )
        record(roll, by, text)
    return roll


def _assistable(participant: Character | None, roll: ActionRoll, viewer) -> None:
    helper = viewer.character
    require_fit(helper)
    if roll.kind != ActionRoll.Kind.GROUP:
        raise RuleError(gettext_noop("Only a group action has participants to assist."))
    if participant is None:
        raise RuleError(gettext_noop("Choose whom to assist."))
    participants = {int(pk) for pk in roll.group}
    rules.check_group_assist(participants, group_assists(roll), participant.pk, helper.pk)
    if roll.group[str(participant.pk)] is not None:
        raise RuleError(gettext_noop("%(name)s has already rolled."), name=participant.name)


def assist_group(
    *, by: Membership, roll: ActionRoll, participant: Character | None, foresight: bool = False
) -> ActionRoll:
    """A character not taking part helps one participant's roll (+1d, 1 stress at it, or
    none with Foresight)."""
    check = partial(_assistable, participant)
    with roll_step(roll, by=by, taken="group-assist", check=check) as (roll, viewer):
        helper = viewer.character
        if foresight:
            check_foresight(helper)
        entry = {**roll.group_bonuses.get(str(participant.pk), {}), "assister": helper.pk}
        if foresight:
            entry["foresight"] = True
        roll.group_bonuses = {**roll.group_bonuses, str(participant.pk): entry}
        roll.save(update_fields=["group_bonuses"])
        text = Words(
            gettext_noop("%(helper)s assists %(name)s (+%(dice)sd, with Foresight, no stress)")
            if foresight
            else gettext_noop(
                "%(helper)s assists %(name)s (+%(dice)sd, %(stress)s stress on their roll)"
            ),
            helper=helper.name,
            name=participant.name,
            dice=ASSIST_DICE,
            stress=ASSIST_STRESS,
        )
        record(roll, by, text)
    return roll


def add_group_ability(*, by: Membership, roll: ActionRoll, bonus: str, reason: str) -> ActionRoll:
    """A participant adds their ability's die (Ambush, Savage, Trust in Me, Daredevil's
    +1d: the GM grants it by its name, as on a single roll) to their own roll. The
    effect is the group's, one for everyone who rolled, so no ability adds to it here."""
    reason = reason.strip()[:120]
    if bonus != "dice" or not reason:
        raise RuleError(
            gettext_noop("In a group action an ability adds a die to your own roll: name it."),
        )
    with roll_step(roll, by=by, taken="ability", check=_unrolled) as (roll, viewer):
        character = viewer.character
        entry = roll.group_bonuses.get(str(character.pk), {})
        entry = {**entry, "ability_dice": rules.ABILITY_BONUS, "ability_reason": reason}
        roll.group_bonuses = {**roll.group_bonuses, str(character.pk): entry}
        roll.save(update_fields=["group_bonuses"])
        text = Words(
            gettext_noop("%(name)s: %(reason)s: +%(bonus)sd"),
            name=character.name,
            reason=reason,
            bonus=rules.ABILITY_BONUS,
        )
        record(roll, by, text)
    return roll


def _droppable(participant: Character, roll: ActionRoll, viewer) -> None:
    require(may_drop, viewer, participant)
    if str(participant.pk) not in roll.group:
        raise RuleError(gettext_noop("%(name)s is not in the group action."), name=participant.name)
    if participant.pk == roll.character_id:
        raise RuleError(
            gettext_noop("The leader does not leave their group action: cancel it instead.")
        )
    if roll.group[str(participant.pk)] is not None:
        raise RuleError(gettext_noop("%(name)s has already rolled."), name=participant.name)


def leave_group(*, by: Membership, roll: ActionRoll, participant: Character | None) -> ActionRoll:
    """A participant who has not rolled leaves (or the GM drops them): "If you don't roll,
    your character doesn't get the effects of the action" (004 §Lead a group action).
    Their bonus dice and their assister's help go with them, unpaid; if everyone left
    has rolled, the group's result is in."""
    if participant is None:
        raise RuleError(gettext_noop("Choose who leaves the group action."))
    check = partial(_droppable, participant)
    with roll_step(roll, by=by, taken="leave", check=check) as (roll, viewer):
        key = str(participant.pk)
        roll.group = {pk: dice for pk, dice in roll.group.items() if pk != key}
        roll.group_bonuses = {pk: e for pk, e in roll.group_bonuses.items() if pk != key}
        text = Words(
            gettext_noop("GM drops %(name)s from the group action: no roll, no effects")
            if viewer.is_gm
            else gettext_noop("%(name)s leaves the group action and does not roll"),
            name=participant.name,
        )
        changes = Changes()
        if all(v is not None for v in roll.group.values()):
            text = _settle(roll, changes, text)
        roll.save()
        record(roll, by, text, changes)
    return roll


# --- The dice ---


def _led(roll: ActionRoll, viewer) -> None:
    if roll.kind != ActionRoll.Kind.GROUP:
        raise RuleError(gettext_noop("Cohorts are led in a group action."))


def roll_cohort(*, by: Membership, roll: ActionRoll, cohort: Cohort | None,
                rng=actions.SYSTEM_RNG) -> ActionRoll:  # fmt: skip
    """The leader leads one of the crew's cohorts in the group action: "The cohort rolls
    its quality level" (000 §Lead a group action), before the last PC rolls. Its result
    counts for the group's best; it adds no stress to the leader's."""
    with roll_step(roll, by=by, taken="cohort", check=_led) as (roll, _):
        require_called(roll)  # its dice wait for the GM's call, as every roller's do
        if cohort is None or cohort.crew.table_id != roll.table_id:
            raise RuleError(gettext_noop("Choose one of the crew's cohorts."))
        if str(cohort.pk) in roll.cohorts:
            raise RuleError(gettext_noop("%(name)s has already rolled."), name=cohort)
        crew = cohort.crew
        blood_brothers = ability_rules.led_cohort_dice(crew.abilities)
        pool = blood_brothers + crew_rules.cohort_dice(
            cohort.quality(crew), cohort.harm, elite=bool(cohort.elite(crew))
        )
        note = Words(gettext_noop("%(cohort)s: %(goal)s"), cohort=cohort.named, goal=roll.goal)
        line = actions.record_roll(
            table_id=roll.table_id, roller=by.user, kind=RollKind.GROUP, pool=pool,
            summary=lambda result: log.headline(roll, result), note=note, rng=rng,
        )  # fmt: skip
        result = line.as_dice
        entry = {"name": str(cohort), "dice": [result.pool, *result.dice], "log": line.pk}
        roll.cohorts = {**roll.cohorts, str(cohort.pk): entry}
        roll.save(update_fields=["cohorts"])
        text = Words(
            gettext_noop("%(cohort)s rolls its quality, %(pool)sd: %(dice)s"),
            cohort=cohort.named,
            pool=result.pool,
            dice=log.faces(result.dice),
        )
        if blood_brothers:
            text = Joined(
                "",
                [
                    text,
                    Words(
                        gettext_noop(" (+%(dice)sd %(ability)s)"),
                        dice=blood_brothers,
                        ability=ability_rules.BONUS_NAMES[ability_rules.BLOOD_BROTHERS],
                    ),
                ],
            )
        record(roll, by, text)
    return roll


def _ready(roll: ActionRoll, viewer) -> None:
    require_ready(roll)
    _unrolled(roll, viewer)


def roll_dice(*, by: Membership, roll: ActionRoll, rng=actions.SYSTEM_RNG) -> ActionRoll:
    """One participant rolls their own dice, paying their push and their assister's
    stress now; the last roll settles the group's result and the leader's stress."""
    with roll_step(roll, by=by, taken="roll", check=_ready) as (roll, viewer):
        character = viewer.character
        character.refresh_from_db()
        require_fit(character)
        # Each participant acts, so each one's harm counts (001 §Harm), as in an action
        # roll; the flashback's cost is the leader's, paid when the group's result is in.
        terms = rules.resolve(**{**terms_of(roll, character), "flashback_cost": 0})
        line = log.roll_action_dice(roll, by=by, character=character, pool=terms.pool, rng=rng)
        result = line.as_dice
        changes = Changes()
        assister = group_assists(roll).get(character.pk)
        notes = changes.pay_at_the_roll(character, terms, assister)
        roll.group = {**roll.group, str(character.pk): [result.pool, *result.dice]}
        # Each participant's dice are a line of the log; the entry remembers which.
        entry = {**roll.group_bonuses.get(str(character.pk), {}), "log": line.pk}
        roll.group_bonuses = {**roll.group_bonuses, str(character.pk): entry}
        text = Words(
            gettext_noop("%(name)s rolls %(pool)sd: %(dice)s"),
            name=character.name,
            pool=result.pool,
            dice=log.faces(result.dice),
        )
        if all(v is not None for v in roll.group.values()):
            text = _settle(roll, changes, text)
        roll.save()
        record(roll, by, Joined("; ", [text, *notes]), changes)
    return roll


def _settle(roll: ActionRoll, changes: Changes, text: Words) -> Words:
    """Every participant has rolled: the group's best result counts for everyone who
    rolled, and the leader takes their stress. Returns the step's text with it."""
    rolled = [dice.Roll(v[0], tuple(v[1:])) for v in roll.group.values()]
    led = [dice.Roll(c["dice"][0], tuple(c["dice"][1:])) for c in roll.cohorts.values()]
    outcome = group_action(rolled, led)
    best = [*rolled, *led][outcome.best_index]
    # Synchronized counts the PCs' sixes: "on different characters' rolls".
    counted = ability_rules.synchronized(outcome.outcome, rolled, crew_abilities(roll.table_id))
    roll.pool, roll.dice, roll.outcome = best.pool, list(best.dice), counted
    # The group's line in the log is its best roll's: those are the dice that count.
    logs = [roll.group_bonuses[pk]["log"] for pk in roll.group]
    roll.log_id = [*logs, *(c["log"] for c in roll.cohorts.values())][outcome.best_index]
    roll.step = Step.CONSEQUENCES
    # A set up the leader drew on serves the whole group action (004 §Set up).
    setup = bonuses_of(roll)
    roll.position = rules.flow_position(roll.as_position, setup)
    roll.effect = rules.flow_effect(roll.as_effect, setup)
    if roll.flashback_cost:
        changes.stress(roll.character, roll.flashback_cost)
    text = Words(
        gettext_noop("%(text)s; the group's best is %(outcome)s"),
        text=text,
        outcome=Term(outcome.outcome.label),
    )
    if counted is not outcome.outcome:
        text = Words(
            gettext_noop("%(text)s (Synchronized: %(outcome)s)"),
            text=text,
            outcome=Term(counted.label),
        )
    # Expertise: the action recorded with the ability, on the leader's sheet.
    leader = Character.objects.get(pk=roll.character_id)
    expertise = ability_rules.leads_with_expertise(
        roll.action, leader.ability_choice(ability_rules.EXPERTISE)
    )
    stress = ability_rules.leader_stress(outcome.leader_stress, expertise=expertise)
    if stress:
        trauma = changes.stress(leader, stress)
        text = Words(
            gettext_noop("%(text)s; %(name)s leads and takes %(stress)s stress%(trauma)s"),
            text=text,
            name=leader.name,
            stress=stress,
            trauma=trauma,
        )
        if stress < outcome.leader_stress:
            text = Words(gettext_noop("%(text)s (Expertise)"), text=text)
    return text
