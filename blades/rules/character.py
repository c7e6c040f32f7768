"""Character sheet arithmetic: actions, stress, trauma, harm, armor, load, coin and xp.

Everything here works on plain values and returns new values; nothing is mutated. The
Django models store the plain values and call these functions inside atomic updates.
A move the rules forbid raises RuleError, whose message is shown to the player.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from blades.rules.errors import RuleError, Term, _, ngettext
from blades.rules.words import Joined


def check_range(value: int, low: int, high: int, what: str) -> int:
    """Reject a stored value outside its track, naming the field for the player."""
    if not low <= value <= high:
        raise RuleError(
            _("%(what)s must be between %(low)s and %(high)s."), what=Term(what), low=low, high=high
        )
    return value


# --- Actions and attributes -------------------------------------------------------------

ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "insight": ("hunt", "study", "survey", "tinker"),
    "prowess": ("finesse", "prowl", "skirmish", "wreck"),
    "resolve": ("attune", "command", "consort", "sway"),
}
ACTIONS: tuple[str, ...] = tuple(action for group in ATTRIBUTES.values() for action in group)


def _check_action(action: str) -> str:
    if action not in ACTIONS:
        raise RuleError(_("“%(action)s” is not an action."), action=action)
    return action


def _check_attribute(attribute: str) -> str:
    if attribute not in ATTRIBUTES:
        raise RuleError(_("“%(attribute)s” is not an attribute."), attribute=attribute)
    return attribute


def attribute_of(action: str) -> str:
    _check_action(action)
    return next(attr for attr, actions in ATTRIBUTES.items() if action in actions)


def attribute_rating(ratings: Mapping[str, int], attribute: str) -> int:
    """An attribute is rated by how many of its actions have at least one dot."""
    return sum(
        1 for action in ATTRIBUTES[_check_attribute(attribute)] if ratings.get(action, 0) >= 1
    )


def attribute_ratings(ratings: Mapping[str, int]) -> dict[str, int]:
    return {attribute: attribute_rating(ratings, attribute) for attribute in ATTRIBUTES}


def vice_dice(ratings: Mapping[str, int]) -> int:
    """Indulging a vice rolls the lowest attribute."""
    return min(attribute_ratings(ratings).values())


# --- Creation and action ratings -------------------------------------------------------

CREATION_DOTS = 4  # one for heritage, one for background, two free
CREATION_MAX = 2


def _check_dots(dots: Mapping[str, int]) -> None:
    for action, value in dots.items():
        _check_action(action)
        if value < 0:
            raise RuleError(
                _("Action dots cannot be negative (%(action)s)."),
                action=Term(action.capitalize()),
            )


def validate_creation_dots(
    playbook_dots: Mapping[str, int], added: Mapping[str, int]
) -> dict[str, int]:
    """Combine the playbook's dots with the player's four and return all twelve ratings.

    A standard or custom playbook gives 3 dots, so a valid sheet totals 7. Spirit
    playbooks give a different number; the player still adds exactly four.
    """
    _check_dots(playbook_dots)
    _check_dots(added)
    spent = sum(added.values())
    if spent != CREATION_DOTS:
        raise RuleError(
            _("Add exactly %(dots)s action dots at creation (you added %(spent)s)."),
            dots=CREATION_DOTS,
            spent=spent,
        )
    ratings = {action: playbook_dots.get(action, 0) + added.get(action, 0) for action in ACTIONS}
    too_high = [action for action, value in ratings.items() if value > CREATION_MAX]
    if too_high:
        raise RuleError(
            _("No action can start above %(max)s dots (%(actions)s would)."),
            max=CREATION_MAX,
            actions=Joined(", ", [Term(a.capitalize()) for a in too_high]),
        )
    return ratings


def creation_dots_left(added: Mapping[str, int]) -> int:
    """The dots a new character has still to add; below zero when too many were chosen."""
    return CREATION_DOTS - sum(added.values())


CUSTOM_PRIMARY_DOTS = 2
CUSTOM_SECONDARY_DOTS = 1


def custom_playbook_dots(primary: str, secondary: str) -> dict[str, int]:
    _check_action(primary)
    _check_action(secondary)
    if primary == secondary:
        raise RuleError(_("The primary and secondary actions must differ."))
    return {primary: CUSTOM_PRIMARY_DOTS, secondary: CUSTOM_SECONDARY_DOTS}


def action_cap(mastery: bool) -> int:
    return 4 if mastery else 3


def set_action_rating(rating: int, mastery: bool) -> int:
    cap = action_cap(mastery)
    if rating > cap:
        if mastery:
            raise RuleError(_("Actions go no higher than %(cap)s."), cap=cap)
        raise RuleError(_("Actions go no higher than %(cap)s until the crew has Mastery."), cap=cap)
    if rating < 0:
        raise RuleError(_("An action rating cannot be negative."))
    return rating


# --- Stress and trauma ----------------------------------------------------------------

STRESS_MAX = 9
TRAUMA_MAX = 4
# Marked: a refusal names one in the reader's language (`Term`).
TRAUMA_CONDITIONS: tuple[str, ...] = (
    _("cold"),
    _("haunted"),
    _("obsessed"),
    _("paranoid"),
    _("reckless"),
    _("soft"),
    _("unstable"),
    _("vicious"),
)


@dataclass(frozen=True)
class StressChange:
    stress: int
    trauma_triggered: bool


def mark_stress(stress: int, amount: int, stress_max: int = STRESS_MAX) -> StressChange:
    """Mark (or, with a negative amount, clear) stress.

    "When a PC marks their last stress box, they suffer a level of trauma" (001 §Trauma):
    reaching the last box is trauma, and the character comes back with zero stress;
    stress beyond the last box is lost with it. Clearing more than is marked stops at
    zero, as a vice roll can.
    """
    check_range(stress, 0, stress_max, _("Stress"))
    total = stress + amount
    if amount > 0 and total >= stress_max:
        return StressChange(stress=0, trauma_triggered=True)
    return StressChange(stress=max(0, total), trauma_triggered=False)


def set_stress(stress: int, value: int, stress_max: int = STRESS_MAX) -> StressChange:
    """Set the track to a value, as tapping a box on the sheet does. Tapping the last box
    marks it, and "When a PC marks their last stress box, they suffer a level of trauma"
    (001 §Trauma) however it was marked; any lower value is a correction."""
    check_range(stress, 0, stress_max, _("Stress"))
    check_range(value, 0, stress_max, _("Stress"))
    if value == stress_max and value > stress:
        return mark_stress(stress, value - stress, stress_max)
    return StressChange(stress=value, trauma_triggered=False)


def add_trauma(
    traumas: Sequence[str], condition: str, trauma_max: int = TRAUMA_MAX
) -> tuple[str, ...]:
    """trauma_max is 4, or more with the Hardened/Ordained crew upgrade."""
    if condition not in TRAUMA_CONDITIONS:
        raise RuleError(_("“%(condition)s” is not a trauma condition."), condition=condition)
    if condition in traumas:
        raise RuleError(
            _("The character is already %(condition)s; choose another condition."),
            condition=Term(condition),
        )
    if len(traumas) >= trauma_max:
        raise RuleError(
            _("The character already has %(count)s trauma and must retire."), count=trauma_max
        )
    return (*traumas, condition)


def must_retire(traumas: Sequence[str], trauma_max: int = TRAUMA_MAX) -> bool:
    return len(traumas) >= trauma_max


def remove_trauma(traumas: Sequence[str], condition: str) -> tuple[str, ...]:
    """The GM takes back a trauma condition marked in error."""
    if condition not in traumas:
        raise RuleError(_("The character is not %(condition)s."), condition=Term(condition))
    return tuple(t for t in traumas if t != condition)


def check_fit_to_roll(name: str, traumas: Sequence[str], trauma_max: int = TRAUMA_MAX) -> None:
    """ "When you mark your fourth trauma condition, your character cannot continue as a
    daring scoundrel. You must retire them" (001 §Trauma): no more rolls, none to join."""
    if must_retire(traumas, trauma_max):
        raise RuleError(
            _("%(name)s has %(count)s trauma and must retire: no more rolls."),
            name=name,
            count=len(traumas),
        )


