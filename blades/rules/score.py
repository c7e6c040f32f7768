"""The score and downtime as the app runs them (RULES.md "The score", "Downtime").

Plans and their details, the engagement checklist, the entanglements' choices with their
costs on the books, the downtime activities, and the xp review. Pure: the crews app
applies what these return.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from blades.rules.character import (
    COIN_MAX,
    STRESS_MAX,
    XP_PER_TRIGGER_MAX,
    check_range,
)
from blades.rules.crew import JOB_COIN
from blades.rules.dice import Outcome
from blades.rules.errors import Plural, RuleError, Term, _, ngettext
from blades.rules.rolls import OUTCOME_RISE_MAX, outcome_rank, raise_outcome
from blades.rules.words import Joined, Words

# --- The score -------------------------------------------------------------------------

# Plan type -> the detail the players supply.
PLANS: dict[str, tuple[str, str]] = {
    "assault": (_("Assault"), _("Point of attack")),
    "deception": (_("Deception"), _("Method")),
    "stealth": (_("Stealth"), _("Point of infiltration")),
    "occult": (_("Occult"), _("Arcane method")),
    "social": (_("Social"), _("Connection")),
    "transport": (_("Transport"), _("Route and means")),
}


def plan_detail_label(plan: str) -> str:
    if plan not in PLANS:
        raise RuleError(
            _("“%(plan)s” is not a plan; choose one of %(plans)s."),
            plan=plan,
            plans=Joined(", ", [Term(name) for name, _detail in PLANS.values()]),
        )
    return PLANS[plan][1]


# The engagement checklist: each line may be a major advantage, a major disadvantage, or
# neither. Key -> (advantage text, disadvantage text).
ENGAGEMENT_CHECKLIST: dict[str, tuple[str, str]] = {
    "plan": (_("The plan is bold or daring"), _("The plan is overly complex or contingent")),
    "detail": (
        _("The detail hits the target where it is weak"),
        _("The detail hits the target where it is strong"),
    ),
    "friends": (_("Friends or contacts help"), _("Enemies or rivals interfere")),
    "other": (
        _("Another major advantage (e.g. the crew outranks the target)"),
        _("Another major disadvantage (e.g. the target outranks the crew)"),
    ),
}


def engagement_counts(marks: Mapping[str, str]) -> tuple[int, int]:
    """Advantages and disadvantages from the checklist; each line is "advantage",
    "disadvantage" or "" (neither)."""
    advantages = disadvantages = 0
    for key, mark in marks.items():
        if key not in ENGAGEMENT_CHECKLIST:
            raise RuleError(_("“%(line)s” is not on the engagement checklist."), line=key)
        if mark == "advantage":
            advantages += 1
        elif mark == "disadvantage":
            disadvantages += 1
        elif mark:
            raise RuleError(_("Each line is an advantage, a disadvantage, or neither."))
    return advantages, disadvantages


# "2 (or more) Stress" (000 §Flashbacks): the texts give no top; a whole stress track is
# the most a cost can mean. The one bound for every path that prices a flashback (the
# phase page's and the shared roll's).
FLASHBACK_STRESS_MAX = STRESS_MAX


def flashback_stress(stress: int) -> int:
    """The GM sets a flashback's cost: 0 for simple, 1 for complex, 2+ for elaborate."""
    return check_range(stress, 0, FLASHBACK_STRESS_MAX, _("Flashback stress"))


@dataclass(frozen=True)
class FlashbackCost:
    stress: int = 0
    coin: int = 0
    rep: int = 0


DOWNTIME_FLASHBACK_COST = 1  # "pay 1 coin or 1 rep for it, instead of stress"


def flashback_cost(stress: int, *, downtime: bool, pay_with: str = "") -> FlashbackCost:
    """What paying a flashback costs: its stress, or for a downtime activity "pay 1 coin
    or 1 rep for it, instead of stress" (000 §Flashbacks), the player's choice."""
    if not downtime:
        return FlashbackCost(stress=flashback_stress(stress))
    if pay_with not in ("coin", "rep"):
        raise RuleError(
            ngettext(
                "A flashback to a downtime activity costs %(cost)s coin or %(cost)s rep: "
                "choose which.",
                "A flashback to a downtime activity costs %(cost)s coin or %(cost)s rep: "
                "choose which.",
                DOWNTIME_FLASHBACK_COST,
            ),
            cost=DOWNTIME_FLASHBACK_COST,
        )
    if pay_with == "coin":
        return FlashbackCost(coin=DOWNTIME_FLASHBACK_COST)
    return FlashbackCost(rep=DOWNTIME_FLASHBACK_COST)


