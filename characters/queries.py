"""What a sheet or the party shows, worked out once with blades.rules.

The sheet loads a fixed number of queries however many items, abilities or contacts
a character has: related rows come in by prefetch, and every figure derived from
them is computed here in Python.
"""

from dataclasses import dataclass, field

from django.db.models import Prefetch

from blades.rules import character as rules
from blades.rules import rolls as roll_rules

from .models import Character, CharacterAbility, SpecialAbility


@dataclass
class PartyView:
    stress: int
    stress_max: int
    traumas: list[str]
    trauma_pending: int
    must_retire: bool
    harm: list[tuple[int, list[str], str]]
    penalties: list[str]


def _harm_rows(character: Character) -> list[tuple[int, list[str], str]]:
    # Worst first, as on the printed sheet.
    rows = rules.harm_rows(character.harm)
    return [
        (level, list(rows[level]), rules.HARM_PENALTIES[level])
        for level in sorted(rules.HARM_SLOTS, reverse=True)
    ]


def party_view(character: Character) -> PartyView:
    return PartyView(
        stress=character.stress,
        stress_max=rules.STRESS_MAX,
        traumas=list(character.traumas),
        trauma_pending=character.trauma_pending,
        must_retire=rules.must_retire(character.traumas),
        harm=_harm_rows(character),
        penalties=rules.harm_penalties(character.harm),
    )


def party(table_id: int):
    return Character.objects.filter(table_id=table_id, state="active").select_related(
        "owner", "playbook"
    )


@dataclass
class SheetView:
    party: PartyView
    # Per attribute: its rating, xp, advances, and each action as (action, dots, dice),
    # the dice being what an action roll would draw before bonus dice (harm's -1d taken).
    attributes: list[tuple[str, int, int, int, list[tuple[str, int, int]]]]
    action_cap: int
    abilities: list[SpecialAbility]
    ability_choices: list[SpecialAbility]
    mule: bool
    special_armor: bool
    heavy_carried: bool
    armor_boxes: tuple[str, ...]
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


def load_character(character_id: int) -> Character:
    """The character with everything the sheet lists, in a fixed number of queries."""
    return (
        Character.objects.select_related(
            "table", "owner", "playbook", "heritage", "background", "vice"
        )
        .prefetch_related(
            Prefetch(
                "abilities",
                queryset=CharacterAbility.objects.select_related("ability"),
            ),
            "items",
            "contacts",
            Prefetch("playbook__abilities", queryset=SpecialAbility.objects.all()),
        )
        .get(pk=character_id)
    )


def sheet_view(character: Character, *, mastery: bool) -> SheetView:
    ratings = character.ratings
    taken = [row.ability for row in character.abilities.all()]
    taken_ids = {a.pk for a in taken}
    items = list(character.items.all())
    mule = any(a.mule for a in taken)
    special = any(a.special_armor for a in taken)
    heavy = any(i.checked and i.armor == "heavy" for i in items)
    total = rules.load_total(i.load for i in items if i.checked)
    load = rules.check_load(character.load, mule, total) if character.load else None
    harm_dice = rules.harm_dice_penalty(character.harm)

    def dice_for(rating: int) -> int:
        # A pool below zero rolls as a zero pool (two dice, the lower counts).
        return max(0, roll_rules.action_pool(rating, extra_dice=harm_dice))

    attributes = [
        (
            attribute,
            rules.attribute_rating(ratings, attribute),
            getattr(character, f"{attribute}_xp"),
            getattr(character, f"{attribute}_advances"),
            [(action, ratings[action], dice_for(ratings[action])) for action in actions],
        )
        for attribute, actions in rules.ATTRIBUTES.items()
    ]
    return SheetView(
        party=party_view(character),
        attributes=attributes,
        action_cap=rules.action_cap(mastery),
        abilities=taken,
        ability_choices=[a for a in character.playbook.abilities.all() if a.pk not in taken_ids],
        mule=mule,
        special_armor=special,
        heavy_carried=heavy,
        armor_boxes=rules.armor_boxes(heavy, special),
        load=load,
        load_total=total,
        lifestyle=rules.lifestyle(character.stash),
        retirement_fate=rules.retirement_fate(character.stash),
        playbook_xp=character.playbook_xp,
        playbook_advances=character.playbook_advances,
        warnings=rules.roll_warnings(character.harm, bool(load and load.encumbered)),
        vice_dice=rules.vice_dice(ratings),
        trauma_choices=[c for c in rules.TRAUMA_CONDITIONS if c not in character.traumas],
        slots=dict(rules.HARM_SLOTS),
    )
