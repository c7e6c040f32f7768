"""The action roll as the table builds it together (RULES.md "Action roll", "Teamwork").

rolls.py reads one roll; this module answers the questions that come up while a
roll is being put together and after it: what a position-for-effect trade does,
what the bonus dice and effect add up to, what a set-up carries over, and what
resisting does to a harm. Pure functions on plain values, like the rest of
blades.rules.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from blades.rules.character import Harm, attribute_of, check_can_act, harm_penalty, harm_rows
from blades.rules.errors import RuleError, _
from blades.rules.rolls import (
    ASSIST_STRESS,
    PUSH_EFFECT,
    PUSH_STRESS,
    Effect,
    Position,
    action_pool,
    desperate_xp,
    push_stress,
    raise_effect,
    reduce_effect,
)
from blades.rules.score import FLASHBACK_STRESS_MAX

# Best to worst, so "worse" is one step right.
POSITION_LADDER = (Position.CONTROLLED, Position.RISKY, Position.DESPERATE)
# The costs the GM picks a flashback's from: the one bound of blades.rules.score.
FLASHBACK_COSTS = tuple(range(FLASHBACK_STRESS_MAX + 1))
SETUP_EFFECT = 1  # a set up's "+1 effect" for the teammate who follows through
# A special ability's bonus as the flow offers it: one die or one level of effect.
ABILITY_BONUS = 1
SETUP_BENEFITS = {"effect": f"+{SETUP_EFFECT} effect", "position": "Improved position"}
# What a complication may do: tick a clock 1-3 segments, or give the crew 1-2 heat.
COMPLICATION_TICKS = (1, 2, 3)
COMPLICATION_HEAT = (1, 2)
# The harm level the GM's menu opens on follows the position: "you suffer lesser harm"
# when controlled (000 §Controlled), harm when risky, and "Since the position was
# desperate, the GM inflicts severe harm" (001 §Resistance). The GM may pick another.
HARM_BY_POSITION = {Position.CONTROLLED: 1, Position.RISKY: 2, Position.DESPERATE: 3}


def harm_default(position: Position) -> int:
    return HARM_BY_POSITION[Position(position)]


# A complication's ticks follow the consequence's severity (rolls.ActionOutcome): "one
# tick on a clock for a minor complication or two ticks for a standard complication ...
# three ticks on a clock for a serious complication" (000 §Complication). The GM's card
# opens on them; the GM may pick another.
TICKS_BY_SEVERITY = {"minor": 1, "standard": 2, "severe": 3}


def complication_ticks_default(severity: str) -> int:
    return TICKS_BY_SEVERITY[severity]


def worsen_position(position: Position) -> Position:
    index = POSITION_LADDER.index(position)
    return POSITION_LADDER[min(index + 1, len(POSITION_LADDER) - 1)]


def improve_position(position: Position) -> Position:
    return POSITION_LADDER[max(POSITION_LADDER.index(position) - 1, 0)]


TRADES = {"effect": _("position for effect"), "position": _("effect for position")}


def trade(position: Position, effect: Effect, direction: str) -> tuple[Position, Effect]:
    """ "You might trade position for effect, or vice versa" (000 §Effect): "effect" takes
    a worse position for more effect, "position" takes less effect for a better position."""
    if direction == "effect":
        return trade_position_for_effect(position, effect)
    if direction == "position":
        return trade_effect_for_position(position, effect)
    raise RuleError(_("Trade position for effect, or effect for position."))


def trade_effect_for_position(position: Position, effect: Effect) -> tuple[Position, Effect]:
    """The player takes one level less effect for a better position."""
    if position is Position.CONTROLLED:
        raise RuleError(_("The position is already controlled: there is nothing to gain."))
    if effect is Effect.ZERO:
        raise RuleError(_("The effect is already zero: there is nothing left to trade."))
    return improve_position(position), reduce_effect(effect)


def trade_position_for_effect(position: Position, effect: Effect) -> tuple[Position, Effect]:
    """The player takes a worse position for one more level of effect."""
    if position is Position.DESPERATE:
        raise RuleError(_("The position is already desperate: there is nothing left to trade."))
    if effect is Effect.EXTREME:
        raise RuleError(_("The effect is already extreme."))
    return worsen_position(position), raise_effect(effect)


@dataclass(frozen=True)
class Bonuses:
    """Everything added to a roll before the dice, as the table agreed it."""

    assist: bool = False
    assist_free: bool = False  # the assister pays no stress (Foresight)
    push_dice: bool = False
    bargain: bool = False
    push_effect: bool = False
    push_act: bool = False  # pushing to act at all while incapacitated
    push_special: bool = False  # one push paid with special armor instead of stress
    ability_dice: int = 0
    ability_effect: int = 0
    setup_effect: bool = False
    setup_position: bool = False

    def __post_init__(self) -> None:
        if self.push_dice and self.bargain:
            raise RuleError(_("Push for a die or take the devil's bargain, not both."))
        if not all(0 <= n <= ABILITY_BONUS for n in (self.ability_dice, self.ability_effect)):
            raise RuleError(_("An ability adds one die or one level of effect."))


def flow_pool(rating: int, harm_penalty: int, bonuses: Bonuses) -> int:
    """Dice for the roll: rating, assist, push or bargain, ability, less harm's -1d."""
    return action_pool(
        rating,
        assist=bonuses.assist,
        push=bonuses.push_dice,
        bargain=bonuses.bargain,
        extra_dice=bonuses.ability_dice + harm_penalty,
    )


