"""Steps 5 and 6 of the shared roll, and what the GM does around it: consequences,
the target clock, resisting, protecting, closing the roll, fortune rolls.

Same contract as actions.py: one transaction per step, a RollEvent with every change.
"""

from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from blades.rules import abilities as ability_rules
from blades.rules import character as char_rules
from blades.rules import flow as rules
from blades.rules.dice import Outcome
from blades.rules.errors import RuleError, Term
from blades.rules.rolls import (
    CONSEQUENCE_KINDS,
    action_outcome,
    effect_ticks,
    fortune_pool,
    raise_effect,
    reduce_effect,
    resistance_stress,
)
from blades.rules.words import Joined, Words
from characters import actions as sheet
from characters.models import Character
from crews import actions as crew_actions
from crews.models import Crew
from sessions import actions, audience
from sessions.models import Clock, Membership, Table

from . import log
from .access import require_may, viewer_of
from .changes import Changes, Step, locked_roll, record, roll_step, stored_harm
from .derived import crew_abilities, involved, took_daredevil
from .models import ActionRoll, Consequence

# The armor box a player marks, in the record's own lower case.
ARMOR_BOXES = {
    "armor": gettext_noop("armor"),
    "heavy": gettext_noop("heavy armor"),
    "special": gettext_noop("special armor"),
}

# --- 5. Consequences and the target clock ---------------------------------------------


def add_consequence(
    *,
    by: Membership,
    roll: ActionRoll,
    kind: str,
    description: str = "",
    level: int | None = None,
    clock: Clock | None = None,
    ticks: int = 0,
    heat: int = 0,
    attribute: str = "",
    character: Character | None = None,
    supernatural: bool = False,
) -> Consequence:
    """The GM inflicts one consequence from the menu of the roll's position and result.
    A complication ticks one of the table's clocks 1-3, gives the crew 1-2 heat, or is
    told in words alone (no clock, no heat). `supernatural`: the GM judges it a
    supernatural threat (a Cult's Anointed resists it with +1d)."""
    with roll_step(roll, by=by, taken="consequence", at=Step.CONSEQUENCES) as (roll, _):
        menu = action_outcome(roll.as_position, Outcome(roll.outcome)).consequences
        if kind not in menu:
            raise RuleError(
                gettext_noop("%(kind)s is not on this roll's menu."),
                kind=Term(CONSEQUENCE_KINDS.get(kind, kind)),
            )
        if attribute and attribute not in char_rules.ATTRIBUTES:
            raise RuleError(gettext_noop("Name Insight, Prowess or Resolve for the resistance."))
        target = character or roll.character
        if target is None or target.pk not in involved(roll):
            raise RuleError(gettext_noop("Choose someone who took part in the roll."))
        consequence = Consequence(
            roll=roll,
            kind=kind,
            character=target,
            description=description.strip()[:120],
            resist_attribute=attribute,
            supernatural=supernatural,
        )
        changes = Changes()
        text = Words(gettext_noop("GM: %(kind)s"), kind=Term(CONSEQUENCE_KINDS[kind]))
        text = _inflict(
            consequence, changes, text, level=level, clock=clock, ticks=ticks, heat=heat
        )
        if consequence.description and kind != "harm":
            text = Words(
                gettext_noop("%(text)s (%(description)s)"),
                text=text,
                description=consequence.description,
            )
        if supernatural:
            text = Words(gettext_noop("%(text)s (supernatural)"), text=text)
        consequence.save()
        record(roll, by, text, changes)
    return consequence


