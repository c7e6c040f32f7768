"""Every step of the shared roll: one transaction each, the push on commit.

Each step is taken through rolls.changes.roll_step, which re-reads the roll inside its
transaction (a row lock on PostgreSQL; SQLite's IMMEDIATE transactions let one writer in
at a time) and asks who may act, whether the roll is at the right step and whether the
step is open; the step makes its changes through characters.actions and sessions.actions,
and writes a RollEvent with every field it changed (rolls.changes).
Undo reads those events back. Steps that break the rules raise RuleError with a message
for the table.
"""

from django.db import transaction
from django.utils.translation import gettext_noop

from blades.rules import abilities as ability_rules
from blades.rules import character as char_rules
from blades.rules import flow as rules
from blades.rules.errors import RuleError
from blades.rules.rolls import (
    ASSIST_DICE,
    ASSIST_STRESS,
    BARGAIN_DICE,
    PUSH_DICE,
    PUSH_EFFECT,
    Effect,
    Position,
)
from blades.rules.score import flashback_stress
from blades.rules.words import Joined, Term, Words
from characters import actions as sheet
from characters.models import Character
from sessions import actions
from sessions.models import Membership, Table

from . import derived, log
from .changes import STRESS_TAKEN, Changes, Step, record, require_fit, require_ready, roll_step
from .models import ActionRoll
from .undo import take_back_sheets

# "+1d and +1 effect": the pushes a roller asks for.
AND = gettext_noop(" and ")


def _terms(roll: ActionRoll) -> Words:
    return Words(
        gettext_noop("%(position)s position, %(effect)s effect"),
        position=Term(roll.as_position.label),
        effect=Term(roll.as_effect.label),
    )


def _require_action(roll: ActionRoll, viewer=None) -> None:
    """Also a check of roll_step (which hands it the viewer)."""
    if roll.kind != ActionRoll.Kind.ACTION:
        raise RuleError(gettext_noop("Bonus dice are for a single action roll."))


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
        raise RuleError(
            gettext_noop("Set up a teammate with +%(effect)s effect or improved position."),
            effect=rules.SETUP_EFFECT,
        )
    require_fit(character)
    if setup_for is not None:
        require_fit(setup_for)
    with transaction.atomic():
        # A proposal left hanging does not block the next one: it is cancelled.
        for stale in ActionRoll.objects.filter(character=character, step=Step.SETUP):
            _cancelled(stale, by, Words(gettext_noop("Replaced by a new roll.")))
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
            setup_from=derived.available_setup(character),
            group={str(character.pk): None} if group else {},
        )
        text = Words(
            gettext_noop("%(name)s leads a group action: %(action)s to %(goal)s")
            if group
            else gettext_noop("%(name)s rolls: %(action)s to %(goal)s"),
            name=character.name,
            # The action's English name is its msgid (characters.wording marks them all).
            action=Term(action.capitalize()),
            goal=roll.goal,
        )
        if flashback:
            text = Words(gettext_noop("%(text)s (flashback)"), text=text)
        record(roll, by, text)
    return roll


# --- 2. Position and effect -----------------------------------------------------------


def _uncalled(roll: ActionRoll, viewer) -> None:
    if roll.flashback and roll.flashback_cost is None:
        raise RuleError(gettext_noop("Set the flashback's stress cost with position and effect."))
    if roll.called:
        raise RuleError(gettext_noop("The GM has already called this roll."))


def set_terms(
    *,
    by: Membership,
    roll: ActionRoll,
    position: Position,
    effect: Effect,
    flashback_cost: int | None = None,
) -> ActionRoll:
    with roll_step(roll, by=by, taken="terms") as (roll, _):
        roll.position, roll.effect = Position(position), Effect(effect)
        roll.called = True
        text = Words(gettext_noop("GM sets %(terms)s"), terms=_terms(roll))
        if roll.flashback and flashback_cost is not None:
            roll.flashback_cost = flashback_stress(flashback_cost)
            text = Words(
                gettext_noop("%(text)s; the flashback costs %(stress)s stress"),
                text=text,
                stress=flashback_cost,
            )
        roll.save(update_fields=["position", "effect", "called", "flashback_cost"])
        record(roll, by, text)
    return roll


def accept_as_proposed(*, by: Membership, roll: ActionRoll) -> ActionRoll:
    """The GM's call in one tap: the position and effect the roll was proposed with."""
    with roll_step(roll, by=by, taken="as-proposed", check=_uncalled) as (roll, _):
        roll.called = True
        roll.save(update_fields=["called"])
        text = Words(gettext_noop("GM takes the roll as proposed: %(terms)s"), terms=_terms(roll))
        record(roll, by, text)
    return roll