def job_coin(size: str, extra: int = 0) -> int:
    """Coin by size of job; a major job is 10 or more, so only it takes `extra`."""
    if size not in JOB_COIN:
        raise RuleError(_("“%(size)s” is not a job size."), size=size)
    if extra < 0 or (extra and size != "major"):
        raise RuleError(_("Only a major job pays more than its standard coin."))
    return JOB_COIN[size] + extra


# --- Losing hold -----------------------------------------------------------------------


@dataclass(frozen=True)
class HoldLoss:
    hold: str
    tier: int
    lair_threatened: bool


def lose_hold(hold: str, tier: int) -> HoldLoss:
    """Strong hold turns weak; weak hold costs a tier and stays weak. A weak tier-0 crew
    has nothing left to lose: its lair comes under threat instead."""
    if hold == "strong":
        return HoldLoss("weak", tier, False)
    if hold != "weak":
        raise RuleError(_("“%(hold)s” is not a hold; it is weak or strong."), hold=hold)
    if tier == 0:
        return HoldLoss("weak", 0, True)
    return HoldLoss("weak", tier - 1, False)


# --- Entanglements ---------------------------------------------------------------------


@dataclass(frozen=True)
class Cost:
    """What one choice does to the books. `fortune` means the app rolls a fortune roll
    and the heat comes from `fortune_heat`; `claim` gives up one claim; `incarcerate`
    hands someone over; `war` drops status with the faction to war; `harm` is the level
    of harm the PC involved suffers."""

    coin: int = 0
    rep: int = 0
    heat: int = 0
    status: int = 0
    hold: int = 0
    claim: bool = False
    war: bool = False
    incarcerate: bool = False
    fortune: bool = False
    harm: int = 0
    clear_heat: bool = False  # someone handed over, not incarcerated (a beating)


@dataclass(frozen=True)
class Choice:
    """One way out. `needs_faction`: the faction involved sets its price (by its tier) or
    takes the change (status, war), so the GM must name it.

    `words` is the marked %-format its label is read from, `params` its numbers (and
    `Term`s, words of the rules read in the reader's language too)."""

    key: str
    words: str | Plural
    cost: Cost = field(default_factory=Cost)
    needs_faction: bool = False
    params: Mapping[str, object] = field(default_factory=dict)

    @property
    def label(self) -> Words:
        """Read in its reader's language, as the log keeps it."""
        return Words(self.words, **self.params)

    @property
    def needs(self) -> tuple[str, ...]:
        """What the GM names for this way out, and nothing else: the faction involved (for
        someone handed over, the faction helped inside, if any: 003's "+1 status with a
        faction you helped"); the claim given up; the PC harmed or handed over, with who
        goes inside and the prison claim their time may earn; the dice of the fortune
        roll."""
        cost = self.cost
        wanted = {
            "faction": self.needs_faction or cost.incarcerate,
            "claim": cost.claim,
            "character": bool(cost.harm) or cost.incarcerate,
            "prisoner": cost.incarcerate,
            "prison_claim": cost.incarcerate,
            "dice": cost.fortune,
        }
        return tuple(name for name, needed in wanted.items() if needed)


@dataclass(frozen=True)
class Price:
    """A price that follows the crew or the faction involved: `base`, and one more per
    step of `per` ("wanted", "crew_tier" or "faction_tier"), paid in each cost of `pays`
    and read in the choice's words as `param`. `unnamed` is the choice's words while the
    faction is not named, its tier unknown: the price said per tier."""

    per: str
    pays: tuple[str, ...]
    param: str
    base: int = 0
    unnamed: str = ""


@dataclass(frozen=True)
class Way:
    """A row of WAYS_OUT: a choice as the book words it (as `Choice`), its price
    where it follows the crew or the faction, and `when`, the state of the crew it is
    offered in."""

    key: str
    words: str | Plural
    cost: Cost = field(default_factory=Cost)
    needs_faction: bool = False
    params: Mapping[str, object] = field(default_factory=dict)
    price: Price | None = None
    when: str = ""


# Interrogation: "they beat you up (level 2 harm) and you tell them what they want to know
# (+3 heat). You can resist each of those consequences separately" (003): the beating
# stands, is reduced a level or avoided; the talking stands or is avoided.
INTERROGATION_HARM = 2
INTERROGATION_HEAT = 3
_BEATEN = {
    INTERROGATION_HARM: Term(_("Beaten, level 2 harm")),
    1: Term(_("Beating resisted to level 1 harm")),
    0: Term(_("Beating avoided")),
}
_TALKED = {
    INTERROGATION_HEAT: _("%(beaten)s; talks, +%(heat)s heat"),
    0: _("%(beaten)s; talking avoided"),
}