def ignored_vice_stress(traumas_count: int, *, indulged: bool, satisfied_by_trauma: bool) -> int:
    """Stress for a PC who did not indulge their vice this downtime: one per trauma.

    Trauma taken since the last downtime counts as indulging: "When you return, you have
    zero stress and your vice has been satisfied for the next downtime" (001 §Trauma).
    """
    check_range(traumas_count, 0, len(TRAUMA_CONDITIONS), _("Trauma"))
    return 0 if indulged or satisfied_by_trauma else traumas_count


# --- Harm and healing -----------------------------------------------------------------

HARM_SLOTS: dict[int, int] = {1: 2, 2: 2, 3: 1, 4: 1}
HARM_PENALTIES: dict[int, str] = {1: "Reduced effect", 2: "−1d", 3: "Need help", 4: "Fatal"}
HEALING_SEGMENTS = 4
VIGOROUS_SEGMENTS = 3  # Vigorous: "your healing clock becomes a 3-clock" (SRD_FACTS §2)


def healing_segments(vigorous: bool) -> int:
    return VIGOROUS_SEGMENTS if vigorous else HEALING_SEGMENTS


def healing_dice(pool: int, vigorous: bool) -> int:
    """Vigorous: "+1d to healing treatment rolls" for the character being treated."""
    return pool + int(vigorous)