def _unasked(roll: ActionRoll, viewer) -> None:
    if roll.trade_asked:
        raise RuleError(gettext_noop("The GM has yet to answer the trade already asked for."))


def _asked(roll: ActionRoll, viewer) -> None:
    if not roll.trade_asked:
        raise RuleError(gettext_noop("Nobody asked to trade."))


def ask_trade(*, by: Membership, roll: ActionRoll, direction: str = "effect") -> ActionRoll:
    """Ask the GM to trade position for effect ("effect") or effect for position."""
    if direction not in rules.TRADES:
        raise RuleError(gettext_noop("Trade position for effect, or effect for position."))
    with roll_step(roll, by=by, taken="ask-trade", check=_unasked) as (roll, _):
        roll.trade_asked, roll.trade_for = True, direction
        roll.save(update_fields=["trade_asked", "trade_for"])
        trade = Term(rules.TRADES[direction])
        record(roll, by, Words(gettext_noop("Asks to trade %(trade)s"), trade=trade))
    return roll


def answer_trade(*, by: Membership, roll: ActionRoll, accept: bool) -> ActionRoll:
    taken = "accept-trade" if accept else "refuse-trade"
    with roll_step(roll, by=by, taken=taken, check=_asked) as (roll, _):
        roll.trade_asked = False
        text = Words(gettext_noop("GM refuses the trade"))
        if accept:
            position, effect = rules.trade(roll.as_position, roll.as_effect, roll.trade_for)
            roll.position, roll.effect = position, effect
            text = Words(gettext_noop("GM accepts the trade: %(terms)s"), terms=_terms(roll))
        roll.save(update_fields=["trade_asked", "position", "effect"])
        record(roll, by, text)
    return roll


# --- 3. Bonus dice --------------------------------------------------------------------


def _unassisted(roll: ActionRoll, viewer) -> None:
    require_fit(viewer.character)
    _require_action(roll)
    if roll.assister_id is not None:
        raise RuleError(gettext_noop("Someone is already assisting; only one can."))


def assist(*, by: Membership, roll: ActionRoll, foresight: bool = False) -> ActionRoll:
    """One teammate helps the roll: +1d, 1 stress at the roll, or none with Foresight."""
    with roll_step(roll, by=by, taken="assist", check=_unassisted) as (roll, viewer):
        helper = viewer.character
        if foresight:
            check_foresight(helper)
        roll.assister, roll.assist_foresight = helper, foresight
        roll.save(update_fields=["assister", "assist_foresight"])
        text = Words(
            gettext_noop("%(name)s assists with Foresight (+%(dice)sd, no stress)")
            if foresight
            else gettext_noop("%(name)s assists (+%(dice)sd, %(stress)s stress on the roll)"),
            name=helper.name,
            dice=ASSIST_DICE,
            stress=ASSIST_STRESS,
        )
        record(roll, by, text)
    return roll


def check_foresight(helper: Character) -> None:
    """Refused unless `helper` has Foresight with a free assist left this score; the
    helper's row is locked so that two assists at once count each other."""
    Character.objects.select_for_update().filter(pk=helper.pk).exists()
    ability_rules.check_foresight(
        ability_rules.FORESIGHT in helper.ability_keys, derived.foresight_used(helper)
    )


def set_push(
    *,
    by: Membership,
    roll: ActionRoll,
    dice_: bool,
    effect: bool,
    act: bool = False,
    special: bool = False,
) -> ActionRoll:
    """Push for +1d, +1 effect, and to act while incapacitated (`act`): 2 stress each,
    paid when the dice are rolled; with `special`, one of them is paid with the roller's
    special armor instead (an ability that grants it, the box not yet marked)."""
    with roll_step(roll, by=by, taken="push", check=_require_action) as (roll, _):
        if dice_ and roll.bargain_accepted:
            raise RuleError(
                gettext_noop("The devil's bargain already gives the die: no push for dice.")
            )
        if special:
            if not (dice_ or effect or act):
                raise RuleError(gettext_noop("Choose the push your special armor pays for."))
            check_special_armor(roll, Character.objects.get(pk=roll.character_id))
        roll.push_dice, roll.push_effect, roll.push_act = dice_, effect, act
        roll.push_special = special
        roll.save(update_fields=["push_dice", "push_effect", "push_act", "push_special"])
        pushes = (
            (Words(gettext_noop("+%(dice)sd"), dice=PUSH_DICE), dice_),
            (Words(gettext_noop("+%(effect)s effect"), effect=PUSH_EFFECT), effect),
            (Words(gettext_noop("acting while incapacitated")), act),
        )
        pushes = Joined(Term(AND), [words for words, on in pushes if on])
        text = Words(gettext_noop("Pushes for %(pushes)s"), pushes=pushes)
        text = text if pushes else Words(gettext_noop("Does not push"))
        if special:
            text = Words(
                gettext_noop("%(text)s; one push paid with special armor, not stress"), text=text
            )
        record(roll, by, text)
    return roll