def _interrogation() -> tuple[Way, ...]:
    ways = []
    for harm in range(INTERROGATION_HARM, -1, -1):
        for heat, words in _TALKED.items():
            standing = harm == INTERROGATION_HARM and heat == INTERROGATION_HEAT
            key = "talk" if standing else f"resisted-harm{harm}-heat{heat}"
            if standing:
                words = _("%(beaten)s; talks, +%(heat)s heat (each can be resisted)")
            params = {"beaten": _BEATEN[harm], "heat": heat}
            ways.append(Way(key, words, Cost(heat=heat, harm=harm), params=params))
    return tuple(ways)


def _per_faction_tier(param: str, unnamed: str, pays: tuple[str, ...] = ()) -> Price:
    """1 per tier of the faction involved ("1 rep per Tier", 003), paid in `pays` (else
    in `param`), and said per tier (`unnamed`) until the GM names the faction."""
    return Price(per="faction_tier", pays=pays or (param,), param=param, unnamed=unnamed)


# At wanted level 0 "the constables give you a beating to teach you a lesson (suffer level 3
# harm, no resistance roll allowed—they keep going until you're injured)" (003), instead
# of a few weeks inside.
BEATING_HARM = 3

# Each entanglement's ways out (003; The Usual Suspects from RULES.md), in the order they
# are offered. Choices that are not book changes carry no cost: the table plays them out.
# A row's `when` is a state of the crew that entanglement_choices tells ("unwanted": at
# wanted level 0); a priced Plural's count is set to its price when it is offered.
WAYS_OUT: dict[str, tuple[Way, ...]] = {
    "Arrest": (
        Way(
            "pay",
            _("Pay off the squad: %(coin)s coin"),
            price=Price(per="wanted", pays=("coin",), param="coin", base=3),
        ),
        Way(
            "hand_over",
            _("Hand someone over (incarceration: wanted −1, heat cleared)"),
            Cost(incarcerate=True),
        ),
        Way("resist", _("Resist or escape: play it out")),
        Way(
            "beating",
            _("Hand a PC over for a beating: level %(harm)s harm, no resistance"),
            Cost(harm=BEATING_HARM, clear_heat=True),
            params={"harm": BEATING_HARM},
            when="unwanted",
        ),
    ),
    "Cooperation": (
        # "If you don't have a +3 faction status, you avoid entanglements right now."
        Way(
            "avoid",
            _("No faction at +3 status: no entanglement this time"),
            when="no allies",
        ),
        Way("favour", _("Do the favour: play it out"), when="allies"),
        Way(
            "forfeit",
            _("Refuse and forfeit %(rep)s rep"),
            needs_faction=True,
            price=_per_faction_tier("rep", _("Refuse and forfeit 1 rep per tier of the faction")),
            when="allies",
        ),
        Way(
            "status",
            _("Refuse and lose 1 status with them"),
            Cost(status=-1),
            needs_faction=True,
            when="allies",
        ),
    ),
    "Demonic Notice": (
        Way("bargain", _("Accept the demon's bargain: play it out")),
        Way("hide", _("Hide until it loses interest: forfeit 3 rep"), Cost(rep=3)),
        Way("deal", _("Deal with it another way: play it out")),
    ),
    "Flipped": (Way("flipped", _("A contact, patron or client turns: play it out")),),
    "Gang Trouble": (
        Way(
            "face",
            _("Lose face: forfeit %(rep)s rep"),
            price=Price(per="crew_tier", pays=("rep",), param="rep", base=1),
        ),
        Way("example", _("Make an example of a member: play it out")),
        Way("reprisals", _("Face reprisals from the wronged party: play it out")),
    ),
    "Interrogation": (
        Way("pay", _("Pay them off: 3 coin"), Cost(coin=3)),
        *_interrogation(),
    ),
    "Questioning": (
        Way("fortune", _("Fortune roll: 1-3 +2 heat, 4/5 +1 heat"), Cost(fortune=True)),
        Way("pay", _("Pay them off: 2 coin"), Cost(coin=2)),
    ),
    "Reprisals": (
        # "Pay them (1 rep and 1 coin) per Tier of the enemy" (003).
        Way(
            "pay",
            ngettext(
                "Pay %(price)s rep and %(price)s coin",
                "Pay %(price)s rep and %(price)s coin",
                0,
            ),
            needs_faction=True,
            price=_per_faction_tier(
                "price", _("Pay 1 rep and 1 coin per tier of the faction"), pays=("rep", "coin")
            ),
        ),
        Way("allow", _("Let them have their way: play it out")),
        Way("fight", _("Fight back: play it out")),
    ),
    "Rivals": (
        Way(
            "rep",
            _("Forfeit %(rep)s rep"),
            needs_faction=True,
            price=_per_faction_tier("rep", _("Forfeit 1 rep per tier of the faction")),
        ),
        Way(
            "coin",
            ngettext("Forfeit %(coin)s coin", "Forfeit %(coin)s coin", 0),
            needs_faction=True,
            price=_per_faction_tier("coin", _("Forfeit 1 coin per tier of the faction")),
        ),
        Way(
            "stand",
            _("Stand up to them: lose 1 status with them"),
            Cost(status=-1),
            needs_faction=True,
        ),
    ),
    "Show of Force": (
        Way("hold", _("No claims to give: lose 1 hold"), Cost(hold=1), when="no claims"),
        Way("claim", _("Give them 1 claim"), Cost(claim=True), when="claims"),
        Way(
            "war",
            _("Go to war with them (status −3)"),
            Cost(war=True),
            needs_faction=True,
            when="claims",
        ),
    ),
    "Unquiet Dead": (
        Way("occultist", _("Hire an occultist (acquire asset): play it out")),
        Way("deal", _("Deal with it yourselves: play it out")),
    ),
    "The Usual Suspects": (
        Way(
            "fortune",
            _("Fortune roll: 1-3 +2 heat, 4/5 they suffer level 2 harm"),
            Cost(fortune=True),
        ),
        Way("pay", _("Pay them off: 1 coin"), Cost(coin=1)),
    ),
}


