"""Every step of the shared roll: one transaction each, the push on commit.

Each step re-reads the roll inside its transaction (a row lock on PostgreSQL; SQLite's
IMMEDIATE transactions let one writer in at a time), checks who may act and whether
the roll is at the right step, makes its changes through characters.actions and
sessions.actions, and writes a RollEvent with every field it changed. Undo reads those
events back. Steps that break the rules raise RuleError with a message for the table.
"""

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_noop

from blades.rules import abilities as ability_rules
from blades.rules import character as char_rules
from blades.rules import crew as crew_rules
from blades.rules import flow as rules
from blades.rules.dice import Outcome
from blades.rules.errors import RuleError
from blades.rules.rolls import (
    ASSIST_DICE,
    ASSIST_STRESS,
    PUSH_DICE,
    PUSH_EFFECT,
    Effect,
    Position,
    desperate_xp,
)
from blades.rules.score import flashback_stress
from characters import actions as sheet
from characters.live import push_character
from characters.models import Character
from crews.models import Crew
from sessions import actions, audience
from sessions.models import Clock, Membership, Table

from . import live, log
from .access import (
    require_cancel,
    require_gm_of,
    require_member,
    require_roller,
    require_teammate,
)
from .models import ActionRoll, RollEvent

Step = ActionRoll.Step
# What a roll may change on a sheet, and so what undo puts back.
TRACKED = (
    "stress",
    "trauma_pending",
    "harm",
    "healing",
    "armor_used",
    "heavy_used",
    "special_used",
    *sheet.XP_FIELDS.values(),
    *sheet.ADVANCE_FIELDS.values(),
)


class Changes(list):
    """The field changes one step makes, as RollEvent.changes stores them."""

    def on_character(self, character: Character, change, **kwargs):
        # Locked, so the recorded change is this step's alone and undo can reverse it.
        before = Character.objects.select_for_update().filter(pk=character.pk).values(*TRACKED)
        before = before.get()
        try:
            result = change(character=character, **kwargs)
        except RuleError:
            raise
        except ValueError as error:  # a sheet value the arithmetic cannot take
            raise RuleError(str(error)) from error
        after = Character.objects.filter(pk=character.pk).values(*TRACKED).get()
        self.extend(
            {
                "character": character.pk,
                "who": character.name,
                "field": f,
                "before": before[f],
                "after": after[f],
            }
            for f in TRACKED
            if before[f] != after[f]
        )
        return result

    def stress(self, character: Character, amount: int) -> str:
        """Mark stress; returns a note for the log when it overflowed into trauma."""
        self.on_character(character, sheet.mark_stress, amount=amount)
        overflowed = any(
            c.get("character") == character.pk and c["field"] == "trauma_pending" for c in self
        )
        return ", trauma!" if overflowed else ""

    def set_fields(self, character: Character, **fields) -> None:
        self.on_character(character, _write_character, **fields)

    def on_crew(self, crew: Crew, change, **kwargs) -> None:
        """Heat and wanted level through the crew's own books (crews.actions)."""
        books = Crew.objects.select_for_update().filter(pk=crew.pk).values("heat", "wanted")
        before = books.get()
        change(crew=crew, **kwargs)
        after = Crew.objects.filter(pk=crew.pk).values("heat", "wanted").get()
        self.extend(
            {"crew": crew.pk, "who": crew.name, "field": f, "before": before[f], "after": after[f]}
            for f in ("heat", "wanted")
            if before[f] != after[f]
        )

    def heat_moved(self, crew: Crew) -> int:
        """How far these changes moved the crew along the heat track (rules.crew)."""
        delta = {"heat": 0, "wanted": 0}
        for change in self:
            if change.get("crew") == crew.pk:
                delta[change["field"]] += change["after"] - change["before"]
        return crew_rules.heat_steps(delta["heat"], delta["wanted"])

    def tick(self, clock: Clock, by: int) -> int:
        """Tick (or untick) a clock within its segments; returns how far it moved."""
        before = Clock.objects.filter(pk=clock.pk).values_list("filled", flat=True).get()
        clock = actions.tick_clock(clock=clock, by=by)
        if clock.filled != before:
            self.append(
                {
                    "clock": clock.pk,
                    "who": audience.ref("clock", clock),
                    "field": "filled",
                    "before": before,
                    "after": clock.filled,
                }
            )
        return clock.filled - before