def check_special_armor(roll: ActionRoll, character: Character) -> None:
    """Refused unless the roller's special armor may pay this roll's push (Mastermind's
    only when gathering information: derived.special_push_ability)."""
    if derived.special_push_ability(roll, character):
        return
    if derived.special_armor_ability(character):
        raise RuleError(
            gettext_noop("Mastermind's special armor pays a push only to gather information.")
        )
    raise RuleError(
        gettext_noop("%(name)s has no special armor left to push with."), name=character.name
    )


def ability_stress(
    *, by: Membership, roll: ActionRoll, ability: str, extras: tuple[str, ...] = ()
) -> ActionRoll:
    """Emberdeath (the crew's) or Ghost Veil (the roller's own): the roller uses it and
    takes its stress now (blades.rules.abilities.ability_stress); what it does in the
    fiction is the GM's."""
    with roll_step(roll, by=by, taken="ability-stress", check=_require_action) as (roll, _):
        character = Character.objects.get(pk=roll.character_id)
        stress = ability_rules.ability_stress(
            ability,
            abilities=character.ability_keys,
            crew_abilities=derived.crew_abilities(roll.table_id),
            extras=extras,
        )
        changes = Changes()
        trauma = changes.stress(character, stress)
        named = [Term(ability_rules.GHOST_VEIL_EXTRAS[extra]) for extra in sorted(set(extras))]
        text = Words(
            gettext_noop("%(ability)s%(extras)s: %(stress)s"),
            ability=ability_rules.BONUS_NAMES[ability],
            extras=Words(gettext_noop(" (%(extras)s)"), extras=Joined(", ", named))
            if named
            else "",
            stress=Words(STRESS_TAKEN, name=character.name, stress=stress, trauma=trauma),
        )
        record(roll, by, text, changes)
    return roll


def rooks_gambit(*, by: Membership, roll: ActionRoll) -> ActionRoll:
    """Rook's Gambit: the roller takes 2 stress now and the roll uses their best action's
    rating; the goal still says what they are doing."""
    with roll_step(roll, by=by, taken="rooks-gambit", check=_require_action) as (roll, _):
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
        text = Words(
            gettext_noop("Rook's Gambit: rolls %(action)s for %(performed)s; %(stress)s"),
            action=Term(roll.action.capitalize()),
            performed=Term(performed.capitalize()),
            stress=Words(
                STRESS_TAKEN,
                name=character.name,
                stress=ability_rules.ROOKS_GAMBIT_STRESS,
                trauma=trauma,
            ),
        )
        record(roll, by, text, changes)
    return roll


def _unstruck(roll: ActionRoll, viewer) -> None:
    _require_action(roll)
    if roll.bargain_accepted:
        raise RuleError(gettext_noop("A bargain is already struck."))


def _on_offer(roll: ActionRoll, viewer) -> None:
    if not roll.bargain:
        raise RuleError(gettext_noop("Nobody has offered a bargain."))
    if roll.push_dice:
        raise RuleError(
            gettext_noop("You pushed for the die: take the bargain or the push, not both.")
        )
    if roll.bargain_accepted:
        raise RuleError(gettext_noop("A bargain is already struck."))


def offer_bargain(*, by: Membership, roll: ActionRoll, text: str) -> ActionRoll:
    text = text.strip()
    if not text:
        raise RuleError(gettext_noop("Say what the bargain is."))
    with roll_step(roll, by=by, taken="offer-bargain", check=_unstruck) as (roll, _):
        roll.bargain, roll.bargain_by_id = text[:200], by.user_id
        roll.save(update_fields=["bargain", "bargain_by"])
        text = Words(gettext_noop("Offers a devil's bargain: %(bargain)s"), bargain=roll.bargain)
        record(roll, by, text)
    return roll