def _inflict(
    consequence: Consequence, changes: Changes, text: Words, *, level, clock, ticks, heat
) -> Words:
    """What the consequence does (to a sheet, a clock, the crew's heat or the roll's
    effect), made through `changes`; `text` with it told."""
    kind = consequence.kind
    if kind == "harm":
        return _harm(consequence, changes, text, level)
    if kind == "complication" and heat:
        if clock is not None or heat not in rules.COMPLICATION_HEAT:
            raise RuleError(
                gettext_noop("A complication ticks a clock or adds 1 or 2 heat, not both.")
            )
        return _heat(consequence, changes, text, heat)
    if kind == "complication" and clock is not None:
        return _complication_clock(consequence, changes, text, clock, ticks)
    if kind == "complication" and not consequence.description:
        # "your lockpicks snap": the complication is the story alone, so it says it.
        raise RuleError(
            gettext_noop("Describe the complication, or tick a clock or add heat for it.")
        )
    if kind == "reduced_effect":
        roll = consequence.roll
        roll.effect = reduce_effect(roll.as_effect)
        roll.save(update_fields=["effect"])
        return Words(
            gettext_noop("%(text)s: now %(effect)s"), text=text, effect=Term(roll.as_effect.label)
        )
    return text


def _harm(consequence: Consequence, changes: Changes, text: Words, level: int | None) -> Words:
    if level not in char_rules.HARM_SLOTS or not consequence.description:
        raise RuleError(
            gettext_noop("Harm needs a level (1-%(max)s) and a description."),
            max=max(char_rules.HARM_SLOTS),
        )
    target = consequence.character
    landed = changes.on_character(
        target, sheet.add_harm, level=level, description=consequence.description
    )
    consequence.harm_level, consequence.harm_landed = level, landed.level
    text = Words(
        gettext_noop("%(text)s level %(level)s to %(name)s: %(description)s"),
        text=text,
        level=level,
        name=target.name,
        description=consequence.description,
    )
    if landed.level != level:
        text = Words(
            gettext_noop("%(text)s (the row is full: level %(level)s)"),
            text=text,
            level=landed.level,
        )
    return text


def _heat(consequence: Consequence, changes: Changes, text: Words, heat: int) -> Words:
    crew = Crew.objects.filter(table_id=consequence.roll.table_id).first()
    if crew is None:
        raise RuleError(
            gettext_noop("This table has no crew to take the heat; tick a clock instead.")
        )
    changes.on_crew(crew, crew_actions.add_heat, amount=heat)
    consequence.heat = changes.heat_moved(crew)
    return Words(
        gettext_noop("%(text)s: %(crew)s +%(heat)s heat"), text=text, crew=crew.name, heat=heat
    )


def _complication_clock(
    consequence: Consequence, changes: Changes, text: Words, clock: Clock, ticks: int
) -> Words:
    if clock.table_id != consequence.roll.table_id or ticks not in rules.COMPLICATION_TICKS:
        raise RuleError(
            gettext_noop(
                "A complication ticks one of this table's clocks 1, 2 or 3, "
                "or adds 1 or 2 heat to the crew."
            )
        )
    changes.tick(clock, ticks)
    consequence.clock, consequence.ticks = clock, ticks
    # A reference, not the name: the clock may be hidden from the players.
    return Words(
        gettext_noop("%(text)s: %(clock)s +%(ticks)s"),
        text=text,
        clock=audience.ref("clock", clock),
        ticks=ticks,
    )


def tick_target(*, by: Membership, roll: ActionRoll, clock: Clock) -> ActionRoll:
    """A success fills the target clock by its effect; a critical, one level more."""
    with roll_step(roll, by=by, taken="tick", at=Step.CONSEQUENCES) as (roll, _):
        if clock.table_id != roll.table_id:
            raise RuleError(gettext_noop("Choose one of this table's clocks."))
        if not action_outcome(roll.as_position, Outcome(roll.outcome)).succeeded:
            raise RuleError(gettext_noop("The roll did not succeed: nothing to tick."))
        if roll.target_clock_id is not None:
            raise RuleError(gettext_noop("The target clock is already ticked for this roll."))
        ticks = effect_ticks(roll.as_effect, critical=roll.outcome == Outcome.CRITICAL)
        changes = Changes()
        changes.tick(clock, ticks)
        roll.target_clock = clock
        roll.save(update_fields=["target_clock"])
        text = Words(
            gettext_noop("GM ticks %(clock)s by %(ticks)s (%(effect)s)"),
            clock=audience.ref("clock", clock),
            ticks=ticks,
            effect=Term(roll.as_effect.label),
        )
        record(roll, by, text, changes)
    return roll