def flow_effect(effect: Effect, bonuses: Bonuses, harm_effect: int = 0) -> Effect:
    """The GM's effect, with pushes, abilities and a set up, and lesser harm's reduced
    effect (`harm_effect`, -1 or 0, from character.harm_penalty)."""
    levels = (
        PUSH_EFFECT * int(bonuses.push_effect)
        + bonuses.ability_effect
        + SETUP_EFFECT * int(bonuses.setup_effect)
        + harm_effect
    )
    return raise_effect(effect, levels)


def flow_position(position: Position, bonuses: Bonuses) -> Position:
    return improve_position(position) if bonuses.setup_position else position


def roller_stress(bonuses: Bonuses, flashback_cost: int = 0) -> int:
    """Stress the roller pays when the dice are rolled: pushes and a flashback's cost.

    A push paid with special armor costs none: "If you use this ability to push yourself,
    you get one of the benefits (+1d, +1 effect, act despite severe harm) but you don't
    take 2 stress" (000, Battleborn; the other special armor abilities alike)."""
    if flashback_cost < 0:
        raise RuleError(_("A flashback cannot cost less than nothing."))
    pushes = push_stress(bonuses.push_dice, bonuses.push_effect, bonuses.push_act)
    if bonuses.push_special and pushes:
        pushes -= PUSH_STRESS
    return pushes + flashback_cost


def assist_stress(bonuses: Bonuses) -> int:
    return ASSIST_STRESS if bonuses.assist and not bonuses.assist_free else 0


@dataclass(frozen=True)
class RollTerms:
    """What an action roll comes to as its dice are cast: the pool, the position and
    effect it is rolled at, and what the roll costs (the roller's stress, the assister's,
    a desperate roll's xp in the action's attribute)."""

    pool: int
    position: Position
    effect: Effect
    stress: int
    assist_stress: int
    xp_track: str
    xp: int


def roll_terms(
    *,
    action: str,
    rating: int,
    harm: Mapping[int, Sequence[str]],
    position: Position,
    effect: Effect,
    bonuses: Bonuses,
    flashback_cost: int = 0,
) -> RollTerms:
    """The terms as the table sees them before the dice: the GM's position and effect
    with the bonuses, set up and harm's penalties worked in."""
    penalty = harm_penalty(harm)
    position = flow_position(position, bonuses)
    return RollTerms(
        pool=flow_pool(rating, penalty.dice, bonuses),
        position=position,
        effect=flow_effect(effect, bonuses, penalty.effect),
        stress=roller_stress(bonuses, flashback_cost),
        assist_stress=assist_stress(bonuses),
        xp_track=attribute_of(action),
        xp=desperate_xp(position),
    )


def resolve(*, harm: Mapping[int, Sequence[str]], bonuses: Bonuses, **terms) -> RollTerms:
    """The roll about to be cast (the arguments of roll_terms): refused when harm keeps
    the character from acting without help or a push to act (001 §Harm), else its terms."""
    check_can_act(harm, helped=bonuses.assist, pushed=bonuses.push_act)
    return roll_terms(harm=harm, bonuses=bonuses, **terms)


def resisted_harm_level(level: int, avoided: bool, reductions: int = 1) -> int:
    """The harm left after resisting: one level less, or none (0) if avoided.

    Heavy armor reduces it once more: "If Silas was wearing heavy armor, he could mark a
    second armor box and reduce the harm again" (001 §Armor), so `reductions` is 2."""
    return 0 if avoided else max(0, level - reductions)


def remove_harm(harm: Mapping[int, Sequence[str]], level: int, description: str) -> Harm:
    """Take one harm (the last one written with this description) off a row."""
    rows = harm_rows(harm)
    entries = list(rows[level])
    if description not in entries:
        raise RuleError(
            _("There is no “%(harm)s” at level %(level)s."), harm=description, level=level
        )
    index = len(entries) - 1 - entries[::-1].index(description)
    del entries[index]
    rows[level] = tuple(entries)
    return rows


# --- Group action: each participant's own bonus dice ----------------------------------


def group_member_bonuses(
    *,
    push: bool,
    bargain: bool,
    assisted: bool,
    push_act: bool = False,
    free: bool = False,
    ability_dice: int = 0,
) -> Bonuses:
    """A participant of a group action may push for +1d or take a devil's bargain (never
    both), push to act while incapacitated, add an ability's die to their own roll, and
    be helped by one assister who is not taking part (for no stress with Foresight:
    `free`). The effect is the group's, one for everyone who rolled: no ability adds to
    it from one participant's roll."""
    return Bonuses(
        assist=assisted, assist_free=free, push_dice=push, bargain=bargain, push_act=push_act,
        ability_dice=ability_dice,
    )  # fmt: skip


def check_group_assist(
    participants: Collection[int], assists: Mapping[int, int], participant: int, assister: int
) -> None:
    """One assister per participant's roll, from outside the group, helping only one.

    `assists` maps each assisted participant to their assister."""
    if assister in participants:
        raise RuleError(_("Someone taking part in the group action cannot also assist it."))
    if participant not in participants:
        raise RuleError(_("Assist someone taking part in the group action."))
    if participant in assists:
        raise RuleError(_("That participant already has an assister; only one can help a roll."))
    if assister in assists.values():
        raise RuleError(_("You already assist someone in this group action."))
