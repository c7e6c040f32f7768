"""What each kind of roll means at the table (RULES.md "Roll types", "Downtime").

The engine reads dice into results; the judgment calls (position, effect, which
consequence) stay with the people at the table, so this module only reports the
options a result opens up.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from blades.rules.dice import Outcome, Roll
from blades.rules.errors import RuleError, _
from blades.rules.words import Joined, Term, Words, ngettext

ASSIST_STRESS = 1
PUSH_STRESS = 2
# What each bonus adds to a roll (001 §Pushing Yourself, §Assist, §Devil's Bargain): a
# push gives one die or one level of effect, an assist and a bargain one die each.
ASSIST_DICE = 1
PUSH_DICE = 1
PUSH_EFFECT = 1
BARGAIN_DICE = 1


# Worst to best; a result's place here is its rank.
_OUTCOME_LADDER = (Outcome.BAD, Outcome.PARTIAL, Outcome.SUCCESS, Outcome.CRITICAL)


def outcome_rank(outcome: Outcome) -> int:
    return _OUTCOME_LADDER.index(outcome)


# The most levels a result can rise: the worst to a critical.
OUTCOME_RISE_MAX = len(_OUTCOME_LADDER) - 1


def raise_outcome(outcome: Outcome, levels: int) -> Outcome:
    """Each coin spent after a downtime roll lifts the result one step, up to critical."""
    if levels < 0:
        raise ValueError("an outcome can only be raised")
    return _OUTCOME_LADDER[min(outcome_rank(outcome) + levels, OUTCOME_RISE_MAX)]


# --- Position and effect ---------------------------------------------------


class Position(StrEnum):
    CONTROLLED = "controlled"
    RISKY = "risky"
    DESPERATE = "desperate"

    @property
    def label(self) -> str:
        return _POSITION_LABELS[self]


# Kept outside the class: a dict attribute on an enum would become a member. Marked for
# the catalog, as every label here: the Django layer reads them in the reader's language.
_POSITION_LABELS = {
    Position.CONTROLLED: _("Controlled"),
    Position.RISKY: _("Risky"),
    Position.DESPERATE: _("Desperate"),
}


class Effect(IntEnum):
    ZERO = 0
    LIMITED = 1
    STANDARD = 2
    GREAT = 3
    EXTREME = 4

    @property
    def key(self) -> str:
        return self.name.lower()

    @property
    def label(self) -> str:
        return _EFFECT_LABELS[self]


_EFFECT_LABELS = {
    Effect.ZERO: _("Zero"),
    Effect.LIMITED: _("Limited"),
    Effect.STANDARD: _("Standard"),
    Effect.GREAT: _("Great"),
    Effect.EXTREME: _("Extreme"),
}


def raise_effect(effect: Effect, levels: int = 1) -> Effect:
    return Effect(max(Effect.ZERO, min(Effect.EXTREME, effect + levels)))


def reduce_effect(effect: Effect, levels: int = 1) -> Effect:
    return raise_effect(effect, -levels)


def effect_ticks(effect: Effect, critical: bool = False) -> int:
    """Clock segments an action fills.

    A critical lifts the effect one level first. Extreme is the top level the
    rules name, so an extreme critical stays at extreme (4 ticks) rather than
    inventing a fifth level.
    """
    if critical:
        effect = raise_effect(effect)
    return int(effect)


DESPERATE_XP = 1  # "mark xp in the attribute of the action you rolled" once, when desperate


def desperate_xp(position: Position) -> int:
    return DESPERATE_XP if position is Position.DESPERATE else 0


# --- Action roll -----------------------------------------------------------

CONSEQUENCE_KINDS = {
    "harm": _("Harm"),
    "complication": _("Complication"),
    "reduced_effect": _("Reduced effect"),
    "worse_position": _("Worse position"),
    "lost_opportunity": _("Lost opportunity"),
}


@dataclass(frozen=True)
class ActionOutcome:
    """One cell of the action roll table.

    ``consequences`` are the kinds the GM may pick from (none on a 6 or a
    critical). ``severity`` grades them: minor when controlled, standard when
    risky, severe when desperate, and None when there is no consequence. A
    controlled 1-3 offers only pressing on from a risky position, so it is
    graded like a risky consequence: standard.
    """

    outcome: Outcome
    position: Position
    text: str
    consequences: tuple[str, ...]
    severity: str | None
    succeeded: bool


_ACTION_CELLS = {
    (Position.CONTROLLED, Outcome.PARTIAL): (
        _("You hesitate: withdraw and try another way, or do it with a minor consequence."),
        ("complication", "reduced_effect", "harm", "worse_position"),
        "minor",
    ),
    (Position.CONTROLLED, Outcome.BAD): (
        _("You falter: press on from a risky position, or withdraw and try another way."),
        ("worse_position",),
        "standard",
    ),
    (Position.RISKY, Outcome.PARTIAL): (
        _("You do it, but there is a consequence."),
        ("harm", "complication", "reduced_effect", "worse_position"),
        "standard",
    ),
    (Position.RISKY, Outcome.BAD): (
        _("Things go badly."),
        ("harm", "complication", "worse_position", "lost_opportunity"),
        "standard",
    ),
    (Position.DESPERATE, Outcome.PARTIAL): (
        _("You do it, but there is a serious consequence."),
        ("harm", "complication", "reduced_effect"),
        "severe",
    ),
    (Position.DESPERATE, Outcome.BAD): (
        _("It's the worst outcome."),
        ("harm", "complication", "lost_opportunity"),
        "severe",
    ),
}


def action_outcome(position: Position, outcome: Outcome) -> ActionOutcome:
    if outcome is Outcome.CRITICAL:
        text = _("You do it with increased effect.")
        return ActionOutcome(outcome, position, text, (), None, True)
    if outcome is Outcome.SUCCESS:
        return ActionOutcome(outcome, position, _("You do it."), (), None, True)
    text, consequences, severity = _ACTION_CELLS[position, outcome]
    return ActionOutcome(
        outcome, position, text, consequences, severity, succeeded=outcome is Outcome.PARTIAL
    )


def action_pool(
    rating: int,
    *,
    assist: bool = False,
    push: bool = False,
    bargain: bool = False,
    extra_dice: int = 0,
) -> int:
    """Dice for an action roll: the one sum behind both the roll and the number its button
    shows.

    ``extra_dice`` covers abilities that add dice and harm that takes one away,
    so it may be negative; a total of zero or less is a zero pool (2d, keep the lowest).
    """
    if rating < 0:
        raise RuleError(_("an action rating cannot be negative"))
    if push and bargain:
        raise RuleError(_("the second bonus die comes from pushing or a devil's bargain, not both"))
    second = PUSH_DICE if push else BARGAIN_DICE if bargain else 0
    return max(0, rating + ASSIST_DICE * int(assist) + second + extra_dice)


def push_stress(push_dice: bool, push_effect: bool, push_act: bool = False) -> int:
    """ "For each bonus you choose below, take 2 stress" (001 §Pushing Yourself): +1d,
    +1 effect, and acting while incapacitated (`push_act`) are each a push of their own."""
    return PUSH_STRESS * (int(push_dice) + int(push_effect) + int(push_act))


# --- Resistance ------------------------------------------------------------


def resistance_stress(roll: Roll) -> int:
    """Stress a resistance roll costs; -1 means a critical clears one stress."""
    if roll.outcome is Outcome.CRITICAL:
        return -1
    return max(0, 6 - roll.counting)


# --- Fortune, engagement, gather information -------------------------------

_FORTUNE_RESULTS = {
    Outcome.CRITICAL: "great",
    Outcome.SUCCESS: "standard",
    Outcome.PARTIAL: "limited",
    Outcome.BAD: "poor",
}


def fortune_result(outcome: Outcome) -> str:
    return _FORTUNE_RESULTS[outcome]


def fortune_pool(trait: int, advantages: int = 0, disadvantages: int = 0) -> int:
    if min(trait, advantages, disadvantages) < 0:
        raise ValueError("trait and advantage counts cannot be negative")
    return trait + advantages - disadvantages


def engagement_pool(advantages: int, disadvantages: int) -> int:
    """1d for luck, then one die per major advantage, minus one per disadvantage."""
    if min(advantages, disadvantages) < 0:
        raise ValueError("advantage counts cannot be negative")
    return 1 + advantages - disadvantages


_ENGAGEMENT_POSITIONS = {
    Outcome.CRITICAL: (Position.CONTROLLED, True),
    Outcome.SUCCESS: (Position.CONTROLLED, False),
    Outcome.PARTIAL: (Position.RISKY, False),
    Outcome.BAD: (Position.DESPERATE, False),
}


def engagement_position(outcome: Outcome) -> tuple[Position, bool]:
    """Starting position of the score, and whether the crew is already past the first obstacle."""
    return _ENGAGEMENT_POSITIONS[outcome]


INFORMATION_LABELS = {
    "great": _("Great detail"),
    "standard": _("Standard detail"),
    "limited": _("Limited detail"),
    "poor": _("Little detail"),
}


def information_detail(outcome: Outcome) -> str:
    """Level of detail from a gather-information fortune roll.

    The texts tie detail to effect level, and a fortune roll reads its result as
    an effect level (critical great, 6 standard, 4-5 limited, 1-3 poor), so this
    is the fortune reading. When information comes from an action roll instead,
    detail follows the effect the GM set, not the dice.
    """
    return fortune_result(outcome)


# --- Group action ----------------------------------------------------------


@dataclass(frozen=True)
class GroupResult:
    outcome: Outcome
    leader_stress: int
    best_index: int


def group_action(rolls: Sequence[Roll], cohorts: Sequence[Roll] = ()) -> GroupResult:
    """The best single result counts for everyone; the leader pays 1 stress per 1-3.

    Cohorts the leader leads roll their quality and their result counts among the rest
    (`best_index` runs over `rolls`, then `cohorts`); the leader's stress is "for each PC
    that rolled 1-3" (000 §Lead a group action), so a cohort's adds none."""
    every = [*rolls, *cohorts]
    if not every:
        raise ValueError("a group action needs at least one roll")
    best_index = max(range(len(every)), key=lambda i: outcome_rank(every[i].outcome))
    leader_stress = sum(1 for r in rolls if r.outcome is Outcome.BAD)
    return GroupResult(every[best_index].outcome, leader_stress, best_index)