Harm = dict[int, tuple[str, ...]]


def empty_harm() -> Harm:
    return {level: () for level in HARM_SLOTS}


def _rows(harm: Mapping[int, Sequence[str]]) -> Harm:
    # Keys are accepted as ints or as the strings a JSON round trip turns them into;
    # missing rows are empty. Treating "1" as unknown would silently drop the harm.
    rows = empty_harm()
    for key, entries in harm.items():
        level = int(key)
        if level not in HARM_SLOTS:
            raise RuleError(
                _("Harm level %(level)s does not exist; levels run 1 to 4."), level=level
            )
        if len(entries) > HARM_SLOTS[level]:
            raise RuleError(
                _("Harm level %(level)s holds at most %(slots)s."),
                level=level,
                slots=HARM_SLOTS[level],
            )
        rows[level] = tuple(entries)
    return rows


def harm_rows(harm: Mapping[int, Sequence[str]]) -> Harm:
    """Stored harm (possibly with string keys from JSON) as all four rows."""
    return _rows(harm)


@dataclass(frozen=True)
class HarmResult:
    harm: Harm
    level: int
    catastrophic: bool


def _place(rows: Harm, level: int, description: str) -> HarmResult:
    """Write harm in the first row from `level` up that has room."""
    landed = level
    while len(rows[landed]) >= HARM_SLOTS[landed]:
        if landed == 4:
            raise RuleError(_("This character has already suffered fatal harm."))
        landed += 1
    rows[landed] = (*rows[landed], description)
    # Reading of "level 3 full and more level 3 harm": catastrophic means the harm needed
    # a level-3 slot, found the row full, and was pushed into level 4. Harm dealt at
    # level 4 in the first place is simply fatal, not catastrophic.
    return HarmResult(harm=rows, level=landed, catastrophic=level <= 3 < landed)


def add_harm(harm: Mapping[int, Sequence[str]], level: int, description: str) -> HarmResult:
    """Record harm; a full row pushes it one row up.

    Any new harm clears the healing clock: the caller sets the healing ticks to 0.
    """
    check_range(level, 1, 4, _("Harm level"))
    description = description.strip()
    if not description:
        raise RuleError(_("Describe the harm (for example “Broken Leg”)."))
    return _place(_rows(harm), level, description)