# --- 6. Resist, armor, protect --------------------------------------------------------


def _unresisted(consequence: Consequence, viewer=None) -> None:
    """Also a check of roll_step (which hands it the viewer)."""
    if consequence.resisted:
        raise RuleError(gettext_noop("This consequence has already been resisted."))


def protect(*, by: Membership, consequence: Consequence) -> Consequence:
    """A teammate steps in and suffers the consequence instead (and may resist it)."""
    with roll_step(
        consequence, by=by, taken="protect", at=Step.CONSEQUENCES, check=_unresisted
    ) as (consequence, viewer):
        guard = viewer.character
        changes = Changes()
        if consequence.kind == "harm":
            victim = consequence.character
            victim.refresh_from_db()
            harm = rules.remove_harm(victim.harm, consequence.harm_landed, consequence.description)
            changes.set_fields(victim, harm=stored_harm(harm))
            landed = changes.on_character(
                guard,
                sheet.add_harm,
                level=consequence.harm_level,
                description=consequence.description,
            )
            consequence.harm_landed = landed.level
        previous = consequence.character.name
        consequence.protected_by = consequence.character = guard
        consequence.save(update_fields=["protected_by", "character", "harm_landed"])
        text = Words(
            gettext_noop("%(guard)s protects %(name)s and takes it"),
            guard=guard.name,
            name=previous,
        )
        record(consequence.roll, by, text, changes)
    return consequence


def _guardable(consequence: Consequence, viewer) -> None:
    _unresisted(consequence)
    if ability_rules.MASTERMIND not in viewer.character.ability_keys:
        raise RuleError(
            gettext_noop("%(name)s does not have Mastermind."), name=viewer.character.name
        )


def guard(*, by: Membership, consequence: Consequence) -> Consequence:
    """Mastermind: "Spend your special armor to protect a teammate (even from afar, via
    past preparation)" (the app's ability text): the Mastermind marks their special
    armor against a teammate's consequence, which the teammate keeps; the GM then judges
    what the armor did, as for armor of one's own."""
    with roll_step(consequence, by=by, taken="guard", at=Step.CONSEQUENCES, check=_guardable) as (
        consequence,
        viewer,
    ):
        mastermind = viewer.character
        changes = Changes()
        changes.on_character(mastermind, sheet.use_armor, box="special")
        consequence.resisted = Consequence.Resisted.ARMOR
        consequence.protected_by = mastermind
        consequence.save(update_fields=["resisted", "protected_by"])
        text = Words(
            gettext_noop("%(guard)s spends special armor (Mastermind) to protect %(name)s"),
            guard=mastermind.name,
            name=consequence.character.name,
        )
        record(consequence.roll, by, text, changes)
    return consequence


def _resistible(consequence: Consequence, viewer) -> None:
    _unresisted(consequence)
    if not consequence.resist_attribute:
        raise RuleError(gettext_noop("The GM names the attribute to resist with."))


