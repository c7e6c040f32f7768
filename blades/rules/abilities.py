"""What special abilities and crew abilities do to the numbers the app keeps.

Each function takes the keys of the abilities a character (or crew) has and the plain
values it changes. An ability whose effect the GM must judge is not computed here: it
is listed in REMINDERS under the moment of play where the app shows it.
"""

from collections.abc import Collection, Mapping, Sequence

from blades.rules.character import harm_rows, roll_warnings
from blades.rules.crew import STRESS_BOXES_MOST as CREW_STRESS_BOXES_MOST

# --- Stress and harm ----------------------------------------------------------------------

# Hound, Survivor: "+1 stress box" (SRD_FACTS 4: "Hound *Survivor* +1").
SURVIVOR = "survivor"
STRESS_BOXES_MOST = CREW_STRESS_BOXES_MOST + 1


def stress_boxes(crew_boxes: int, abilities: Collection[str]) -> int:
    """The stress track: the crew's (9, or 10 with Composed/Steady), one more with
    Survivor."""
    return crew_boxes + (SURVIVOR in abilities)


TOUGH_AS_NAILS = "tough_as_nails"


def felt_harm(
    harm: Mapping[int, Sequence[str]], abilities: Collection[str]
) -> dict[int, tuple[str, ...]]:
    """The harm whose penalties a character suffers. Tough as Nails: "Penalties from harm
    are one level less severe (though level 4 harm is still fatal)... level 3 harm doesn't
    incapacitate you; instead you take -1d... Level 1 harm has no effect on you" (000).
    The sheet keeps the harm at its level; only the penalties move down a row."""
    rows = harm_rows(harm)
    if TOUGH_AS_NAILS not in abilities:
        return rows
    return {1: rows[2], 2: rows[3], 3: (), 4: rows[4]}


def warnings_before_a_roll(
    harm: Mapping[int, Sequence[str]], abilities: Collection[str], encumbered: bool
) -> list[str]:
    """The sheet's and the roll's reminders of harm and load, harm as it is felt."""
    warnings = roll_warnings(felt_harm(harm, abilities), encumbered)
    if TOUGH_AS_NAILS in abilities and any(harm_rows(harm).values()):
        warnings.insert(0, "Tough as Nails: each harm's penalty is that of one level lower.")
    return warnings


# --- Resistance ---------------------------------------------------------------------------

IRON_WILL = "iron_will"
FORGED_IN_THE_FIRE = "forged_in_the_fire"


def resistance_bonus(
    attribute: str, abilities: Collection[str], crew_abilities: Collection[str]
) -> list[tuple[str, int]]:
    """Dice a resistance roll gains, each with the ability that gives it. Iron Will:
    "When you make a resistance roll with Resolve, take +1d" (000); Forged in the Fire
    (Bravos): "PCs get +1d to resistance rolls"."""
    bonus = []
    if attribute == "resolve" and IRON_WILL in abilities:
        bonus.append(("Iron Will", 1))
    if FORGED_IN_THE_FIRE in crew_abilities:
        bonus.append(("Forged in the Fire", 1))
    return bonus