# --- Indulge vice ----------------------------------------------------------


@dataclass(frozen=True)
class Overindulgence:
    label: str
    description: str


OVERINDULGENCES = {
    "attract_trouble": Overindulgence(
        _("Attract Trouble"), _("The binge draws notice: the crew faces one more entanglement.")
    ),
    "brag": Overindulgence(
        _("Brag"), _("Loose talk about the crew's deeds: the crew takes +2 heat.")
    ),
    "lost": Overindulgence(
        _("Lost"),
        _(
            "The character vanishes into the vice for weeks; play someone else. "
            "They come back with all harm healed."
        ),
    ),
    "tapped": Overindulgence(
        _("Tapped"), _("The purveyor cuts the character off; a new source must be found.")
    ),
}


@dataclass(frozen=True)
class ViceResult:
    cleared: int
    relief: int
    overindulged: bool


def indulge_vice(roll: Roll, stress_marked: int) -> ViceResult:
    """Relief is the die that counts, so a zero-pool indulgence gives the lower of two dice."""
    if stress_marked < 0:
        raise ValueError("stress marked cannot be negative")
    relief = roll.counting
    return ViceResult(
        cleared=min(relief, stress_marked),
        relief=relief,
        overindulged=relief > stress_marked,
    )


# --- Downtime --------------------------------------------------------------