def resist(*, by: Membership, consequence: Consequence, rng=actions.SYSTEM_RNG) -> Consequence:
    """Roll the attribute the GM named: 6 minus the best die in stress, a critical clears 1."""
    with roll_step(consequence, by=by, taken="resist", at=Step.CONSEQUENCES, check=_resistible) as (
        consequence,
        _,
    ):
        character = consequence.character
        character.refresh_from_db()
        bonus = ability_rules.resistance_bonus(
            consequence.resist_attribute,
            character.ability_keys,
            crew_abilities(character.table_id),
            protecting=consequence.protected_by_id == character.pk,
            daredevil=took_daredevil(consequence.roll, character),
            supernatural=consequence.supernatural,
        )
        pool = char_rules.attribute_rating(character.ratings, consequence.resist_attribute)
        pool += sum(dice for _, dice in bonus)
        consequence.resist_log = log.roll_resistance(consequence, by=by, pool=pool, rng=rng)
        result = consequence.resist_log.as_dice
        stress = resistance_stress(result)
        changes = Changes()
        trauma = changes.stress(character, stress)
        consequence.resisted = Consequence.Resisted.ROLL
        consequence.resist_dice = [result.pool, *result.dice]
        consequence.save(update_fields=["resisted", "resist_dice", "resist_log"])
        text = Words(
            gettext_noop(
                "%(name)s resists with %(attribute)s%(bonus)s: %(pool)sd, %(dice)s; "
                "%(cost)s%(trauma)s"
            ),
            name=character.name,
            attribute=Term(consequence.resist_attribute.capitalize()),
            bonus=Joined(
                "",
                [
                    # The ability's English name is its msgid (the rules mark it).
                    Words(gettext_noop(" (+%(dice)sd %(ability)s)"), dice=dice, ability=Term(name))
                    if dice > 0
                    else Words(
                        gettext_noop(" (-%(dice)sd %(ability)s)"), dice=-dice, ability=Term(name)
                    )
                    for name, dice in bonus
                ],
            ),
            pool=result.pool,
            dice=log.faces(result.dice),
            cost=Words(gettext_noop("clears %(stress)s stress"), stress=-stress)
            if stress < 0
            else Words(gettext_noop("takes %(stress)s stress"), stress=stress),
            trauma=trauma,
        )
        record(consequence.roll, by, text, changes)
    return consequence


def _again(consequence: Consequence, box: str) -> bool:
    """The heavy box, on harm that armor already reduced."""
    return box == "heavy" and consequence.heavy_armor_reduces_again


def _armor_open(box: str, consequence: Consequence, viewer) -> None:
    if not _again(consequence, box):
        _unresisted(consequence)


def use_armor(*, by: Membership, consequence: Consequence, box: str = "armor") -> Consequence:
    """Mark an armor box instead of resisting; the GM then judges what it did. On harm
    that armor already reduced, the heavy box reduces it one more level at once ("he
    could mark a second armor box and reduce the harm again", 001 §Armor)."""
    check = partial(_armor_open, box)
    with roll_step(consequence, by=by, taken="armor", at=Step.CONSEQUENCES, check=check) as (
        consequence,
        _,
    ):
        again = _again(consequence, box)
        changes = Changes()
        changes.on_character(consequence.character, sheet.use_armor, box=box)
        box_named = Term(ARMOR_BOXES[box])
        if again:
            victim = consequence.character
            victim.refresh_from_db()
            harm = rules.remove_harm(victim.harm, consequence.harm_landed, consequence.description)
            level = rules.resisted_harm_level(consequence.harm_level, False, reductions=2)
            if level:
                landed = char_rules.add_harm(harm, level, consequence.description)
                harm, consequence.harm_landed = landed.harm, landed.level
            else:
                consequence.result = Consequence.Result.AVOIDED
            changes.set_fields(victim, harm=stored_harm(harm))
            consequence.save(update_fields=["result", "harm_landed"])
            text = Words(
                gettext_noop("%(name)s marks %(box)s: reduced again"),
                name=victim.name,
                box=box_named,
            )
            record(consequence.roll, by, text, changes)
            return consequence
        consequence.resisted = Consequence.Resisted.ARMOR
        consequence.save(update_fields=["resisted"])
        text = Words(
            gettext_noop("%(name)s marks %(box)s"), name=consequence.character.name, box=box_named
        )
        record(consequence.roll, by, text, changes)
    return consequence


def _judgeable(consequence: Consequence, viewer) -> None:
    if not consequence.resisted or consequence.result:
        raise RuleError(gettext_noop("Judge a consequence once, after it was resisted."))


