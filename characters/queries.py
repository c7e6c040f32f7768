"""What a sheet or the party shows, worked out once with blades.rules.

The sheet loads a fixed number of queries however many items, abilities or contacts
a character has: related rows come in by prefetch, and every figure derived from
them is computed here in Python.
"""

from dataclasses import dataclass, field

from django.db.models import Prefetch, Q

from blades.rules import abilities as ability_rules
from blades.rules import character as rules
from blades.rules.dice import dice_count
from blades.rules.rolls import action_pool
from blades.rules.score import CHARACTER_TRIGGERS
from sessions.steps import ID_MAX

from . import wording
from .models import (
    WIZARD_STEPS,
    Character,
    CharacterAbility,
    CharacterItem,
    Contact,
    Draft,
    GmNote,
    Item,
    Playbook,
    SpecialAbility,
)


@dataclass
class PartyView:
    stress: int
    stress_max: int
    traumas: list[str]
    trauma_max: int
    trauma_pending: int
    must_retire: bool
    harm: list[tuple[int, list[str], str]]
    penalties: list[str]

    @property
    def stress_boxes(self) -> list[bool]:
        return [n < self.stress for n in range(self.stress_max)]


def _harm_rows(character: Character) -> list[tuple[int, list[str], str]]:
    # Worst first, as on the printed sheet.
    rows = rules.harm_rows(character.harm)
    penalties = ability_rules.harm_penalty_labels(character.ability_keys)
    return [
        (level, list(rows[level]), penalties[level])
        for level in sorted(rules.HARM_SLOTS, reverse=True)
    ]


def party_view(character: Character) -> PartyView:
    return PartyView(
        stress=character.stress,
        stress_max=character.stress_max,
        traumas=list(character.traumas),
        trauma_max=character.trauma_max,
        trauma_pending=character.trauma_pending,
        must_retire=rules.must_retire(character.traumas, character.trauma_max),
        harm=_harm_rows(character),
        penalties=rules.harm_penalties(character.harm),
    )


def party(table_id: int):
    return (
        Character.objects.filter(table_id=table_id, state="active")
        .select_related("owner", "playbook", "table__crew")
        .prefetch_related(
            Prefetch("abilities", queryset=CharacterAbility.objects.select_related("ability"))
        )
    )


@dataclass(frozen=True)
class Box:
    """One box (or dot) of a track on the paper sheet, counted from 1; clicking it posts
    `value`, so the template never does the arithmetic."""

    number: int
    on: bool
    value: int


def track(marked: int, length: int, *, change: bool = False) -> list[Box]:
    """Like on paper: clicking a box marks up to it, clicking the last marked one clears
    it. The value is the new count, or with change=True the difference to post (xp, coin
    and healing are marked by an amount)."""
    boxes = []
    for number in range(1, length + 1):
        target = number - 1 if number == marked else number
        boxes.append(Box(number, number <= marked, target - marked if change else target))
    return boxes


@dataclass
class ActionLine:
    action: str
    dots: int
    # What an action roll would draw before bonus dice (harm's -1d taken): the dice its
    # link shows, from the same sum the roll uses.
    pool: int
    track: list[Box]

    @property
    def zero_pool(self) -> bool:
        """Rolls dice all the same, keeping the lowest."""
        return self.pool <= 0

    @property
    def dice(self) -> int:
        return dice_count(self.pool)


@dataclass
class AttributeView:
    attribute: str
    rating: int
    xp: int
    xp_track: list[Box]
    advances: int
    actions: list[ActionLine]
    # A resistance roll's dice: the rating and what abilities add (Iron Will...).
    resist_dice: int = 0


@dataclass
class HarmLine:
    level: int
    penalty: str
    # What is written on each of the level's lines, "" for a blank one.
    lines: list[str]


@dataclass
class SheetView:
    party: PartyView
    attributes: list[AttributeView]
    action_cap: int
    mastery_cap: int  # the cap once the crew has Mastery
    abilities: list[SpecialAbility]
    # The crew's dot abilities (Deadly...) not yet used: (key, name, actions).
    crew_dots: list[tuple[str, str, tuple[str, ...]]]
    # Expertise: None without it, else the action chosen with it ("" until chosen).
    expertise: str | None
    ability_choices: list[SpecialAbility]
    veteran_choices: list[SpecialAbility]
    teammates: list[Character]
    mule: bool
    special_armor: bool
    heavy_carried: bool
    armor_boxes: list[tuple[str, str, bool]]  # box, label, used
    healing_segments: int
    load: rules.LoadState | None
    load_total: int
    lifestyle: int
    retirement_fate: str
    playbook_xp: int
    playbook_advances: int
    warnings: list[str]
    vice_dice: int
    trauma_choices: list[str] = field(default_factory=list)
    slots: dict[int, int] = field(default_factory=dict)
    stress_track: list[Box] = field(default_factory=list)
    # Every condition in the rules' order, with whether it is taken.
    trauma_track: list[tuple[str, bool]] = field(default_factory=list)
    harm_lines: list[HarmLine] = field(default_factory=list)
    healing_track: list[Box] = field(default_factory=list)
    playbook_xp_track: list[Box] = field(default_factory=list)
    coin_track: list[Box] = field(default_factory=list)
    stash_track: list[Box] = field(default_factory=list)
    load_levels: list[tuple[str, int]] = field(default_factory=list)
    # Each item with a pip per load, as the paper sheet draws them.
    items: list[tuple[CharacterItem, range]] = field(default_factory=list)
    # What marks xp at the end of a session, the playbook's own trigger first.
    xp_triggers: list[str] = field(default_factory=list)
    xp_per_trigger_max: int = rules.XP_PER_TRIGGER_MAX
    actions: tuple[str, ...] = rules.ACTIONS  # Expertise's choices
    expertise_stress: int = ability_rules.EXPERTISE_STRESS_MOST
    stash_per_coin: int = rules.STASH_PER_COIN