def stored_harm(harm: char_rules.Harm) -> dict[str, list[str]]:
    return {str(level): list(entries) for level, entries in harm.items()}


def _write_character(*, character: Character, **fields) -> Character:
    # A new revision tells open sheets the change is news to them.
    Character.objects.filter(pk=character.pk).update(**fields, revision=F("revision") + 1)
    character.refresh_from_db()
    push_character(character)
    return character


def locked_roll(roll: ActionRoll) -> ActionRoll:
    return (
        ActionRoll.objects.select_for_update(of=("self",))
        .select_related("character")
        .get(pk=roll.pk)
    )


def record(roll: ActionRoll, by: Membership, text: str, changes=()) -> None:
    RollEvent.objects.create(roll=roll, actor_id=by.user_id, text=text[:300], changes=list(changes))
    live.push_flow(roll)


def require_step(roll: ActionRoll, *steps: str) -> None:
    if roll.step not in steps:
        if roll.step == Step.SETUP:
            raise RuleError(gettext_noop("The dice have not been rolled yet."))
        if roll.step == Step.CONSEQUENCES:
            raise RuleError(gettext_noop("The dice are already rolled."))
        raise RuleError(
            gettext_noop("This roll is %(step)s."), step=roll.get_step_display().lower()
        )


def require_called(roll: ActionRoll) -> None:
    """The GM sets position and effect, then the dice (001 §Action Roll): no roll before
    the GM's call, or the GM's word that the roll goes as proposed."""
    if not roll.called:
        raise RuleError(gettext_noop("Waiting for the GM to set position and effect."))


def require_fit(character: Character) -> None:
    """Only an active character who has not marked their last trauma rolls or is chosen
    for a roll."""
    if not character.active:
        raise RuleError(
            gettext_noop("%(name)s is %(state)s."),
            name=character.name,
            state=character.get_state_display().lower(),
        )
    char_rules.check_fit_to_roll(character.name, character.traumas, character.trauma_max)


def _require_action(roll: ActionRoll) -> None:
    if roll.kind != ActionRoll.Kind.ACTION:
        raise RuleError(gettext_noop("Bonus dice are for a single action roll."))


def bonuses_of(roll: ActionRoll) -> rules.Bonuses:
    setup = roll.setup_from
    return rules.Bonuses(
        assist=roll.assister_id is not None,
        push_dice=roll.push_dice,
        bargain=roll.bargain_accepted,
        push_effect=roll.push_effect,
        push_act=roll.push_act,
        ability_dice=roll.ability_dice,
        ability_effect=roll.ability_effect,
        setup_effect=bool(setup and setup.setup_benefit == "effect"),
        setup_position=bool(setup and setup.setup_benefit == "position"),
    )


def group_bonuses_of(roll: ActionRoll, participant: int) -> rules.Bonuses:
    """What one participant of a group action adds to their own roll."""
    entry = roll.group_bonuses.get(str(participant), {})
    return rules.group_member_bonuses(
        push=entry.get("push", False),
        bargain=bool(entry.get("bargain")),
        assisted=entry.get("assister") is not None,
        push_act=entry.get("act", False),
    )


def group_assists(roll: ActionRoll) -> dict[int, int]:
    """Each assisted participant of a group action, with their assister."""
    return {
        int(pk): entry["assister"]
        for pk, entry in roll.group_bonuses.items()
        if entry.get("assister") is not None
    }


def crew_abilities(table_id: int) -> list[str]:
    """The keys of the table's crew abilities (none before the crew is made)."""
    crew = Crew.objects.filter(table_id=table_id).values_list("abilities", flat=True)
    return crew.first() or []


