"""Crew sheet arithmetic: rep and turf, development, heat, coin, crew xp and factions."""

from collections.abc import Iterable
from dataclasses import dataclass

from blades.rules.character import (
    STRESS_MAX,
    TRAUMA_MAX,
    XpChange,
    check_range,
    mark_track_xp,
)
from blades.rules.errors import RuleError, _, ngettext
from blades.rules.undo import ladder_steps, reverse_ladder

TIER_MAX = 4  # the crew sheet shows 0..IV
FACTION_TIER_MAX = 5
TURF_MAX = 6
REP_MAX = 12
HEAT_MAX = 9
WANTED_MAX = 4
CREW_XP_DEFAULT = 8  # sources say 8 or 10; the table setting defaults to 8
# The setting is the table's choice: any length from half the default to half as long again.
CREW_XP_TRACK_MIN = 4
CREW_XP_TRACK_MAX = 12
HOLDS = ("weak", "strong")


# --- Rep, turf and development -------------------------------------------------------


def rep_track(turf: int) -> int:
    """Each turf held is marked on the rep track, so less rep is needed to develop."""
    return REP_MAX - check_range(turf, 0, TURF_MAX, _("Turf"))


@dataclass(frozen=True)
class RepChange:
    rep: int
    full: bool


def add_rep(rep: int, turf: int, amount: int) -> RepChange:
    """Earn rep (or forfeit it, with a negative amount).

    Rep stops at the end of the track; while the track is full no rep is earned. Turf
    gained while rep is high can leave rep past the shortened track: it counts as full.
    """
    track = rep_track(turf)
    check_range(rep, 0, REP_MAX, _("Rep"))
    total = rep + amount
    if total < 0:
        raise RuleError(_("The crew has only %(rep)s rep."), rep=rep)
    new_rep = min(total, track)
    return RepChange(rep=new_rep, full=new_rep >= track)


SCORE_REP = 2  # "2 rep, +1 per tier the target is above the crew, -1 per tier below"


def score_rep(crew_tier: int, target_tier: int, quiet: bool = False) -> int:
    """2 rep, +1 per tier the target is above the crew, -1 per tier below."""
    if quiet:
        return 0
    return max(0, SCORE_REP + target_tier - crew_tier)


HARDCASE_DISCOUNT = 2


def tier_up_cost(tier: int, hardcase: bool = False, patron: bool = False) -> int:
    """Rising a tier costs the new tier times 8 coin; the Patron crew ability "halves the
    coin cost of advancing Tier", and then the Hardcase prison claim makes "it costs 2
    fewer coins than it normally would" (003 Prison claims)."""
    cost = (check_range(tier, 0, TIER_MAX - 1, _("Tier")) + 1) * 8
    return cost // (2 if patron else 1) - HARDCASE_DISCOUNT * hardcase


@dataclass(frozen=True)
class Development:
    tier: int
    hold: str
    rep: int
    coin: int
    kind: str  # "strong_hold" or "tier_up"


def develop(
    tier: int, hold: str, rep: int, turf: int, coin: int, hardcase: bool = False,
    patron: bool = False,
) -> Development:  # fmt: skip
    """Spend a full rep track: weak hold turns strong, or strong hold pays to rise a tier.

    Turf stays marked; only rep resets.
    """
    if hold not in HOLDS:
        raise RuleError(_("“%(hold)s” is not a hold; it is weak or strong."), hold=hold)
    check_range(tier, 0, TIER_MAX, _("Tier"))
    if coin < 0:
        raise RuleError(_("Coin cannot be negative."))
    if rep < rep_track(turf):
        raise RuleError(
            _("The crew needs %(needed)s rep to develop (it has %(rep)s)."),
            needed=rep_track(turf),
            rep=rep,
        )
    if hold == "weak":
        return Development(tier=tier, hold="strong", rep=0, coin=coin, kind="strong_hold")
    if tier >= TIER_MAX:
        raise RuleError(_("The crew is already at the highest tier (%(max)s)."), max=TIER_MAX)
    cost = tier_up_cost(tier, hardcase, patron)
    if coin < cost:
        raise RuleError(
            _("Rising to tier %(tier)s costs %(cost)s coin; the crew has %(coin)s."),
            tier=tier + 1,
            cost=cost,
            coin=coin,
        )
    return Development(tier=tier + 1, hold="weak", rep=0, coin=coin - cost, kind="tier_up")