def clear_harm(harm: Mapping[int, Sequence[str]], level: int, index: int) -> Harm:
    rows = _rows(harm)
    check_range(level, 1, 4, _("Harm level"))
    if not 0 <= index < len(rows[level]):
        raise RuleError(_("There is no such harm at level %(level)s."), level=level)
    rows[level] = rows[level][:index] + rows[level][index + 1 :]
    return rows


def heal_one_level(harm: Mapping[int, Sequence[str]]) -> Harm:
    """Every harm drops one level and level-1 harm goes away (fatal harm the GM let the
    character survive heals to level 3 like any other).

    Each row has no more slots than the row below it, so moving everything down always
    fits; should that ever change, harm that does not fit is pushed up as new harm is.
    """
    old = _rows(harm)
    healed = empty_harm()
    for level in (2, 3, 4):
        for description in old[level]:
            healed = _place(healed, level - 1, description).harm
    return healed


def tick_healing(
    ticks_marked: int,
    ticks: int,
    harm: Mapping[int, Sequence[str]],
    segments: int = HEALING_SEGMENTS,
) -> tuple[int, Harm]:
    """Tick the healing clock; each time it fills, all harm heals one level.

    Extra ticks roll over into the emptied clock. segments is 4, or 3 with Vigorous.
    """
    check_range(ticks_marked, 0, segments - 1, _("Healing ticks"))
    if ticks < 0:
        raise RuleError(_("Healing ticks cannot be negative."))
    rows = _rows(harm)
    fills, remaining = divmod(ticks_marked + ticks, segments)
    # Four fills heal fatal harm away entirely; any more change nothing, and a huge
    # count of ticks must not keep the server healing an empty sheet.
    for _fill in range(min(fills, len(HARM_SLOTS))):
        rows = heal_one_level(rows)
    return remaining, rows


def harm_penalties(harm: Mapping[int, Sequence[str]]) -> list[str]:
    rows = _rows(harm)
    return [HARM_PENALTIES[level] for level in HARM_SLOTS if rows[level]]


@dataclass(frozen=True)
class HarmPenalty:
    """What harm does to every action roll the character makes (001 §Harm): lesser harm
    reduces effect, moderate harm costs a die, severe harm incapacitates."""

    dice: int  # -1 with level 2 harm
    effect: int  # -1 (a level of effect) with level 1 harm
    incapacitated: bool  # level 3 harm: needs help or a push to act at all
    dead: bool  # level 4 harm: fatal


def harm_penalty(harm: Mapping[int, Sequence[str]]) -> HarmPenalty:
    rows = _rows(harm)
    return HarmPenalty(
        dice=-1 if rows[2] else 0,
        effect=-1 if rows[1] else 0,
        incapacitated=bool(rows[3]),
        dead=bool(rows[4]),
    )


def harm_dice_penalty(harm: Mapping[int, Sequence[str]]) -> int:
    return harm_penalty(harm).dice


def check_can_act(harm: Mapping[int, Sequence[str]], *, helped: bool, pushed: bool) -> None:
    """Severe harm: "your character is incapacitated and can't do anything unless you have
    help from someone else or push yourself to perform the action" (001 §Harm).

    `pushed` is the push to act, a push of its own ("Take action when you're
    incapacitated", 001 §Pushing Yourself): a push for +1d or +1 effect does not count."""
    penalty = harm_penalty(harm)
    if penalty.dead:
        raise RuleError(_("This character has suffered fatal harm and cannot act."))
    if penalty.incapacitated and not (helped or pushed):
        raise RuleError(
            _(
                "Severe harm: incapacitated. Act only with help from someone else, or push "
                "yourself to act (2 stress, on top of any other push)."
            )
        )


# --- Armor ----------------------------------------------------------------------------

ARMOR_BOXES: tuple[str, ...] = ("armor", "heavy", "special")
ARMOR_LABELS: dict[str, str] = {
    "armor": "Armor",
    "heavy": "Heavy armor",
    "special": "Special armor",
}