def effect_of(roll: ActionRoll, character: Character, bonuses: rules.Bonuses) -> Effect:
    """The effect the roll has, lesser harm's reduced effect included."""
    harm_effect = char_rules.harm_penalty(character.felt_harm).effect
    return rules.flow_effect(roll.as_effect, bonuses, harm_effect)


def pool_of(roll: ActionRoll, character: Character) -> int:
    rating = getattr(character, roll.action)
    penalty = char_rules.harm_dice_penalty(character.felt_harm)
    if roll.kind == ActionRoll.Kind.GROUP:
        return rules.flow_pool(rating, penalty, group_bonuses_of(roll, character.pk))
    return rules.flow_pool(rating, penalty, bonuses_of(roll))


def involved(roll: ActionRoll) -> list[int]:
    """The characters taking part: roller, assister, group and its assisters."""
    ids = [
        roll.character_id,
        roll.assister_id,
        *(int(k) for k in roll.group),
        *group_assists(roll).values(),
    ]
    return [pk for pk in dict.fromkeys(ids) if pk]


def _available_setup(character: Character) -> ActionRoll | None:
    """The table's latest set up by a teammate, if it succeeded and this character has not
    drawn on it yet: it serves "any member of the team who follows through ... multiple
    follow-up actions ... including someone leading a group action" (004 §Set up), each
    member once. The teammate it named is only who the setter had in mind."""
    latest = (
        ActionRoll.objects.filter(table_id=character.table_id, step=Step.DONE)
        .exclude(setup_benefit="")
        .order_by("-finished", "-pk")
        .first()
    )
    if (
        latest is None
        or latest.character_id == character.pk
        or latest.outcome not in (Outcome.CRITICAL, Outcome.SUCCESS, Outcome.PARTIAL)
    ):
        return None
    drawn = ActionRoll.objects.filter(
        setup_from=latest, character=character, step__in=[Step.CONSEQUENCES, Step.DONE]
    )
    return None if drawn.exists() else latest


# --- 1. The player states the goal and the action -------------------------------------


def start_roll(
    *,
    by: Membership,
    character: Character,
    goal: str,
    action: str,
    group: bool = False,
    gather_information: bool = False,
    flashback: bool = False,
    setup_for: Character | None = None,
    setup_benefit: str = "",
) -> ActionRoll:
    if character.owner_id != by.user_id or character.table_id != by.table_id:
        raise RuleError(gettext_noop("Roll for your own character."))
    if action not in char_rules.ACTIONS:
        raise RuleError(gettext_noop("Choose an action."))
    if setup_for is not None and (
        setup_for.pk == character.pk or setup_benefit not in rules.SETUP_BENEFITS
    ):
        benefits = " or ".join(b.lower() for b in rules.SETUP_BENEFITS.values())
        raise RuleError(gettext_noop("Set up a teammate with %(benefits)s."), benefits=benefits)
    require_fit(character)
    if setup_for is not None:
        require_fit(setup_for)
    with transaction.atomic():
        # A proposal left hanging does not block the next one: it is cancelled.
        for stale in ActionRoll.objects.filter(character=character, step=Step.SETUP):
            stale.step = Step.CANCELLED
            stale.save(update_fields=["step"])
            record(stale, by, "Replaced by a new roll.")
        kind = ActionRoll.Kind.GROUP if group else ActionRoll.Kind.ACTION
        # The score's first action roll starts at the engagement roll's position.
        opening = Table.objects.select_for_update().values_list("opening_position", flat=True)
        position = opening.get(pk=character.table_id) or Position.RISKY
        Table.objects.filter(pk=character.table_id).update(opening_position="")
        roll = ActionRoll.objects.create(
            table_id=character.table_id,
            kind=kind,
            position=position,
            started_by_id=by.user_id,
            character=character,
            goal=goal.strip()[:200],
            action=action,
            gather_information=gather_information,
            flashback=flashback,
            setup_for=setup_for,
            setup_benefit=setup_benefit if setup_for else "",
            setup_from=_available_setup(character),
            group={str(character.pk): None} if group else {},
        )
        what = "leads a group action" if group else "rolls"
        text = f"{character.name} {what}: {action.capitalize()} to {roll.goal}"
        if flashback:
            text += " (flashback)"
        record(roll, by, text)
    return roll