_DOWNTIME_TICKS = {Outcome.BAD: 1, Outcome.PARTIAL: 2, Outcome.SUCCESS: 3, Outcome.CRITICAL: 5}


def ticks_text(ticks: int) -> Words:
    """ "1 tick", "2 ticks": how every log line and result counts a clock's ticks."""
    return Words(ngettext("%(ticks)s tick", "%(ticks)s ticks", ticks), ticks=ticks)


def downtime_ticks(outcome: Outcome) -> int:
    return _DOWNTIME_TICKS[outcome]


def tier_result(tier: int, outcome: Outcome) -> int:
    """Quality from a tier roll (acquire asset, crafting): tier-1 up to tier+2, never below 0."""
    return max(0, tier + outcome_rank(outcome) - 1)


# --- Entanglements ---------------------------------------------------------

MAX_WANTED = 4

_ENTANGLEMENTS = {
    "0-3": {
        Outcome.BAD: (_("Gang Trouble"), _("The Usual Suspects")),
        Outcome.PARTIAL: (_("Rivals"), _("Unquiet Dead")),
        Outcome.SUCCESS: (_("Cooperation"),),
    },
    "4-5": {
        Outcome.BAD: (_("Gang Trouble"), _("Questioning")),
        Outcome.PARTIAL: (_("Reprisals"), _("Unquiet Dead")),
        Outcome.SUCCESS: (_("Show of Force"),),
    },
    "6+": {
        Outcome.BAD: (_("Flipped"), _("Interrogation")),
        Outcome.PARTIAL: (_("Demonic Notice"), _("Show of Force")),
        Outcome.SUCCESS: (_("Arrest"),),
    },
}