def armor_boxes(*, armor: bool, heavy: bool, special: bool) -> tuple[str, ...]:
    """The boxes a character may mark: armor only when armor is carried on this score
    (an item checked on the chosen load), a second box for heavy armor, and special
    armor only through an ability that grants it (it needs no load)."""
    boxes = []
    # +Heavy is worn on top of Armor (SRD_FACTS 4.1): alone it is no armor at all.
    if armor:
        boxes.append("armor")
        if heavy:
            boxes.append("heavy")
    if special:
        boxes.append("special")
    return tuple(boxes)


def armor_left(
    used: set[str] | frozenset[str], *, armor: bool, heavy: bool, special: bool
) -> tuple[str, ...]:
    """The boxes the character may still mark against a consequence (the heavy box only
    after the first, on harm the armor reduced: rolls.models.Consequence)."""
    boxes = armor_boxes(armor=armor, heavy=heavy, special=special)
    return tuple(box for box in boxes if box not in used)


def use_armor(
    used: set[str] | frozenset[str], box: str, *, armor: bool, heavy: bool, special: bool
) -> frozenset[str]:
    if box not in ARMOR_BOXES:
        raise RuleError(_("“%(box)s” is not an armor box."), box=box)
    if box not in armor_boxes(armor=armor, heavy=heavy, special=special):
        if box == "armor":
            raise RuleError(_("No armor is carried: check armor on this score's load first."))
        if box == "heavy":
            raise RuleError(_("Only heavy armor gives a second armor box."))
        raise RuleError(_("Special armor needs an ability that grants it."))
    if box in used:
        raise RuleError(
            _("%(box)s is already marked until armor is restored."), box=Term(ARMOR_LABELS[box])
        )
    # Heavy armor is a second box: it reduces the consequence again after the first.
    if box == "heavy" and "armor" not in used:
        raise RuleError(_("Mark the armor box before the heavy armor box."))
    return frozenset(used) | {box}


def restore_armor(used: set[str] | frozenset[str], *, downtime: bool) -> frozenset[str]:
    """Choosing load for the next score restores all armor; downtime restores special."""
    return frozenset(used) - {"special"} if downtime else frozenset()


# --- Load -----------------------------------------------------------------------------

# A custom playbook's item takes at most what the heaviest standard item does: +Heavy
# armor's 3 (SRD_FACTS 4.1).
ITEM_LOAD_MAX = 3
LOAD_LEVELS: dict[str, int] = {"light": 3, "normal": 5, "heavy": 6}
MULE_LOAD_LEVELS: dict[str, int] = {"light": 5, "normal": 7, "heavy": 8}
# Crew upgrades that carry load for free, by key: "Rigging crew upgrades (Assassins,
# Bravos, Cult, Shadows) give 2 free load in certain item categories" (SRD_FACTS 4.1).
# Which items ride free is the player's to keep to; the app counts the load.
FREE_LOAD_UPGRADES: dict[str, int] = {
    "assassin_rigging": 2,
    "bravos_rigging": 2,
    "cult_rigging": 2,
    "thief_rigging": 2,
}
# Hawker's Rigging: "1 carried item is concealed and has no load" (crew_upgrades.json).
# The heaviest item carried is the one counted free: which item is hidden is the
# player's to say, and no choice of theirs carries more.
HIDDEN_ITEM_UPGRADE = "hawkers_rigging"


@dataclass(frozen=True)
class LoadState:
    limit: int
    total: int
    encumbered: bool
    over: bool


def load_bonus(upgrades: Mapping[str, int], carried: Iterable[int] = ()) -> int:
    """The load the crew's upgrades add to every level: the one place an upgrade or
    ability that changes load is counted (Mule changes the levels themselves).
    `carried` is the load of each item carried, which Hawker's Rigging needs."""
    free = sum(free for key, free in FREE_LOAD_UPGRADES.items() if upgrades.get(key, 0) >= 1)
    if upgrades.get(HIDDEN_ITEM_UPGRADE, 0) >= 1:
        free += max(carried, default=0)
    return free