# --- 2. Position and effect -----------------------------------------------------------


def set_terms(
    *,
    by: Membership,
    roll: ActionRoll,
    position: Position,
    effect: Effect,
    flashback_cost: int | None = None,
) -> ActionRoll:
    require_gm_of(by, roll)
    with transaction.atomic():
        roll = locked_roll(roll)
        require_step(roll, Step.SETUP)
        roll.position, roll.effect = Position(position), Effect(effect)
        roll.called = True
        text = f"GM sets {roll.as_position.label} position, {roll.as_effect.label} effect"
        if roll.flashback and flashback_cost is not None:
            roll.flashback_cost = flashback_stress(flashback_cost)
            text += f"; the flashback costs {flashback_cost} stress"
        roll.save(update_fields=["position", "effect", "called", "flashback_cost"])
        record(roll, by, text)
    return roll


def accept_as_proposed(*, by: Membership, roll: ActionRoll) -> ActionRoll:
    """The GM's call in one tap: the position and effect the roll was proposed with."""
    require_gm_of(by, roll)
    with transaction.atomic():
        roll = locked_roll(roll)
        require_step(roll, Step.SETUP)
        if roll.flashback and roll.flashback_cost is None:
            raise RuleError(
                gettext_noop("Set the flashback's stress cost with position and effect.")
            )
        roll.called = True
        roll.save(update_fields=["called"])
        terms = f"{roll.as_position.label} position, {roll.as_effect.label} effect"
        record(roll, by, f"GM takes the roll as proposed: {terms}")
    return roll


def ask_trade(*, by: Membership, roll: ActionRoll, direction: str = "effect") -> ActionRoll:
    """Ask the GM to trade position for effect ("effect") or effect for position."""
    require_roller(by, roll)
    if direction not in rules.TRADES:
        raise RuleError(gettext_noop("Trade position for effect, or effect for position."))
    with transaction.atomic():
        roll = locked_roll(roll)
        require_step(roll, Step.SETUP)
        roll.trade_asked, roll.trade_for = True, direction
        roll.save(update_fields=["trade_asked", "trade_for"])
        record(roll, by, f"Asks to trade {rules.TRADES[direction]}")
    return roll


def answer_trade(*, by: Membership, roll: ActionRoll, accept: bool) -> ActionRoll:
    require_gm_of(by, roll)
    with transaction.atomic():
        roll = locked_roll(roll)
        require_step(roll, Step.SETUP)
        if not roll.trade_asked:
            raise RuleError(gettext_noop("Nobody asked to trade."))
        roll.trade_asked = False
        text = "GM refuses the trade"
        if accept:
            position, effect = rules.trade(roll.as_position, roll.as_effect, roll.trade_for)
            roll.position, roll.effect = position, effect
            text = f"GM accepts the trade: {position.label} position, {effect.label} effect"
        roll.save(update_fields=["trade_asked", "position", "effect"])
        record(roll, by, text)
    return roll


# --- 3. Bonus dice --------------------------------------------------------------------


def assist(*, by: Membership, roll: ActionRoll) -> ActionRoll:
    helper = require_teammate(by, roll)
    require_fit(helper)
    with transaction.atomic():
        roll = locked_roll(roll)
        require_step(roll, Step.SETUP)
        _require_action(roll)
        if roll.assister_id is not None:
            raise RuleError(gettext_noop("Someone is already assisting; only one can."))
        roll.assister = helper
        roll.save(update_fields=["assister"])
        record(
            roll, by, f"{helper.name} assists (+{ASSIST_DICE}d, {ASSIST_STRESS} stress on the roll)"
        )
    return roll