# --- Heat and wanted level -----------------------------------------------------------

EXPOSURE: dict[str, int] = {"quiet": 0, "contained": 2, "loud": 4, "wild": 6}
EXPOSURE_LABELS: dict[str, str] = {
    "quiet": _("Smooth and quiet"),
    "contained": _("Contained"),
    "loud": _("Loud and chaotic"),
    "wild": _("Wild"),
}
# What a score's circumstances add to its heat (003 §Heat).
HEAT_HIGH_PROFILE = 1
HEAT_HOSTILE_TURF = 1
HEAT_AT_WAR = 1
HEAT_KILLING = 2


@dataclass(frozen=True)
class HeatChange:
    heat: int
    wanted: int
    wanted_gained: int


def add_heat(heat: int, wanted: int, amount: int) -> HeatChange:
    """Add heat (or remove it, with a negative amount; heat stops at 0).

    Each time heat reaches 9 the wanted level rises by 1 and the excess rolls over, so a
    big gain can wrap more than once. At wanted 4 there is no higher level: heat then
    stays at 8, the most the track holds without converting.
    """
    check_range(heat, 0, HEAT_MAX - 1, _("Heat"))
    check_range(wanted, 0, WANTED_MAX, _("Wanted level"))
    total = max(0, heat + amount)
    gained = 0
    while total >= HEAT_MAX and wanted + gained < WANTED_MAX:
        total -= HEAT_MAX
        gained += 1
    return HeatChange(heat=min(total, HEAT_MAX - 1), wanted=wanted + gained, wanted_gained=gained)


def heat_steps(heat_delta: int, wanted_delta: int) -> int:
    """A heat change measured along the whole track: each wanted level it rolled into
    counts as the 9 heat that filled it."""
    return ladder_steps(heat_delta, wanted_delta, HEAT_MAX)


def unwind_heat(heat: int, wanted: int, steps: int) -> HeatChange:
    """Take back `steps` heat that add_heat gave, unrolling the wanted levels it rolled
    into (wanted 1, heat 0 less 1 is wanted 0, heat 8); stops at heat 0, wanted 0, and
    at the full track (a negative `steps` gives heat back the same way)."""
    check_range(heat, 0, HEAT_MAX - 1, _("Heat"))
    check_range(wanted, 0, WANTED_MAX, _("Wanted level"))
    back = reverse_ladder(heat, wanted, steps, HEAT_MAX, WANTED_MAX)
    return HeatChange(heat=back.low, wanted=back.high, wanted_gained=back.high - wanted)


def score_heat(
    exposure: str, *, high_profile: bool, hostile_turf: bool, at_war: bool, killing: bool
) -> int:
    if exposure not in EXPOSURE:
        raise RuleError(
            _("“%(exposure)s” is not an exposure; choose quiet, contained, loud or wild."),
            exposure=exposure,
        )
    return (
        EXPOSURE[exposure]
        + HEAT_HIGH_PROFILE * high_profile
        + HEAT_HOSTILE_TURF * hostile_turf
        + HEAT_AT_WAR * at_war
        + HEAT_KILLING * killing
    )


def incarcerate(heat: int, wanted: int) -> tuple[int, int]:
    """Someone takes the fall: heat clears and the wanted level drops by one."""
    check_range(heat, 0, HEAT_MAX - 1, _("Heat"))
    check_range(wanted, 0, WANTED_MAX, _("Wanted level"))
    return 0, max(0, wanted - 1)


# --- Payoff and crew coin ------------------------------------------------------------

JOB_COIN: dict[str, int] = {"minor": 2, "small": 4, "standard": 6, "big": 8, "major": 10}
JOB_EXTRA_MAX = 99  # a major job's coin past its 10: "10+", bounded only against garbage
VAULT_LIMITS = (4, 8, 16)  # by vault upgrade boxes marked
START_COIN = 2  # "Start: Tier 0, strong hold, 0 rep, 2 coin" (SRD_FACTS §6.2)
# Each crew type has 2 pre-selected upgrades and the crew marks 2 more (SRD_FACTS §6.1).
CREATION_UPGRADE_BOXES = 2


def tithe(tier: int) -> int:
    return check_range(tier, 0, FACTION_TIER_MAX, _("Tier")) + 1