def load_limit(level: str, mule: bool, bonus: int = 0) -> int:
    """The most a load carries: its level (Mule's higher levels), plus `load_bonus`."""
    levels = MULE_LOAD_LEVELS if mule else LOAD_LEVELS
    if level not in levels:
        raise RuleError(_("“%(level)s” is not a load; choose light, normal or heavy."), level=level)
    return levels[level] + bonus


def load_total(item_loads: Iterable[int], coin_carried: int = 0) -> int:
    """Armor and heavy armor are ordinary items here (2, and 3 more for heavy)."""
    loads = list(item_loads)
    if any(load < 0 for load in loads) or coin_carried < 0:
        raise RuleError(_("Load cannot be negative."))
    return sum(loads) + coin_carried


def check_load(level: str, mule: bool, total: int, bonus: int = 0) -> LoadState:
    if total < 0:
        raise RuleError(_("Load cannot be negative."))
    limit = load_limit(level, mule, bonus)
    return LoadState(
        limit=limit,
        total=total,
        encumbered=total > load_limit("heavy", mule, bonus),
        over=total > limit,
    )


def can_carry(level: str, mule: bool, total_after: int, bonus: int = 0) -> bool:
    """Checking items is allowed up to the chosen load's limit.

    Encumbrance still happens, from load gained without checking an item (coin picked
    up during the score, something the GM hands over); check_load reports it.
    """
    return total_after <= load_limit(level, mule, bonus)


# --- Coin and stash -------------------------------------------------------------------

COIN_MAX = 4
STASH_MAX = 40
STASH_PER_COIN = 2


def add_coin(coin: int, amount: int) -> int:
    check_range(coin, 0, COIN_MAX, _("Coin"))
    total = coin + amount
    if total > COIN_MAX:
        raise RuleError(
            _("A scoundrel carries at most %(max)s coin; stash the rest."), max=COIN_MAX
        )
    if total < 0:
        raise RuleError(_("Not enough coin: the character has %(coin)s."), coin=coin)
    return total


def add_stash(stash: int, amount: int) -> int:
    """Gains such as crew-advance profits; a full stash cannot grow further."""
    check_range(stash, 0, STASH_MAX, _("Stash"))
    if amount < 0:
        raise RuleError(_("Take coin out of the stash by withdrawing it."))
    return min(STASH_MAX, stash + amount)


def stash_coin(coin: int, stash: int, amount: int) -> tuple[int, int]:
    check_range(stash, 0, STASH_MAX, _("Stash"))
    if amount <= 0:
        raise RuleError(_("Stash at least 1 coin."))
    if stash + amount > STASH_MAX:
        raise RuleError(_("The stash holds at most %(max)s coin."), max=STASH_MAX)
    return add_coin(coin, -amount), stash + amount


def receive_coin(coin: int, stash: int, amount: int) -> tuple[int, int]:
    """Coin handed to a scoundrel (a share of the payoff or of the crew's excess).

    "More than 4 coin is an impractical amount to keep lying around. You must spend the
    excess or put it in your stash" (001 §Coin and Stash): what the purse cannot hold
    goes into the stash, which must have room for it.
    """
    check_range(coin, 0, COIN_MAX, _("Coin"))
    check_range(stash, 0, STASH_MAX, _("Stash"))
    if amount < 0:
        raise RuleError(_("Coin received cannot be negative."))
    carried = min(COIN_MAX, coin + amount)
    stashed = amount - (carried - coin)
    if stash + stashed > STASH_MAX:
        raise RuleError(_("The stash holds at most %(max)s coin; spend some first."), max=STASH_MAX)
    return carried, stash + stashed


def withdraw_stash(coin: int, stash: int, coin_wanted: int) -> tuple[int, int]:
    """Selling off investments: every 2 stash gives 1 coin."""
    check_range(stash, 0, STASH_MAX, _("Stash"))
    if coin_wanted <= 0:
        raise RuleError(_("Withdraw at least 1 coin."))
    cost = coin_wanted * STASH_PER_COIN
    if cost > stash:
        raise RuleError(
            ngettext(
                "%(coin)s coin costs %(cost)s stash; the character has only %(stash)s.",
                "%(coin)s coin costs %(cost)s stash; the character has only %(stash)s.",
                coin_wanted,
            ),
            coin=coin_wanted,
            cost=cost,
            stash=stash,
        )
    return add_coin(coin, coin_wanted), stash - cost