def judge_resistance(*, by: Membership, consequence: Consequence, avoided: bool) -> Consequence:
    """The GM says what resisting did: one level less, or nothing at all."""
    taken = "avoided" if avoided else "reduced"
    with roll_step(consequence, by=by, taken=taken, at=Step.CONSEQUENCES, check=_judgeable) as (
        consequence,
        _,
    ):
        roll = consequence.roll
        changes = Changes()
        if consequence.kind == "harm":
            victim = consequence.character
            victim.refresh_from_db()
            harm = rules.remove_harm(victim.harm, consequence.harm_landed, consequence.description)
            level = rules.resisted_harm_level(consequence.harm_level, avoided)
            if level:
                landed = char_rules.add_harm(harm, level, consequence.description)
                harm, consequence.harm_landed = landed.harm, landed.level
            changes.set_fields(victim, harm=stored_harm(harm))
        elif consequence.kind == "complication" and consequence.clock:
            changes.tick(consequence.clock, -(consequence.ticks if avoided else 1))
        elif consequence.kind == "complication" and consequence.heat:
            crew = Crew.objects.get(table_id=roll.table_id)
            steps = consequence.heat if avoided else 1
            changes.on_crew(crew, crew_actions.unwind_heat, steps=steps)
        elif consequence.kind == "reduced_effect":
            roll = locked_roll(roll)
            roll.effect = raise_effect(roll.as_effect)
            roll.save(update_fields=["effect"])
        consequence.result = Consequence.Result.AVOIDED if avoided else Consequence.Result.REDUCED
        consequence.save(update_fields=["result", "harm_landed"])
        text = Words(
            gettext_noop("GM: %(kind)s %(result)s"),
            kind=Term(CONSEQUENCE_KINDS[consequence.kind]),
            result=Term(log.RESISTED[consequence.result]),
        )
        record(roll, by, text, changes)
    return consequence


# --- Finish (undo is in flow_undo) -------------------------------------------------------------


def finish(*, by: Membership, roll: ActionRoll) -> ActionRoll:
    with roll_step(roll, by=by, taken="finish", at=Step.CONSEQUENCES) as (roll, _):
        roll.step, roll.finished = Step.DONE, timezone.now()
        roll.save(update_fields=["step", "finished"])
        record(roll, by, Words(gettext_noop("GM closes the roll")))
        log.close(roll)
    return roll


# --- Fortune and gather information by the GM -----------------------------------------


def fortune_roll(
    *,
    by: Membership,
    table: Table,
    goal: str,
    trait: int,
    advantages: int = 0,
    disadvantages: int = 0,
    secret: bool = False,
    gather_information: bool = False,
    rng=actions.SYSTEM_RNG,
) -> ActionRoll:
    require_may(viewer_of(by), table, "fortune")
    try:
        pool = fortune_pool(trait, advantages, disadvantages)
    except ValueError as error:
        raise RuleError(gettext_noop("Trait and advantages cannot be negative.")) from error
    goal = goal.strip()[:200]
    with transaction.atomic():
        line = log.roll_fortune(
            by=by,
            goal=goal,
            gather_information=gather_information,
            secret=secret,
            pool=pool,
            rng=rng,
        )
        result = line.as_dice
        roll = ActionRoll.objects.create(
            table=table,
            kind=ActionRoll.Kind.FORTUNE,
            started_by_id=by.user_id,
            goal=goal,
            gather_information=gather_information,
            secret=secret,
            log=line,
            pool=result.pool,
            dice=list(result.dice),
            outcome=result.outcome,
            step=Step.DONE,
            finished=timezone.now(),
        )
        text = Words(
            gettext_noop("GM rolls fortune, %(pool)sd: %(dice)s: %(outcome)s"),
            pool=pool,
            dice=log.faces(result.dice),
            outcome=Term(result.outcome.label),
        )
        record(roll, by, text)
    return roll