def accept_bargain(*, by: Membership, roll: ActionRoll) -> ActionRoll:
    with roll_step(roll, by=by, taken="accept-bargain", check=_on_offer) as (roll, _):
        roll.bargain_accepted = True
        roll.save(update_fields=["bargain_accepted"])
        text = Words(
            gettext_noop("Accepts the devil's bargain (+%(dice)sd): %(bargain)s"),
            dice=BARGAIN_DICE,
            bargain=roll.bargain,
        )
        record(roll, by, text)
    return roll


def add_ability_bonus(*, by: Membership, roll: ActionRoll, bonus: str, reason: str) -> ActionRoll:
    reason = reason.strip()
    if bonus not in ("dice", "effect") or not reason:
        raise RuleError(
            gettext_noop("Name the ability and whether it gives +%(bonus)sd or +%(bonus)s effect."),
            bonus=rules.ABILITY_BONUS,
        )
    with roll_step(roll, by=by, taken="ability", check=_require_action) as (roll, _):
        roll.ability_dice = rules.ABILITY_BONUS if bonus == "dice" else 0
        roll.ability_effect = rules.ABILITY_BONUS if bonus == "effect" else 0
        roll.ability_reason = reason[:120]
        roll.save(update_fields=["ability_dice", "ability_effect", "ability_reason"])
        text = Words(
            gettext_noop("%(reason)s: +%(bonus)sd")
            if bonus == "dice"
            else gettext_noop("%(reason)s: +%(bonus)s effect"),
            reason=roll.ability_reason,
            bonus=rules.ABILITY_BONUS,
        )
        record(roll, by, text)
    return roll


# --- 4. The dice ----------------------------------------------------------------------


def _ready_alone(roll: ActionRoll, viewer) -> None:
    if roll.kind == ActionRoll.Kind.GROUP:
        raise RuleError(gettext_noop("In a group action each participant rolls their own dice."))
    require_ready(roll)


def roll_dice(*, by: Membership, roll: ActionRoll, rng=actions.SYSTEM_RNG) -> ActionRoll:
    """The roller rolls (each participant of a group action rolls in flow_group)."""
    with roll_step(roll, by=by, taken="roll", check=_ready_alone) as (roll, _):
        character = Character.objects.get(pk=roll.character_id)
        require_fit(character)
        terms = rules.resolve(**derived.terms_of(roll, character))
        changes = Changes()
        if roll.push_special:  # marked now: the armor may have gone since the push was set
            check_special_armor(roll, character)
            changes.on_character(character, sheet.use_armor, box="special")
        roll.position, roll.effect = terms.position, terms.effect
        line = log.roll_action_dice(roll, by=by, character=character, pool=terms.pool, rng=rng)
        result = line.as_dice
        notes = changes.pay_at_the_roll(character, terms, roll.assister_id)
        roll.pool, roll.dice, roll.outcome = result.pool, list(result.dice), result.outcome
        roll.step, roll.log = Step.CONSEQUENCES, line
        roll.save()
        text = Words(
            gettext_noop("Rolls %(pool)sd at %(position)s / %(effect)s: %(dice)s: %(outcome)s"),
            pool=result.pool,
            position=Term(roll.as_position.label),
            effect=Term(roll.as_effect.label),
            dice=log.faces(result.dice),
            outcome=Term(result.outcome.label),
        )
        record(roll, by, Joined("; ", [text, *notes]), changes)
    return roll


# --- Cancel before the dice ----------------------------------------------------------


def cancel(*, by: Membership, roll: ActionRoll) -> ActionRoll:
    with roll_step(roll, by=by, taken="cancel") as (roll, _):
        _cancelled(roll, by, Words(gettext_noop("Cancelled before the dice")))
    return roll


def _cancelled(roll: ActionRoll, by: Membership, text: Words) -> None:
    """A cancelled roll has no result, so it leaves no cost: what its steps took (Rook's
    Gambit's stress; a half-rolled group action's pushes, assists and desperate xp) is
    taken back as undo takes back a finished roll's changes. The dice already rolled stay
    in the log, as every roll does."""
    changes = Changes()
    notes = take_back_sheets(roll, changes)
    roll.step = Step.CANCELLED
    roll.save(update_fields=["step"])
    if changes:
        text = Words(gettext_noop("%(text)s; what it cost is taken back"), text=text)
    if notes:
        text = Words(
            gettext_noop("%(text)s, except: %(notes)s"), text=text, notes=Joined("; ", notes)
        )
    record(roll, by, text, changes)