def heat_column(heat: int) -> str:
    if heat < 0:
        raise ValueError("heat cannot be negative")
    if heat <= 3:
        return "0-3"
    if heat <= 5:
        return "4-5"
    return "6+"


def entanglement_pool(wanted: int) -> int:
    if not 0 <= wanted <= MAX_WANTED:
        raise ValueError(f"wanted level must be 0-{MAX_WANTED}")
    return wanted


def entanglements(heat: int, outcome: Outcome) -> tuple[str, ...]:
    """The entanglements the GM picks from; the table has no critical row, so it reads as a 6."""
    if outcome is Outcome.CRITICAL:
        outcome = Outcome.SUCCESS
    return _ENTANGLEMENTS[heat_column(heat)][outcome]


# The table's rows: the die that counts, 1-3, 4/5, 6 (its columns are the heat bands).
ENTANGLEMENT_RESULTS = (Outcome.BAD, Outcome.PARTIAL, Outcome.SUCCESS)


@dataclass(frozen=True)
class EntanglementCell:
    result: Outcome
    heat: str  # the heat band: "0-3", "4-5", "6+"
    names: tuple[str, ...]
    lit: bool  # the roll read this cell: the GM chooses among its entanglements


def entanglement_table(
    offered: Collection[str], outcome: Outcome | None
) -> list[list[EntanglementCell]]:
    """The book's table, a row per result and a column per heat band, with the cells the
    roll read lit. The roll that `outcome` names read one cell; Slippery's second roll
    read another in the same column (the heat is the same), so every cell of that column
    whose entanglements were all `offered` is lit. No two cells of a row or of a column
    share all their names, so the lit cells are the ones read."""
    if outcome is Outcome.CRITICAL:
        outcome = Outcome.SUCCESS

    def read(band: str, result: Outcome) -> bool:
        return set(_ENTANGLEMENTS[band][result]) <= set(offered)

    column = next((band for band in _ENTANGLEMENTS if outcome and read(band, outcome)), None)
    return [
        [
            EntanglementCell(result, band, cells[result], band == column and read(band, result))
            for band, cells in _ENTANGLEMENTS.items()
        ]
        for result in ENTANGLEMENT_RESULTS
    ]


# --- Incarceration ---------------------------------------------------------

# The time a prisoner serves. At wanted level 0 the text's other outcome, "the constables
# give you a beating" (003), is no time inside: it is an Arrest's own way out
# (score.entanglement_choices), so it is not worded as a sentence here. Lower case: each
# is read inside a sentence ("Cross serves time: a month or two").
SENTENCES = {
    0: _("a few weeks"),
    1: _("a month or two"),
    2: _("several months"),
    3: _("a year or two"),
    4: _("life imprisonment or execution"),
}


@dataclass(frozen=True)
class IncarcerationResult:
    """``status`` is gained with a faction the prisoner helped inside."""

    rep: int
    prison_claims: int
    status: int
    trauma: int
    text: str


_INCARCERATION_RESULTS = {
    Outcome.CRITICAL: IncarcerationResult(3, 1, 1, 0, _("+3 rep, a prison claim and +1 status")),
    Outcome.SUCCESS: IncarcerationResult(0, 1, 1, 0, _("A prison claim and +1 status")),
    Outcome.PARTIAL: IncarcerationResult(0, 0, 0, 0, _("Nothing happens")),
    Outcome.BAD: IncarcerationResult(0, 0, 0, 1, _("The prisoner takes 1 trauma")),
}