def set_push(
    *, by: Membership, roll: ActionRoll, dice_: bool, effect: bool, act: bool = False
) -> ActionRoll:
    """Push for +1d, +1 effect, and to act while incapacitated (`act`): 2 stress each,
    paid when the dice are rolled."""
    require_roller(by, roll)
    with transaction.atomic():
        roll = locked_roll(roll)
        require_step(roll, Step.SETUP)
        _require_action(roll)
        if dice_ and roll.bargain_accepted:
            raise RuleError(
                gettext_noop("The devil's bargain already gives the die: no push for dice.")
            )
        roll.push_dice, roll.push_effect, roll.push_act = dice_, effect, act
        roll.save(update_fields=["push_dice", "push_effect", "push_act"])
        words = (
            (f"+{PUSH_DICE}d", dice_),
            (f"+{PUSH_EFFECT} effect", effect),
            ("acting while incapacitated", act),
        )
        pushes = [w for w, on in words if on]
        record(roll, by, f"Pushes for {' and '.join(pushes)}" if pushes else "Does not push")
    return roll


def rooks_gambit(*, by: Membership, roll: ActionRoll) -> ActionRoll:
    """Rook's Gambit: the roller takes 2 stress now and the roll uses their best action's
    rating; the goal still says what they are doing."""
    require_roller(by, roll)
    with transaction.atomic():
        roll = locked_roll(roll)
        require_step(roll, Step.SETUP)
        _require_action(roll)
        character = Character.objects.get(pk=roll.character_id)
        if "rooks_gambit" not in character.ability_keys:
            raise RuleError(
                gettext_noop("%(name)s does not have Rook's Gambit."), name=character.name
            )
        performed = roll.action
        roll.action = ability_rules.rooks_gambit(performed, character.ratings)
        roll.save(update_fields=["action"])
        changes = Changes()
        trauma = changes.stress(character, ability_rules.ROOKS_GAMBIT_STRESS)
        record(
            roll,
            by,
            f"Rook's Gambit: rolls {roll.action.capitalize()} for {performed.capitalize()}; "
            f"{character.name} takes {ability_rules.ROOKS_GAMBIT_STRESS} stress{trauma}",
            changes,
        )
    return roll


def offer_bargain(*, by: Membership, roll: ActionRoll, text: str) -> ActionRoll:
    require_member(by, roll)
    text = text.strip()
    if not text:
        raise RuleError(gettext_noop("Say what the bargain is."))
    with transaction.atomic():
        roll = locked_roll(roll)
        require_step(roll, Step.SETUP)
        _require_action(roll)
        if roll.bargain_accepted:
            raise RuleError(gettext_noop("A bargain is already struck."))
        roll.bargain, roll.bargain_by_id = text[:200], by.user_id
        roll.save(update_fields=["bargain", "bargain_by"])
        record(roll, by, f"Offers a devil's bargain: {roll.bargain}")
    return roll


def accept_bargain(*, by: Membership, roll: ActionRoll) -> ActionRoll:
    require_roller(by, roll)
    with transaction.atomic():
        roll = locked_roll(roll)
        require_step(roll, Step.SETUP)
        if not roll.bargain:
            raise RuleError(gettext_noop("Nobody has offered a bargain."))
        if roll.push_dice:
            raise RuleError(
                gettext_noop("You pushed for the die: take the bargain or the push, not both.")
            )
        roll.bargain_accepted = True
        roll.save(update_fields=["bargain_accepted"])
        record(roll, by, f"Accepts the devil's bargain (+1d): {roll.bargain}")
    return roll