def gm_note_text(character: Character) -> str:
    """The GM's private notes on the character ("" when none are written). Ask only for
    a viewer who may see them."""
    note = GmNote.objects.filter(character=character).first()
    return note.text if note else ""


def own_items(character: Character):
    return CharacterItem.objects.filter(character=character)


def own_contacts(character: Character):
    return Contact.objects.filter(character=character)


def load_character(character_id: int) -> Character:
    """The character with everything the sheet lists, in a fixed number of queries."""
    return (
        Character.objects.select_related(
            "table", "owner", "playbook", "heritage", "background", "vice"
        )
        .prefetch_related(
            Prefetch(
                "abilities",
                queryset=CharacterAbility.objects.select_related("ability__playbook"),
            ),
            "items",
            "contacts",
            Prefetch("playbook__abilities", queryset=SpecialAbility.objects.all()),
        )
        .get(pk=character_id)
    )


def crew_dot_choices(character: Character) -> list[tuple[str, str, tuple[str, ...]]]:
    keys = ability_rules.crew_dot_choices(character.crew_abilities, character.crew_dots)
    return [(key, wording.crew_ability_name(key), ability_rules.CREW_DOTS[key]) for key in keys]


def _attribute_views(character: Character, cap: int) -> list[AttributeView]:
    """Each attribute with its resistance dice and xp, and its actions with the dice an
    action roll would draw."""
    ratings = character.ratings
    harm_dice = rules.harm_dice_penalty(character.felt_harm)
    keys, crew_abilities = character.ability_keys, character.crew_abilities

    def resist_bonus(attribute: str) -> list[tuple[str, int]]:
        return ability_rules.resistance_bonus(attribute, keys, crew_abilities)

    return [
        AttributeView(
            attribute=attribute,
            rating=rules.attribute_rating(ratings, attribute),
            resist_dice=rules.attribute_rating(ratings, attribute)
            + sum(n for _, n in resist_bonus(attribute)),
            xp=getattr(character, f"{attribute}_xp"),
            xp_track=track(
                getattr(character, f"{attribute}_xp"),
                rules.track_length(attribute),
                change=True,
            ),
            advances=getattr(character, f"{attribute}_advances"),
            actions=[
                ActionLine(
                    action,
                    ratings[action],
                    action_pool(ratings[action], extra_dice=harm_dice),
                    track(ratings[action], cap),
                )
                for action in actions
            ],
        )
        for attribute, actions in rules.ATTRIBUTES.items()
    ]


def _tracks(character: Character, party: PartyView, segments: int) -> dict:
    """The sheet's tracks of boxes, each box posting the value it sets."""
    return {
        "stress_track": track(character.stress, party.stress_max),
        "trauma_track": [(c, c in character.traumas) for c in rules.TRAUMA_CONDITIONS],
        "healing_track": track(character.healing, segments, change=True),
        "playbook_xp_track": track(character.playbook_xp, rules.PLAYBOOK_XP, change=True),
        "coin_track": track(character.coin, rules.COIN_MAX, change=True),
        "stash_track": track(character.stash, rules.STASH_MAX),
    }


