"""What special abilities and crew abilities do to the numbers the app keeps.

Each function takes the keys of the abilities a character (or crew) has and the plain
values it changes. An ability whose effect the GM must judge is not computed here: it
is listed in REMINDERS under the moment of play where the app shows it.
"""

from collections.abc import Collection, Mapping, Sequence

from blades.rules.character import (
    ACTIONS,
    HARM_PENALTIES,
    HARM_SLOTS,
    harm_rows,
    roll_warnings,
)
from blades.rules.crew import STRESS_BOXES_MOST as CREW_STRESS_BOXES_MOST
from blades.rules.dice import Outcome, Roll
from blades.rules.errors import RuleError, Term, _
from blades.rules.rolls import ViceResult
from blades.rules.words import Joined

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


NO_HARM_PENALTY = "No effect"


def harm_penalty_labels(abilities: Collection[str]) -> dict[int, str]:
    """The penalty each harm level gives this character, as the sheet labels its rows:
    read through `felt_harm`, so Tough as Nails shows the lighter one."""
    labels = {}
    for level in HARM_SLOTS:
        felt = [row for row, entries in felt_harm({level: ("harm",)}, abilities).items() if entries]
        labels[level] = HARM_PENALTIES[felt[0]] if felt else NO_HARM_PENALTY
    return labels


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
BODYGUARD = "bodyguard"
ANOINTED = "anointed"
ANOINTED_DICE = 1

# The name a roll's line gives the ability behind its bonus dice: a word of the rules, read
# in its reader's language; its translation is the content's name for the ability
# (tests/play/test_phase_words.py holds the two together).
BLOOD_BROTHERS = "blood_brothers"
DAREDEVIL = "daredevil"
MASTERMIND = "mastermind"
EMBERDEATH = "emberdeath"
GHOST_VEIL = "ghost_veil"
DAREDEVIL_DICE = 1  # +1d on the desperate roll, -1d resisting what it brought
BONUS_NAMES = {
    DAREDEVIL: Term(_("Daredevil")),
    BLOOD_BROTHERS: Term(_("Blood Brothers")),
    IRON_WILL: Term(_("Iron Will")),
    BODYGUARD: Term(_("Bodyguard")),
    FORGED_IN_THE_FIRE: Term(_("Forged in the Fire")),
    ANOINTED: Term(_("Anointed")),
    EMBERDEATH: Term(_("Emberdeath")),
    GHOST_VEIL: Term(_("Ghost Veil")),
    "door_kickers": Term(_("Door Kickers")),
    "second_story": Term(_("Second Story")),
}


def resistance_bonus(
    attribute: str,
    abilities: Collection[str],
    crew_abilities: Collection[str],
    *,
    protecting: bool = False,
    daredevil: bool = False,
    supernatural: bool = False,
) -> list[tuple[Term, int]]:
    """Dice a resistance roll gains (or loses), each with the ability that gives it. Iron
    Will: "When you make a resistance roll with Resolve, take +1d" (000); Bodyguard:
    "When you protect a teammate, take +1d to your resistance roll" (000), `protecting`
    saying the consequence is one the character took for a teammate; Forged in the Fire
    (Bravos): "PCs get +1d to resistance rolls"; Daredevil: "you get +1d to your roll if
    you also take -1d to any resistance rolls against consequences from your action"
    (000), `daredevil` saying the consequence came from a desperate roll that took it;
    Anointed (Cult): "+1d to resist supernatural threats" (the app's ability text),
    `supernatural` saying the GM marked the consequence so when inflicting it."""
    bonus = []
    if daredevil and DAREDEVIL in abilities:
        bonus.append((BONUS_NAMES[DAREDEVIL], -DAREDEVIL_DICE))
    if attribute == "resolve" and IRON_WILL in abilities:
        bonus.append((BONUS_NAMES[IRON_WILL], 1))
    if protecting and BODYGUARD in abilities:
        bonus.append((BONUS_NAMES[BODYGUARD], 1))
    if FORGED_IN_THE_FIRE in crew_abilities:
        bonus.append((BONUS_NAMES[FORGED_IN_THE_FIRE], 1))
    if supernatural and ANOINTED in crew_abilities:
        bonus.append((BONUS_NAMES[ANOINTED], ANOINTED_DICE))
    return bonus


# --- Rep, turf and tier -------------------------------------------------------------------