def add_ability_bonus(*, by: Membership, roll: ActionRoll, bonus: str, reason: str) -> ActionRoll:
    require_roller(by, roll)
    reason = reason.strip()
    if bonus not in ("dice", "effect") or not reason:
        raise RuleError(
            gettext_noop("Name the ability and whether it gives +%(bonus)sd or +%(bonus)s effect."),
            bonus=rules.ABILITY_BONUS,
        )
    with transaction.atomic():
        roll = locked_roll(roll)
        require_step(roll, Step.SETUP)
        _require_action(roll)
        roll.ability_dice = rules.ABILITY_BONUS if bonus == "dice" else 0
        roll.ability_effect = rules.ABILITY_BONUS if bonus == "effect" else 0
        roll.ability_reason = reason[:120]
        roll.save(update_fields=["ability_dice", "ability_effect", "ability_reason"])
        given = "d" if bonus == "dice" else " effect"
        record(roll, by, f"{reason}: +{rules.ABILITY_BONUS}{given}")
    return roll


def pay_at_the_roll(
    changes: Changes,
    roll: ActionRoll,
    character: Character,
    stress: int,
    bonuses: rules.Bonuses,
    assister_id: int | None,
) -> list[str]:
    """What rolling costs, paid when the dice fall: the roller's stress (pushes, a
    flashback), the assister's stress, and a desperate roll's xp. Notes for the log."""
    notes = []
    if stress:
        notes.append(f"{character.name} takes {stress} stress{changes.stress(character, stress)}")
    if bonuses.assist:
        helper = Character.objects.get(pk=assister_id)
        cost = rules.assist_stress(bonuses)
        trauma = changes.stress(helper, cost)
        notes.append(f"{helper.name} takes {cost} stress for assisting{trauma}")
    if xp := desperate_xp(roll.as_position):
        attribute = char_rules.attribute_of(roll.action)
        changes.on_character(character, sheet.mark_xp, track=attribute, amount=xp)
        notes.append(f"{character.name} marks {attribute.capitalize()} xp")
    return notes


# --- 4. The dice ----------------------------------------------------------------------


def roll_dice(*, by: Membership, roll: ActionRoll, rng=actions.SYSTEM_RNG) -> ActionRoll:
    """The roller rolls (each participant of a group action rolls in flow_group)."""
    with transaction.atomic():
        roll = locked_roll(roll)
        if roll.kind == ActionRoll.Kind.GROUP:
            raise RuleError(
                gettext_noop("In a group action each participant rolls their own dice.")
            )
        require_roller(by, roll)
        require_step(roll, Step.SETUP)
        if roll.flashback and roll.flashback_cost is None:
            raise RuleError(gettext_noop("The GM sets the flashback's stress cost first."))
        require_called(roll)
        character = Character.objects.get(pk=roll.character_id)
        require_fit(character)
        bonuses = bonuses_of(roll)
        char_rules.check_can_act(
            character.felt_harm, helped=bonuses.assist, pushed=bonuses.push_act
        )
        roll.position = rules.flow_position(roll.as_position, bonuses)
        roll.effect = effect_of(roll, character, bonuses)
        line = log.roll_action_dice(
            roll, by=by, character=character, pool=pool_of(roll, character), rng=rng
        )
        result = line.as_dice
        changes = Changes()
        stress = rules.roller_stress(bonuses, roll.flashback_cost or 0)
        notes = pay_at_the_roll(changes, roll, character, stress, bonuses, roll.assister_id)
        roll.pool, roll.dice, roll.outcome = result.pool, list(result.dice), result.outcome
        roll.step, roll.log = Step.CONSEQUENCES, line
        roll.save()
        text = (
            f"Rolls {result.pool}d at {roll.as_position.label} / {roll.as_effect.label}: "
            f"{', '.join(map(str, result.dice))}: {result.outcome.label}"
        )
        record(roll, by, "; ".join([text, *notes]), changes)
    return roll


# --- Cancel before the dice ----------------------------------------------------------


def cancel(*, by: Membership, roll: ActionRoll) -> ActionRoll:
    require_cancel(by, roll)
    with transaction.atomic():
        roll = locked_roll(roll)
        require_step(roll, Step.SETUP)
        roll.step = Step.CANCELLED
        roll.save(update_fields=["step"])
        record(roll, by, "Cancelled before the dice")
    return roll