def crew_coin_limit(vault_boxes: int) -> int:
    return VAULT_LIMITS[check_range(vault_boxes, 0, len(VAULT_LIMITS) - 1, _("Vault boxes"))]


@dataclass(frozen=True)
class CoinChange:
    coin: int
    excess: int


def coin_excess(coin: int, limit: int) -> int:
    return max(0, coin - limit)


def check_vault(coin: int, limit: int) -> None:
    """ "Any coin beyond their limit must be spent as soon as possible (typically before
    the next score) or distributed among the crew members" (001 §Coin and Stash)."""
    excess = coin_excess(coin, limit)
    if excess:
        raise RuleError(
            ngettext(
                "The crew holds %(excess)s coin more than its lair keeps (%(limit)s): spend it "
                "or share it out among the crew before the next score.",
                "The crew holds %(excess)s coin more than its lair keeps (%(limit)s): spend it "
                "or share it out among the crew before the next score.",
                excess,
            ),
            excess=excess,
            limit=limit,
        )


def share_payoff(coin: int, shares: Iterable[int]) -> int:
    """What the crew keeps of a payoff after the shares the PCs take ("Record the coin on
    the crew sheet, or divvy it up among the crew members as you see fit", 003)."""
    shares = list(shares)
    if any(share < 0 for share in shares):
        raise RuleError(_("A share of the payoff cannot be negative."))
    if sum(shares) > coin:
        raise RuleError(
            ngettext(
                "The shares come to %(shares)s coin; the payoff is %(coin)s.",
                "The shares come to %(shares)s coin; the payoff is %(coin)s.",
                sum(shares),
            ),
            shares=sum(shares),
            coin=coin,
        )
    return coin - sum(shares)


def add_crew_coin(coin: int, amount: int, limit: int) -> CoinChange:
    """Coin beyond the lair's limit is kept but flagged as excess: it must be spent or
    shared out before the next score, and the table decides how."""
    if coin < 0:
        raise RuleError(_("Coin cannot be negative."))
    total = coin + amount
    if total < 0:
        raise RuleError(
            ngettext("The crew has only %(coin)s coin.", "The crew has only %(coin)s coin.", coin),
            coin=coin,
        )
    return CoinChange(coin=total, excess=coin_excess(total, limit))


# --- Crew advancement ----------------------------------------------------------------


def mark_crew_xp(xp: int, amount: int, track_length: int = CREW_XP_DEFAULT) -> XpChange:
    """Each advance is a crew special ability or two upgrade boxes."""
    return mark_track_xp(xp, amount, track_length)


def advance_stash_gain(tier: int) -> int:
    """Stash each PC gains when the crew advances."""
    return check_range(tier, 0, TIER_MAX, _("Tier")) + 2


# --- Factions and war ----------------------------------------------------------------

STATUS_MIN = -3
STATUS_MAX = 3
STATUS_LABELS: dict[int, str] = {
    3: "Allies",
    2: "Friendly",
    1: "Helpful",
    0: "Neutral",
    -1: "Interfering",
    -2: "Hostile",
    -3: "War",
}


def set_status(status: int, delta: int) -> int:
    """Statuses stop at war and allies: hurting a faction already at war changes nothing,
    so clamping (not an error) lets every operation apply its shift."""
    return max(STATUS_MIN, min(STATUS_MAX, status + delta))


@dataclass(frozen=True)
class WarEffects:
    extra_heat: int
    hold_penalty: int
    downtime_activities: int


def war_effects(at_war: bool) -> WarEffects:
    if at_war:
        return WarEffects(extra_heat=1, hold_penalty=-1, downtime_activities=1)
    return WarEffects(extra_heat=0, hold_penalty=0, downtime_activities=2)


def effective_hold(hold: str, tier: int, at_war: bool) -> tuple[str, int]:
    """War costs one hold while it lasts; with weak hold that means a tier.

    Store the peacetime values and show these: the tier comes back when the war ends.
    A weak tier-0 crew cannot drop further; its lair comes under threat instead.
    """
    if hold not in HOLDS:
        raise RuleError(_("“%(hold)s” is not a hold; it is weak or strong."), hold=hold)
    if not at_war:
        return hold, tier
    if hold == "strong":
        return "weak", tier
    return "weak", max(0, tier - 1)