NO_TRACES = "no_traces"
LEVERAGE = "leverage"


def score_rep(rep: int, quiet: bool, crew_abilities: Collection[str]) -> int:
    """A score's rep (`rep`, what a loud job earns) as the crew's abilities change it.
    No Traces (Assassins): "A quiet or 'accidental' job earns half the target's rep value
    (round up) instead of none"; Leverage (Smugglers): "whenever you gain rep, gain +1
    more"."""
    if quiet:
        rep = -(-rep // 2) if NO_TRACES in crew_abilities else 0
    return gained_rep(rep, crew_abilities)


def downtime_rep(heat: int, crew_abilities: Collection[str]) -> int:
    """No Traces: "ending downtime at 0 heat gives +1 rep" (with Leverage's +1 more)."""
    return gained_rep(int(NO_TRACES in crew_abilities and heat == 0), crew_abilities)


def gained_rep(rep: int, crew_abilities: Collection[str]) -> int:
    """Rep the crew gains, with Leverage (Smugglers): "whenever you gain rep, gain +1
    more" (a loss is no gain)."""
    return rep + (LEVERAGE in crew_abilities and rep > 0)


ACCORD_MOST = 3


def turf(held: int, *, wanted: int, allies: int, crew_abilities: Collection[str]) -> int:
    """Turf for the rep track. Fiends (Bravos): "each wanted level counts as a turf";
    Accord (Hawkers): "Up to three +3 faction relationships each count as a turf".
    `allies` counts the factions at +3."""
    return (
        held
        + wanted * ("fiends" in crew_abilities)
        + min(allies, ACCORD_MOST) * ("accord" in crew_abilities)
    )


def patron(crew_abilities: Collection[str]) -> bool:
    """Patron: "A powerful backer halves the coin cost of advancing Tier"."""
    return "patron" in crew_abilities


# --- Heat and downtime --------------------------------------------------------------------

# "-1 heat each downtime": Hawkers' High Society and Smugglers' Just Passing Through.
HEAT_EACH_DOWNTIME = ("high_society", "just_passing_through")
SIDE_STASH = 2  # A Little Something on the Side: "+2 stash at the end of every downtime"


def entanglement_rolls(crew_abilities: Collection[str]) -> int:
    """Slippery (Shadows): "Roll entanglements twice and keep the one you prefer"."""
    return 2 if "slippery" in crew_abilities else 1


def downtime_heat(crew_abilities: Collection[str]) -> int:
    return -sum(key in crew_abilities for key in HEAT_EACH_DOWNTIME)


def side_stash(abilities: Collection[str]) -> int:
    return SIDE_STASH if "a_little_something_on_the_side" in abilities else 0


def healing_bonus(crew_has_physicker: bool) -> int:
    """Physicker (Leech): "the whole crew gets +1d to healing treatment rolls"."""
    return int(crew_has_physicker)


def acquire_bonus(abilities: Collection[str], crew_abilities: Collection[str]) -> tuple[int, int]:
    """(dice, result levels) on acquire asset: Pack Rats (Shadows) "+1d to acquire asset
    rolls"; Connected (Spider) "+1 result level on acquire asset"."""
    return int("pack_rats" in crew_abilities), int("connected" in abilities)


def reduce_heat_bonus(
    abilities: Collection[str], crew_abilities: Collection[str]
) -> tuple[int, int]:
    """(dice, result levels) on reduce heat: Slippery (Shadows) "+1d to reduce heat";
    Connected (Spider) "+1 result level on ... reduce heat"."""
    return int("slippery" in crew_abilities), int("connected" in abilities)


# --- The engagement roll and incarceration --------------------------------------------------

# Door Kickers (Bravos): "+1d to the engagement roll for assault plans"; Second Story
# (Shadows): "+1d to the engagement roll for clandestine infiltrations" (the stealth plan).
ENGAGEMENT_BY_PLAN: dict[str, str] = {"door_kickers": "assault", "second_story": "stealth"}


def engagement_bonus(plan: str, crew_abilities: Collection[str]) -> list[tuple[Term, int]]:
    return [
        (BONUS_NAMES[key], 1)
        for key, for_plan in ENGAGEMENT_BY_PLAN.items()
        if key in crew_abilities and plan == for_plan
    ]


def incarceration(
    tier: int, wanted: int, *, ironhook_contacts: bool, jail_bird: bool
) -> tuple[int, int]:
    """The tier rolled and the wanted level the sentence counts. Ironhook Contacts: "+1
    Tier while in prison (incarceration roll)"; Jail Bird (Spider): "your wanted level
    counts 1 lower and your Tier 1 higher"."""
    return tier + ironhook_contacts + jail_bird, max(0, wanted - jail_bird)


JAIL_BIRD_STATUS = 1


def prison_status(roll_status: int, *, jail_bird: bool) -> int:
    """The status the crew gains with the faction helped inside: the incarceration
    roll's (+1 on a 6 or a critical), and Jail Bird's (Spider) whatever the roll: "When
    jailed, ... you gain +1 status with a faction you help inside" (the app's ability
    text). Which faction was helped is the GM's to name."""
    return roll_status + JAIL_BIRD_STATUS * jail_bird


# --- Heat and war -------------------------------------------------------------------------


def killing_heat(killing: bool, crew_abilities: Collection[str]) -> bool:
    """Crow's Veil (Assassins): "no extra heat when a score involves killing"."""
    return killing and "crows_veil" not in crew_abilities


def war_costs_hold(at_war: bool, crew_abilities: Collection[str]) -> bool:
    """War Dogs (Bravos): "At war (status -3) the crew loses no hold"."""
    return at_war and "war_dogs" not in crew_abilities


# --- Reminders ------------------------------------------------------------------------------

# The moments of play where the app shows an ability the GM judges, so the table meets it
# when it matters: the action roll (its roller), a resistance (the one who resists), an
# assist (the helper), a group action, the engagement roll, downtime, the entanglement
# roll and the end-of-session xp.
MOMENTS = ("roll", "resist", "assist", "group", "engagement", "downtime", "entanglement", "xp")

REMINDERS: dict[str, tuple[str, ...]] = {
    # Playbooks. Special armor abilities: the armor box is applied; resisting and pushing
    # for free are the GM's to judge.
    "battleborn": ("roll", "resist"),
    "bodyguard": ("roll",),  # its +1d to resist a protected teammate's harm is applied
    "ghost_fighter": ("roll",),
    "leader": ("roll",),
    "not_to_be_trifled_with": ("roll",),
    "savage": ("roll",),
    "sharpshooter": ("roll",),
    "focused": ("roll", "resist"),
    "ghost_hunter": ("roll",),
    "scout": ("roll",),
    "vengeful": ("xp",),
    "alchemist": ("downtime",),
    "analyst": ("downtime",),
    "artificer": ("downtime",),
    "fortitude": ("roll", "resist"),
    "ghost_ward": ("roll",),
    "saboteur": ("roll",),
    "venomous": ("roll",),
    "infiltrator": ("roll",),
    "ambush": ("roll",),
    "daredevil": ("roll", "resist"),
    "the_devils_footsteps": ("roll",),
    "expertise": ("group",),
    "ghost_veil": ("roll",),
    "reflexes": ("roll",),
    "shadow": ("roll", "resist"),
    "cloak_and_dagger": ("roll",),
    "ghost_voice": ("roll",),
    "like_looking_into_a_mirror": ("roll",),
    "mesmerism": ("roll",),
    "subterfuge": ("roll", "resist"),
    "trust_in_me": ("roll",),
    "foresight": ("assist",),
    "functioning_vice": ("downtime",),
    "ghost_contract": ("roll",),
    "mastermind": ("roll", "resist"),
    "weaving_the_web": ("roll", "engagement"),
    "compel": ("roll",),
    "ghost_mind": ("roll",),
    "occultist": ("roll",),
    "ritual": ("roll",),
    "strange_methods": ("downtime",),
    "tempest": ("roll",),
    "warded": ("roll", "resist"),
    # Custom playbooks' own (custom_abilities.json, from 000).
    "arcane_fighter": ("roll",),
    "supernatural_ward": ("roll",),
    "arcane_mind": ("roll",),
    # Crew abilities.
    "emberdeath": ("roll",),
    "predators": ("engagement",),
    "vipers": ("downtime",),
    "blood_brothers": ("group",),
    "anointed": ("downtime",),  # its +1d to resist is applied; healing's is the GM's
    "bound_in_darkness": ("assist",),
    "conviction": ("downtime",),
    "glory_incarnate": ("roll",),
    "sealed_in_blood": ("roll",),
    "zealotry": ("roll",),
    "the_good_stuff": ("downtime",),
    "ghost_market": ("roll",),
    "high_society": ("roll",),
    "hooked": ("downtime",),
    "ghost_echoes": ("roll",),
    "slippery": ("entanglement",),
    "like_part_of_the_family": ("roll",),
    "all_hands": ("downtime",),
    "ghost_passage": ("roll",),
    "just_passing_through": ("roll",),
    "reavers": ("roll",),
    # Crew upgrades. (Secure's locks and wards guard the lair against intruders, tested on
    # the crew's tier when they come: no moment here, so it stays on the crew sheet.)
    "carriage": ("roll",),
    "boat": ("roll",),
    "hidden": ("downtime",),
    "workshop": ("downtime",),
    "documents": ("roll",),
    "gear": ("roll",),
    "implements": ("roll",),
    "supplies": ("roll",),
    "tools": ("roll",),
    "weapons": ("roll",),
    "smugglers_rigging": ("roll",),
    "ritual_sanctum_in_lair": ("downtime",),
    "underground_maps_and_passkeys": ("roll",),
    "camouflage": ("roll",),
}


def reminded(keys: Collection[str], moment: str) -> list[str]:
    """The keys among `keys` (in their order) that the table is reminded of at `moment`."""
    if moment not in MOMENTS:
        raise ValueError(f"no moment {moment!r}")
    return [key for key in keys if moment in REMINDERS.get(key, ())]


# --- The crew's action dot ------------------------------------------------------------------

# Each crew type's first ability: "Each PC may add a dot to Hunt, Prowl or Skirmish (max 3)"
# (Deadly), and the like; Renegades is the Smugglers' own.
CREW_DOTS: dict[str, tuple[str, ...]] = {
    "deadly": ("hunt", "prowl", "skirmish"),
    "dangerous": ("hunt", "skirmish", "wreck"),
    "chosen": ("attune", "study", "sway"),
    "silver_tongues": ("command", "consort", "sway"),
    "everyone_steals": ("prowl", "finesse", "tinker"),
    "renegades": ("finesse", "prowl", "skirmish"),
}
CREW_DOT_MAX = 3


def crew_dot_choices(crew_abilities: Collection[str], taken: Collection[str]) -> list[str]:
    """The crew's dot abilities this PC has not added a dot from yet, in the crew's order."""
    return [key for key in crew_abilities if key in CREW_DOTS and key not in taken]


def crew_dot(
    ability: str,
    action: str,
    rating: int,
    *,
    crew_abilities: Collection[str],
    taken: Collection[str],
) -> int:
    """The action's new rating when a PC adds the crew ability's dot: once per ability,
    on one of its actions, up to 3."""
    if ability not in crew_dot_choices(crew_abilities, taken):
        raise RuleError(_("The crew has no such dot for this character to add."))
    if action not in CREW_DOTS[ability]:
        names = Joined(", ", [Term(a.capitalize()) for a in CREW_DOTS[ability]])
        raise RuleError(_("This dot goes on %(actions)s."), actions=names)
    if rating >= CREW_DOT_MAX:
        raise RuleError(
            _("%(action)s is already %(rating)s: the dot goes up to %(max)s."),
            action=Term(action.capitalize()),
            rating=rating,
            max=CREW_DOT_MAX,
        )
    return rating + 1


# --- Xp -------------------------------------------------------------------------------------

# Vengeful (Hound): "Extra xp trigger: you got payback on someone who hurt you or yours".
VENGEFUL_TRIGGER = "You got payback against someone who harmed you or someone you care about"


def character_triggers(triggers: Mapping[str, str], abilities: Collection[str]) -> dict[str, str]:
    """The end-of-session xp lines of this character: everyone's, and Vengeful's."""
    return {**triggers, **({"vengeful": VENGEFUL_TRIGGER} if "vengeful" in abilities else {})}


# --- Assists -------------------------------------------------------------------------------

FORESIGHT = "foresight"
FORESIGHT_PER_SCORE = 2


def check_foresight(has_it: bool, used: int) -> None:
    """Foresight (000): "Two times per score you can assist a teammate without paying
    stress. Describe how you prepared for this." `used`: the assists it made free this
    score."""
    if not has_it:
        raise RuleError(_("Only a character with Foresight assists for free."))
    if used >= FORESIGHT_PER_SCORE:
        raise RuleError(
            _("Foresight is spent: %(times)s free assists this score."), times=FORESIGHT_PER_SCORE
        )


# --- Group action ---------------------------------------------------------------------------

EXPERTISE = "expertise"
EXPERTISE_STRESS_MOST = 1


def leads_with_expertise(action: str, chosen: str) -> bool:
    """Whether the group acts with the action the leader chose for Expertise (`chosen`,
    "" when none): "When you lead a group action using that action" (000)."""
    return bool(chosen) and action == chosen


def leader_stress(stress: int, *, expertise: bool) -> int:
    """The stress the leader of a group action takes. Expertise (000): "Choose one of
    your action ratings. When you lead a group action using that action, you can suffer
    only 1 stress at most, regardless of the number of failed rolls"; `expertise` says
    the group acts with that action (`leads_with_expertise`)."""
    return min(stress, EXPERTISE_STRESS_MOST) if expertise else stress


def expertise_choice(action: str, *, has_it: bool, chosen: str, by_gm: bool) -> str:
    """The action a character chooses for Expertise: "Choose one of your action ratings"
    (000). Chosen once by the player; the GM may set it again (a slip of the hand)."""
    if not has_it:
        raise RuleError(_("Only a character with Expertise chooses its action."))
    if action not in ACTIONS:
        raise RuleError(_("Choose one of the twelve actions for Expertise."))
    if chosen and not by_gm:
        raise RuleError(
            _("Expertise's action is chosen: %(action)s. The GM may change it."),
            action=Term(chosen.capitalize()),
        )
    return action


def synchronized(
    outcome: Outcome, rolls: Sequence[Roll], crew_abilities: Collection[str]
) -> Outcome:
    """Synchronized (Shadows): "In a group action, 6s on different characters' rolls
    together count as a critical"."""
    sixes = sum(1 for roll in rolls if roll.outcome in (Outcome.SUCCESS, Outcome.CRITICAL))
    return Outcome.CRITICAL if "synchronized" in crew_abilities and sixes >= 2 else outcome


# --- Cohorts ------------------------------------------------------------------------------


def led_cohort_dice(crew_abilities: Collection[str]) -> int:
    """Blood Brothers (Bravos): "Cohorts fighting beside you get +1d on setups and group
    actions": the die a cohort led in a group action adds to its quality roll (whether
    it fights beside the PCs stays the GM's to judge, as a reminder)."""
    return int(BLOOD_BROTHERS in crew_abilities)


# --- Downtime activities --------------------------------------------------------------------

CALCULATING = "calc"  # how an extra activity is paid when Calculating gives it


def calculating_gives(pay_with: str, *, spiders: int, used: int) -> bool:
    """Calculating (Spider): "give yourself or another crew member one extra downtime
    activity": each Spider who has it (`spiders`) gives one free extra activity each
    downtime, for whoever the table chooses; `used` are those taken this downtime."""
    if pay_with != CALCULATING:
        return False
    if not spiders:
        raise RuleError(_("No one in the crew has Calculating."))
    if used >= spiders:
        raise RuleError(_("Calculating's extra activity is taken this downtime."))
    return True


# --- Abilities paid in stress ---------------------------------------------------------------

EMBERDEATH_STRESS = 3
GHOST_VEIL_STRESS = 2
GHOST_VEIL_EXTRA_STRESS = 1
# Ghost Veil's extras, +1 stress each, with the words a roll's line names them by.
GHOST_VEIL_EXTRAS = {
    "minutes": _("for minutes"),
    "invisible": _("invisible"),
    "floating": _("floating"),
}


def ability_stress(
    ability: str,
    *,
    abilities: Collection[str],
    crew_abilities: Collection[str],
    extras: Collection[str] = (),
) -> int:
    """The stress a character takes to use an ability that costs it. Emberdeath
    (Assassins): "Take 3 stress as you kill someone to burn away their spirit and body";
    Ghost Veil (Lurk): "Take 2 stress to turn shadowy and insubstantial for a moment; +1
    stress each for minutes instead, invisibility, or floating" (the app's ability
    texts: the rules texts lack both)."""
    if ability == EMBERDEATH:
        if EMBERDEATH not in crew_abilities:
            raise RuleError(_("The crew does not have Emberdeath."))
        if extras:
            raise RuleError(_("Emberdeath has no extras."))
        return EMBERDEATH_STRESS
    if ability == GHOST_VEIL:
        if GHOST_VEIL not in abilities:
            raise RuleError(_("Only a character with Ghost Veil takes its stress."))
        if not set(extras) <= set(GHOST_VEIL_EXTRAS):
            raise RuleError(_("Ghost Veil's extras are minutes, invisibility and floating."))
        return GHOST_VEIL_STRESS + GHOST_VEIL_EXTRA_STRESS * len(set(extras))
    raise RuleError(_("Choose Emberdeath or Ghost Veil."))


# --- Indulging a vice ----------------------------------------------------------------------

FUNCTIONING_VICE = "functioning_vice"
VICE_SHIFTS = (-2, -1, 1, 2)
DIE_FACES = (1, 6)


def functioning_vice(relief: int, shift: int, stress_marked: int) -> ViceResult:
    """The indulgence read again once the die is shifted. Functioning Vice (Spider):
    "When you indulge, shift the die result up or down by 1 or 2" (the app's ability
    text; SRD_FACTS §1.7: "lets you shift the die by ±1 or ±2"): `relief` is the die
    that counted, `stress_marked` the stress before the indulgence. A die reads 1 to 6,
    so a shift past either end stops there; clearing more than was marked is still
    overindulging."""
    if shift not in VICE_SHIFTS:
        raise RuleError(_("Shift the die up or down by 1 or 2."))
    if stress_marked < 0:
        raise ValueError("stress marked cannot be negative")
    low, high = DIE_FACES
    die = min(high, max(low, relief + shift))
    return ViceResult(cleared=min(die, stress_marked), relief=die, overindulged=die > stress_marked)


# --- Long-term projects --------------------------------------------------------------------

ANALYST = "analyst"
ANALYST_TICKS = 2


def analyst_ticks(asked: int, *, has_it: bool, used: int) -> int:
    """The free ticks a project takes from Analyst (Leech): "Each downtime, get two free
    ticks to spread over long-term projects for investigation or learning a formula or
    design" (the app's ability text; SRD_FACTS §1.3: "gives 2 free ticks per downtime to
    investigation or formula projects"). `asked`: the ticks the player puts on this
    project; `used`: those already spread this downtime. Whether the project is an
    investigation or a formula is the GM's to judge."""
    if not asked:
        return 0
    if not has_it:
        raise RuleError(_("Only a character with Analyst has its free ticks."))
    if asked < 0 or used + asked > ANALYST_TICKS:
        raise RuleError(
            _("Analyst gives %(ticks)s free ticks each downtime; %(left)s left."),
            ticks=ANALYST_TICKS,
            left=max(0, ANALYST_TICKS - used),
        )
    return asked


def mastermind_push(abilities: Collection[str], pushes: int) -> int:
    """The pushes of a long-term project still paid in stress once Mastermind's special
    armor pays one: "You may expend your special armor to ... push yourself when you
    gather information or work on a long-term project ... you get one of the benefits
    (+1d, +1 effect, act despite severe harm) but you don't take 2 stress" (000)."""
    if MASTERMIND not in abilities:
        raise RuleError(_("Only a Mastermind pays a project's push with special armor."))
    if pushes < 1:
        raise RuleError(_("Choose the push your special armor pays for."))
    return pushes - 1


def special_push_allowed(ability: str, *, gather_information: bool) -> bool:
    """Whether special armor from `ability` may pay an action roll's push. Mastermind's
    only "when you gather information" (000; its project push is the downtime's); the
    other abilities' pushes are the GM's to judge (Battleborn's "during a fight")."""
    return ability != MASTERMIND or gather_information


# --- Rook's Gambit --------------------------------------------------------------------------

ROOKS_GAMBIT_STRESS = 2


def rooks_gambit(action: str, ratings: Mapping[str, int]) -> str:
    """Rook's Gambit (000): "Take 2 stress to roll your best action rating while
    performing a different action": the action whose rating is rolled instead."""
    best = max(ratings, key=lambda a: ratings[a])
    if ratings[best] <= ratings.get(action, 0):
        raise RuleError(
            _("%(action)s is already your best action rating."),
            action=Term(action.capitalize()),
        )
    return best