def sheet_view(character: Character, *, mastery: bool) -> SheetView:
    ratings = character.ratings
    taken = [row.ability for row in character.abilities.all()]
    taken_ids = {a.pk for a in taken}
    items = list(character.items.all())
    mule = any(a.mule for a in taken)
    special = any(a.special_armor for a in taken)
    # Items stay checked only on a chosen load: armor counts only when it is carried.
    carried = {i.armor for i in items if i.checked and i.armor} if character.load else set()
    heavy = "heavy" in carried
    carried_loads = [i.load for i in items if i.checked]
    total = rules.load_total(carried_loads)
    bonus = character.load_bonus(carried_loads)
    load = rules.check_load(character.load, mule, total, bonus) if character.load else None
    cap = rules.action_cap(mastery)
    segments = rules.healing_segments(any(a.key == "vigorous" for a in taken))
    party = party_view(character)
    return SheetView(
        party=party,
        attributes=_attribute_views(character, cap),
        action_cap=cap,
        mastery_cap=rules.action_cap(True),
        abilities=taken,
        crew_dots=crew_dot_choices(character),
        expertise=character.ability_choice(ability_rules.EXPERTISE)
        if ability_rules.EXPERTISE in character.ability_keys
        else None,
        ability_choices=[
            a
            for a in character.playbook.abilities.all()
            if a.pk not in taken_ids and a.key != VETERAN
        ],
        # Asked for only when an advance waits, so the sheet's query count stays flat.
        veteran_choices=list(veteran_choices(character)) if character.playbook_advances else [],
        teammates=list(
            Character.objects.filter(table_id=character.table_id, state="active").exclude(
                pk=character.pk
            )
        ),
        mule=mule,
        special_armor=special,
        heavy_carried=heavy,
        healing_segments=segments,
        armor_boxes=[
            (box, rules.ARMOR_LABELS[box], getattr(character, f"{box}_used"))
            for box in rules.armor_boxes(armor="armor" in carried, heavy=heavy, special=special)
        ],
        load=load,
        load_total=total,
        lifestyle=rules.lifestyle(character.stash),
        retirement_fate=rules.retirement_fate(character.stash),
        playbook_xp=character.playbook_xp,
        playbook_advances=character.playbook_advances,
        warnings=wording.warnings_before_a_roll(character, bool(load and load.encumbered)),
        vice_dice=rules.vice_dice(ratings),
        trauma_choices=[c for c in rules.TRAUMA_CONDITIONS if c not in character.traumas],
        slots=dict(rules.HARM_SLOTS),
        harm_lines=[
            HarmLine(level, penalty, entries + [""] * (rules.HARM_SLOTS[level] - len(entries)))
            for level, entries, penalty in party.harm
        ],
        load_levels=[(level, rules.load_limit(level, mule, bonus)) for level in rules.LOAD_LEVELS],
        items=[(item, range(item.load)) for item in items],
        xp_triggers=xp_triggers(character.playbook, character.ability_keys),
        **_tracks(character, party, segments),
    )


def xp_triggers(playbook, abilities: frozenset[str]) -> list[str]:
    """The end-of-session triggers as this playbook's sheet prints them: its own trigger
    in place of the rules' generic line (and Vengeful's, with that ability)."""
    triggers = ability_rules.character_triggers(CHARACTER_TRIGGERS, abilities)
    return [wording.playbook_text(playbook, "xp_trigger").rstrip(".")] + [
        wording.rules_word(text) for key, text in triggers.items() if key != "playbook"
    ]


VETERAN = "veteran"


def veteran_choices(character: Character):
    """Other playbooks' abilities (standard ones, or this table's own), when the
    character's playbook lists Veteran; none otherwise."""
    if not character.playbook.abilities.filter(key=VETERAN).exists():
        return SpecialAbility.objects.none()
    return (
        SpecialAbility.objects.filter(
            Q(playbook__table=None) | Q(playbook__table_id=character.table_id)
        )
        .exclude(playbook=character.playbook)
        .exclude(key=VETERAN)
        .exclude(pk__in=CharacterAbility.objects.filter(character=character).values("ability"))
        .select_related("playbook")
        .order_by("playbook__name", "order")
    )


def ability_advance_choices(character: Character):
    """What a playbook advance may buy: the playbook's own abilities (Veteran is the way
    to the others, not one to take) and, through Veteran, another playbook's. The sheet's
    post and the action both ask this."""
    own = character.playbook.abilities.exclude(key=VETERAN).values("pk")
    return SpecialAbility.objects.filter(
        Q(pk__in=own) | Q(pk__in=veteran_choices(character).values("pk"))
    )


# --- The creation wizard --------------------------------------------------------------


def active_character(table, user) -> Character | None:
    """The player's character at the table, if they have one (then there is no wizard)."""
    return Character.objects.filter(table=table, owner=user, state="active").first()


def draft_playbook(draft: Draft, table) -> Playbook | None:
    """The playbook the draft names, if it is one this table may use (standard or its
    own custom ones); the draft keeps whatever was posted, so this is checked each time."""
    chosen = str(draft.data.get("playbook", ""))
    if not chosen.isdigit() or int(chosen) > ID_MAX:
        return None
    return Playbook.objects.filter(Q(table=None) | Q(table=table), pk=int(chosen)).first()


def posted_step(draft: Draft, table, posted: str) -> str | None:
    """The step a post answers: None when it names no step; the first step while the
    draft has no playbook, since every later step is built from it."""
    if posted not in WIZARD_STEPS:
        return None
    if draft_playbook(draft, table) is None:
        return WIZARD_STEPS[0]
    return posted


def sheet_items(playbook: Playbook) -> list[tuple[Item, bool]]:
    """The items a new sheet lists, each with whether it is the playbook's own (special):
    the playbook's, then the standard ones. Some playbooks list a standard item as their
    own (the Spiritbane charm of the Cutter, Hound, Lurk, Slide and Spider): the sheet
    carries it once, as theirs. The creation wizard and a Foundry import both list these."""
    own = list(playbook.items.all())
    own_names = {i.name.casefold() for i in own}
    standard = [i for i in Item.objects.filter(playbook=None) if i.name.casefold() not in own_names]
    return [(i, True) for i in own] + [(i, False) for i in standard]