# --- Cohorts -------------------------------------------------------------------------

GANG_SCALE: dict[int, str] = {0: "1-2", 1: "3-6", 2: "12", 3: "20", 4: "40", 5: "80"}


def cohort_quality(tier: int, *, expert: bool = False) -> int:
    """A gang's quality is the crew's tier; an expert is one better. An Elite upgrade
    adds a die to its rolls, not a level of quality (`cohort_dice`)."""
    return check_range(tier, 0, FACTION_TIER_MAX, _("Tier")) + (1 if expert else 0)


def gang_scale(tier: int) -> str:
    return GANG_SCALE[check_range(tier, 0, FACTION_TIER_MAX, _("Tier"))]


# --- Downtime ------------------------------------------------------------------------


def downtime_activities(at_war: bool, war_dogs: bool = False) -> int:
    """Two activities per PC, one while at war (the Bravos' War Dogs keeps two)."""
    return 1 if at_war and not war_dogs else 2


# --- The crew's books on the sheet -----------------------------------------------------


Cell = tuple[int, int]


def claim_reachable(target: Cell, held: Iterable[Cell], paths: Iterable[tuple[Cell, Cell]]) -> bool:
    """A claim can be seized when a path on the crew's map joins it to a claim the crew
    holds (the lair counts: it is held from the start)."""
    held = {tuple(cell) for cell in held}
    target = tuple(target)
    for a, b in paths:
        a, b = tuple(a), tuple(b)
        if (a == target and b in held) or (b == target and a in held):
            return True
    return False


def turf_count(held_turf_claims: int) -> int:
    """Turf held on the claim map, as marked on the rep track (at most 6 fit there)."""
    if held_turf_claims < 0:
        raise RuleError(_("Turf cannot be negative."))
    return min(held_turf_claims, TURF_MAX)


def add_crew_coin_within(coin: int, amount: int, limit: int) -> int:
    """Coin moved by hand on the sheet stays within the vault.

    Payoff may leave excess for the table to spend or share (`add_crew_coin`); a click on
    the sheet never does, so fifty clicks cannot fill a lair that holds four.
    """
    change = add_crew_coin(coin, amount, limit)
    if amount > 0 and change.excess:
        raise RuleError(
            _("The lair holds %(limit)s coin; the crew has %(coin)s."), limit=limit, coin=coin
        )
    return change.coin


MASTERY_BOXES = 4
# Train marks 2 xp on a track whose crew training upgrade is marked (1 xp otherwise).
TRAINING_UPGRADES: dict[str, str] = {
    "insight": "insight",
    "prowess": "prowess",
    "resolve": "resolve",
    "playbook": "personal",
}


def has_mastery(upgrades: dict[str, int]) -> bool:
    """Mastery takes all four of its boxes before action ratings can reach 4."""
    return upgrades.get("mastery", 0) >= MASTERY_BOXES


def training_xp(track: str, upgrades: dict[str, int]) -> int:
    if track not in TRAINING_UPGRADES:
        raise RuleError(
            _("“%(track)s” is not a track to train; choose an attribute or playbook."),
            track=track,
        )
    return 2 if upgrades.get(TRAINING_UPGRADES[track], 0) >= 1 else 1


# Crew upgrades that give every PC one more box once all three of their boxes are marked
# (SRD_FACTS §6.3: Composed/Steady "+1 stress box", Hardened/Ordained "+1 trauma box").
STRESS_BOX_UPGRADES = ("composed", "steady")
TRAUMA_BOX_UPGRADES = ("hardened", "ordained")
BOX_UPGRADE_FULL = 3
STRESS_BOXES_MOST = STRESS_MAX + 1


def _upgrade_full(upgrades: dict[str, int], keys: tuple[str, ...]) -> bool:
    return any(upgrades.get(key, 0) >= BOX_UPGRADE_FULL for key in keys)


def stress_boxes(upgrades: dict[str, int]) -> int:
    return STRESS_MAX + _upgrade_full(upgrades, STRESS_BOX_UPGRADES)


def trauma_boxes(upgrades: dict[str, int]) -> int:
    return TRAUMA_MAX + _upgrade_full(upgrades, TRAUMA_BOX_UPGRADES)


def vault_coin_limit(upgrades: dict[str, int]) -> int:
    return crew_coin_limit(upgrades.get("vault", 0))