def incarceration_result(
    outcome: Outcome, *, cell_block_control: bool = False
) -> IncarcerationResult:
    """Cell Block Control: "You never take trauma from incarceration" (003 Prison claims)."""
    result = _INCARCERATION_RESULTS[outcome]
    if cell_block_control and result.trauma:
        return IncarcerationResult(0, 0, 0, 0, _("Nothing happens: the crew runs the cell block"))
    return result


def incarceration_pool(tier: int, *, guard_payoff: bool = False) -> int:
    """The crew's tier; Guard Payoff: "Take +1d to your Tier roll when a member of your crew
    is incarcerated" (003 Prison claims)."""
    if tier < 0:
        raise ValueError("tier cannot be negative")
    return tier + int(guard_payoff)


def sentence(wanted: int, *, parole_influence: bool = False) -> str:
    """Parole Influence: "a shorter prison stay—as if your wanted level was 1 lower" (003)."""
    if not 0 <= wanted <= MAX_WANTED:
        raise ValueError(f"wanted level must be 0-{MAX_WANTED}")
    return SENTENCES[max(0, wanted - int(parole_influence))]


# --- Roll log --------------------------------------------------------------


class RollKind(StrEnum):
    ACTION = "action"
    RESISTANCE = "resistance"
    FORTUNE = "fortune"
    ENGAGEMENT = "engagement"
    INFORMATION = "information"
    VICE = "vice"
    DOWNTIME = "downtime"
    ENTANGLEMENT = "entanglement"
    INCARCERATION = "incarceration"
    GROUP = "group"

    @property
    def label(self) -> str:
        return _ROLL_KIND_LABELS[self]


# Kept outside the class: a dict attribute on an enum would become a member.
_ROLL_KIND_LABELS = {
    RollKind.ACTION: _("Action"),
    RollKind.RESISTANCE: _("Resistance"),
    RollKind.FORTUNE: _("Fortune"),
    RollKind.ENGAGEMENT: _("Engagement"),
    RollKind.INFORMATION: _("Gather information"),
    RollKind.VICE: _("Indulge vice"),
    RollKind.DOWNTIME: _("Downtime"),
    RollKind.ENTANGLEMENT: _("Entanglement"),
    RollKind.INCARCERATION: _("Incarceration"),
    RollKind.GROUP: _("Group action"),
}


def summarize(
    kind: RollKind, roll: Roll, *, position: Position = Position.RISKY, heat: int = 0
) -> Words | Joined:
    """One line for the roll log, read in its reader's language.

    ``position`` matters for action and group rolls (a desperate roll marks xp);
    ``heat`` picks the entanglement column.
    """
    outcome = roll.outcome
    match kind:
        case RollKind.ACTION | RollKind.GROUP:
            if xp := desperate_xp(position):
                return Words(_("%(outcome)s, mark %(xp)s xp"), outcome=Term(outcome.label), xp=xp)
            return Words(outcome.label)
        case RollKind.RESISTANCE:
            stress = resistance_stress(roll)
            if stress < 0:
                return Words(_("Clear %(stress)s stress"), stress=-stress)
            if stress:
                return Words(_("Take %(stress)s stress"), stress=stress)
            return Words(_("Take no stress"))
        case RollKind.FORTUNE:
            return Words(FORTUNE_EFFECT_LABELS[fortune_result(outcome)])
        case RollKind.ENGAGEMENT:
            start, past_first_obstacle = engagement_position(outcome)
            if past_first_obstacle:
                return Words(_("%(position)s, past the first obstacle"), position=Term(start.label))
            return Words(_("%(position)s position"), position=Term(start.label))
        case RollKind.INFORMATION:
            return Words(INFORMATION_LABELS[information_detail(outcome)])
        case RollKind.VICE:
            return Words(_("Relief %(relief)s"), relief=roll.counting)
        case RollKind.DOWNTIME:
            return ticks_text(downtime_ticks(outcome))
        case RollKind.ENTANGLEMENT:
            return Joined(Term(_(" or ")), map(Term, entanglements(heat, outcome)))
        case RollKind.INCARCERATION:
            return Words(incarceration_result(outcome).text)
    raise ValueError(f"unknown roll kind {kind!r}")


FORTUNE_EFFECT_LABELS = {
    "great": _("Great effect"),
    "standard": _("Standard effect"),
    "limited": _("Limited effect"),
    "poor": _("Poor effect"),
}