def entanglement_choices(
    name: str,
    *,
    wanted: int,
    crew_tier: int,
    faction_tier: int | None = None,
    claims: int = 1,
    allies: bool = True,
) -> tuple[Choice, ...]:
    """Each way out of an entanglement, with its cost worked out for this crew.

    `faction_tier` is the tier of the faction involved (Cooperation, Reprisals, Rivals),
    None until the GM names it: those prices are then worded per tier, and the choices
    marked `needs_faction` wait for the faction;
    `claims` is how many claims the crew could give up (Show of Force costs hold without);
    `allies` says whether any faction stands at +3 status with the crew (Cooperation).
    """
    if name not in WAYS_OUT:
        raise RuleError(_("“%(name)s” is not an entanglement."), name=name)
    crew = {
        "": True,
        "unwanted": wanted == 0,
        "allies": allies,
        "no allies": not allies,
        "claims": claims >= 1,
        "no claims": claims < 1,
    }
    steps = {"wanted": wanted, "crew_tier": crew_tier, "faction_tier": faction_tier or 0}
    named = faction_tier is not None
    return tuple(_priced(way, steps, named) for way in WAYS_OUT[name] if crew[way.when])


def _priced(way: Way, steps: Mapping[str, int], named: bool) -> Choice:
    choice = Choice(way.key, way.words, way.cost, way.needs_faction, way.params)
    price = way.price
    if price is None:
        return choice
    amount = price.base + steps[price.per]
    words = price.unnamed if price.unnamed and not named else way.words
    if isinstance(words, Plural):
        words = words._replace(count=amount)
    return replace(
        choice,
        words=words,
        cost=replace(way.cost, **dict.fromkeys(price.pays, amount)),
        params={**way.params, price.param: amount},
    )


QUESTIONING_DICE = 2  # "Roll 2d for a normal person"
QUESTIONING_TOUGH = (3, 4)  # "an experienced underworld type or some kind of tough ... 3d or 4d"
QUESTIONING_SOFT = (0, 1)  # "soft or ... some loyalty to the law, give them 1d or 0d"
QUESTIONING_DICE_MAX = QUESTIONING_TOUGH[-1]


def questioning_dice(dice: int) -> int:
    """The fortune roll of someone questioned (Questioning, The Usual Suspects): 2d for a
    normal person, 3d or 4d for a tough, 1d or 0d for someone soft or loyal to the law."""
    return check_range(dice, 0, QUESTIONING_DICE_MAX, _("Dice for the person questioned"))


def fortune_heat(name: str, outcome: Outcome) -> tuple[int, Words]:
    """Heat from Questioning's or The Usual Suspects' fortune roll, with what happened."""
    if outcome in (Outcome.SUCCESS, Outcome.CRITICAL):
        return 0, Words(_("They hold firm: nothing comes of it"))
    if outcome is Outcome.BAD:
        return 2, Words(_("They talk: +2 heat"))
    if name == "Questioning":
        return 1, Words(_("They let something slip: +1 heat"))
    if name == "The Usual Suspects":
        return 0, Words(_("They keep quiet but suffer level 2 harm"))
    raise RuleError(_("%(name)s has no fortune roll."), name=Term(name))