def lifestyle(stash: int) -> int:
    """Lifestyle quality is the number of full rows of ten in the stash."""
    return check_range(stash, 0, STASH_MAX, _("Stash")) // 10


def retirement_fate(stash: int) -> str:
    check_range(stash, 0, STASH_MAX, _("Stash"))
    if stash <= 10:
        return "poor soul"
    if stash <= 20:
        return "meager"
    if stash < STASH_MAX:
        return "modest"
    return "fine"


# --- Experience -----------------------------------------------------------------------

PLAYBOOK_XP = 8
ATTRIBUTE_XP = 6
XP_PER_TRIGGER_MAX = 2  # 1 if it happened, 2 if it happened a lot


@dataclass(frozen=True)
class XpChange:
    xp: int
    advances: int


def track_length(track: str) -> int:
    if track == "playbook":
        return PLAYBOOK_XP
    if track in ATTRIBUTES:
        return ATTRIBUTE_XP
    raise RuleError(_("“%(track)s” is not an xp track."), track=track)


def mark_track_xp(xp: int, amount: int, length: int) -> XpChange:
    """Filling a track clears it for an advance; xp beyond the last box carries over,
    so several advances can come at once. A negative amount corrects a mistaken mark."""
    check_range(xp, 0, length - 1, _("Xp"))
    total = xp + amount
    if total < 0:
        raise RuleError(_("Only %(xp)s xp is marked."), xp=xp)
    advances, remaining = divmod(total, length)
    return XpChange(xp=remaining, advances=advances)


def mark_xp(xp: int, amount: int, track: str) -> XpChange:
    return mark_track_xp(xp, amount, track_length(track))


def end_of_session_xp(triggers: Mapping[str, int]) -> int:
    for trigger, value in triggers.items():
        if not 0 <= value <= XP_PER_TRIGGER_MAX:
            raise RuleError(_("“%(trigger)s” gives 0, 1 or 2 xp."), trigger=trigger)
    return sum(triggers.values())


XP_TRACKS: tuple[str, ...] = ("playbook", *ATTRIBUTES)


def split_session_xp(xp: int, tracks: Mapping[str, int]) -> dict[str, int]:
    """Where the session's xp goes: "You may mark end-of-session xp on any xp tracks you
    want (any attribute or your playbook xp track)" (001 §PC Advancement). Every point is
    placed, none twice; tracks given 0 are left out."""
    unknown = set(tracks) - set(XP_TRACKS)
    if unknown:
        raise RuleError(_("“%(track)s” is not an xp track."), track=sorted(unknown)[0])
    if any(amount < 0 for amount in tracks.values()):
        raise RuleError(_("Xp marked on a track cannot be negative."))
    placed = sum(tracks.values())
    if placed != xp:
        raise RuleError(
            _("The triggers give %(xp)s xp; the tracks take %(placed)s. Place it all."),
            xp=xp,
            placed=placed,
        )
    return {track: amount for track, amount in tracks.items() if amount}


# --- Warnings when rolling --------------------------------------------------------------

ENCUMBERED_WARNING = "Encumbered: carrying more than a heavy load, you can barely move."


def roll_warnings(harm: Mapping[int, Sequence[str]], encumbered: bool) -> list[str]:
    """What the sheet reminds the roller of before an action roll: one line per harm
    row that holds something (its penalty), and encumbrance."""
    rows = _rows(harm)
    warnings = [
        f"Level {level} harm ({', '.join(rows[level])}): {HARM_PENALTIES[level].lower()}."
        for level in HARM_SLOTS
        if rows[level]
    ]
    if encumbered:
        warnings.append(ENCUMBERED_WARNING)
    return warnings