@dataclass(frozen=True)
class UpgradeChange:
    marked: int
    boxes_free: int


def mark_upgrade(marked: int, boxes: int, boxes_free: int, by: int) -> UpgradeChange:
    """Mark (or, with by = -1, unmark) upgrade boxes, paid from the crew's free boxes.

    Free boxes come from advances (two each) and from crew creation (two); unmarking a
    box gives it back, so a mistake costs nothing.
    """
    check_range(marked, 0, boxes, _("Marked boxes"))
    new = marked + by
    if not 0 <= new <= boxes:
        raise RuleError(
            ngettext("This upgrade has %(boxes)s box.", "This upgrade has %(boxes)s boxes.", boxes),
            boxes=boxes,
        )
    if boxes_free - by < 0:
        raise RuleError(_("The crew has no free upgrade boxes: spend an advance first."))
    return UpgradeChange(marked=new, boxes_free=boxes_free - by)


ADVANCE_UPGRADE_BOXES = 2


@dataclass(frozen=True)
class AdvanceSpent:
    advances: int
    boxes_free: int
    ability: bool


def spend_advance(advances: int, on: str, boxes_free: int) -> AdvanceSpent:
    """A crew advance buys one special ability or two upgrade boxes."""
    if advances < 1:
        raise RuleError(_("The crew has no advance to spend: fill the crew xp track first."))
    if on == "ability":
        return AdvanceSpent(advances=advances - 1, boxes_free=boxes_free, ability=True)
    if on == "upgrades":
        return AdvanceSpent(
            advances=advances - 1, boxes_free=boxes_free + ADVANCE_UPGRADE_BOXES, ability=False
        )
    raise RuleError(_("An advance buys a special ability or two upgrade boxes."))


# --- Cohorts on the sheet ---------------------------------------------------------------

COHORT_HARM: dict[int, str] = {0: "Unharmed", 1: "Weakened", 2: "Impaired", 3: "Broken", 4: "Dead"}
COHORT_MAX_TYPES = 2
COHORT_BOXES = 2  # a new cohort, or a second type for one, costs two upgrade boxes


COHORT_IMPAIRED, COHORT_BROKEN, COHORT_DEAD = 2, 3, 4
# "Cohorts heal 1 level each downtime, or 2 if a PC spends an activity on them" (SRD_FACTS 6.4).
COHORT_HEALING = 1
COHORT_TENDED_HEALING = 2


def cohort_harm(harm: int) -> str:
    return COHORT_HARM[check_range(harm, 0, COHORT_DEAD, _("Cohort harm"))]


def cohort_dice(quality: int, harm: int, *, elite: bool = False) -> int:
    """A cohort rolls its quality: "Impaired (−1d quality) → Broken (can't act until
    recovered) → Dead" (SRD_FACTS 6.4); an Elite upgrade for one of its types gives "+1d
    to quality rolls" (crew_upgrades.json) while its quality stays the crew's tier."""
    if check_range(harm, 0, COHORT_DEAD, _("Cohort harm")) == COHORT_DEAD:
        raise RuleError(_("The cohort is dead: it can't act."))
    if harm >= COHORT_BROKEN:
        raise RuleError(_("The cohort is broken: it can't act until it recovers."))
    return max(0, quality + elite - (1 if harm == COHORT_IMPAIRED else 0))


def heal_cohort(harm: int, tended: bool) -> int:
    """A downtime's healing: one level, two when a PC spent an activity on the cohort;
    the dead stay dead."""
    cohort_harm(harm)
    if harm == COHORT_DEAD:
        return harm
    return max(0, harm - (COHORT_TENDED_HEALING if tended else COHORT_HEALING))


def check_edges_and_flaws(edges: int, flaws: int) -> None:
    """A cohort takes one or two edges and as many flaws."""
    if not 1 <= edges <= 2:
        raise RuleError(_("Choose one or two edges."))
    if flaws != edges:
        raise RuleError(_("Choose as many flaws as edges (%(edges)s)."), edges=edges)


def cohort_cost(types: int) -> int:
    """Upgrade boxes to recruit a cohort: two, and two more for its second type."""
    check_range(types, 1, COHORT_MAX_TYPES, _("Cohort types"))
    return COHORT_BOXES * types