# --- Downtime --------------------------------------------------------------------------

ACTIVITIES: dict[str, str] = {
    "acquire_asset": _("Acquire asset"),
    "project": _("Long-term project"),
    "recover": _("Recover"),
    "reduce_heat": _("Reduce heat"),
    "train": _("Train"),
    "indulge_vice": _("Indulge vice"),
    "tend_cohort": _("Tend a cohort"),
}
# Activities whose result a coin may raise after the roll (vice relief is not a result).
RAISABLE = ("acquire_asset", "project", "recover", "reduce_heat")
# "Spend 1 coin to increase the result level of a downtime activity roll" (001 §Coin Use).
RAISE_COIN = 1
# An asset's quality goes on past a critical: "crit → tier + 2 (beyond that 2 coin per
# extra level)" (RULES.md "Downtime activities").
PAST_CRITICAL_COIN = 2
# The most one raise spends: a full purse (coin comes out of the PC's).
RAISE_COIN_MAX = COIN_MAX
HELP_DICE = 1  # "+1d to any downtime roll when a friend or contact helps"
SELF_HEAL_STRESS = 2  # a Physicker treating their own wounds
UNTREATED_STRESS = 1  # no healer: tough it out, 0d
UNTREATED_DICE = 0
HEALER_QUALITY_MAX = 6  # an NPC healer's quality; the texts give no top, and 6d is past any tier
# Offered, not decided: the GM sets the healer's quality; 2 is a competent professional.
HEALER_QUALITY_OFFERED = 2
RESTRICTED_HEAT = 2
EXTRA_ACTIVITY_COST = 1  # each activity past the free ones costs 1 coin or 1 rep


@dataclass(frozen=True)
class Raised:
    """A downtime result raised with coin: the new result, the asset quality bought past
    a critical (`past_critical`), and the coin it costs."""

    outcome: Outcome
    past_critical: int
    coin: int


def raise_result(kind: str, outcome: Outcome, coin: int) -> Raised:
    """After a downtime roll each RAISE_COIN lifts the result a level, up to a critical;
    an asset's quality goes on past it at PAST_CRITICAL_COIN a level. Coin that would buy
    nothing is not spent."""
    if kind not in RAISABLE:
        raise RuleError(_("Coin raises the result of a downtime roll, not this."))
    if coin < RAISE_COIN:
        raise RuleError(
            ngettext("Spend at least %(coin)s coin.", "Spend at least %(coin)s coin.", RAISE_COIN),
            coin=RAISE_COIN,
        )
    levels = min(coin // RAISE_COIN, OUTCOME_RISE_MAX - outcome_rank(outcome))
    spent = levels * RAISE_COIN
    past = (coin - spent) // PAST_CRITICAL_COIN if kind == "acquire_asset" else 0
    if not levels and not past:
        if kind == "acquire_asset":
            raise RuleError(
                _("Past a critical, each level of quality costs %(coin)s coin."),
                coin=PAST_CRITICAL_COIN,
            )
        raise RuleError(_("The result is already a critical."))
    return Raised(raise_outcome(outcome, levels), past, spent + past * PAST_CRITICAL_COIN)


def extra_activity_payment(pay_with: str) -> str:
    if pay_with not in ("coin", "rep"):
        raise RuleError(
            ngettext(
                "An extra activity costs %(cost)s coin or %(cost)s rep: choose which.",
                "An extra activity costs %(cost)s coin or %(cost)s rep: choose which.",
                EXTRA_ACTIVITY_COST,
            ),
            cost=EXTRA_ACTIVITY_COST,
        )
    return pay_with


# --- The xp review ---------------------------------------------------------------------

CHARACTER_TRIGGERS: dict[str, str] = {
    "playbook": _("You addressed a challenge with your playbook's xp trigger"),
    "beliefs": _("You expressed your beliefs, drives, heritage or background"),
    "vice": _("You struggled with issues from your vice or traumas"),
}
# The most xp one PC's review can give: every trigger at its most.
SESSION_XP_MAX = XP_PER_TRIGGER_MAX * len(CHARACTER_TRIGGERS)
CREW_TRIGGERS: dict[str, str] = {
    "crew_type": _("The crew's own xp trigger"),
    "station": _("You contended with challenges above your current station"),
    "reputation": _("You bolstered your crew's reputation or developed a new one"),
    "nature": _("You expressed the goals, drives, inner conflict or essential nature of the crew"),
}
