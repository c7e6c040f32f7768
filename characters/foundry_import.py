"""A Foundry sheet matched to this table's playbooks and options, and imported.

`match` says, before anything is saved, what the names in the export mean here and
what they do not (an ability no playbook has, a playbook the table lacks, a trauma
condition the rules do not know). `parts_of` reads what the character will carry from
the player's confirmed choices; `characters.actions.import_character` writes it all in
one transaction, or nothing.
"""

import re
from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import gettext

from blades.rules import character as rules

from .access import mastery_for
from .foundry import Gear, Sheet
from .models import (
    Character,
    CharacterItem,
    Contact,
    Item,
    Option,
    Playbook,
    SpecialAbility,
)
from .queries import sheet_items


def _key(name: str) -> str:
    return " ".join(name.casefold().replace("’", "'").split())


def _item_key(name: str) -> str:
    """An item's name without what tells copies of it apart: Foundry's compendium
    prefixes the playbook ("(W) Spirit Bottles") where the book counts the uses
    ("Spirit bottles (2)")."""
    key = _key(name.replace("&", " and "))
    key = re.sub(r"^\([^)]*\)\s*", "", key)
    return re.sub(r"\s*\([^)]*\)$", "", key)


def playbooks_for(table) -> "Q":
    return Q(table=None) | Q(table=table)


@dataclass
class Match:
    sheet: Sheet
    playbook: Playbook | None = None
    heritage: Option | None = None
    background: Option | None = None
    vice: Option | None = None
    abilities: list[SpecialAbility] = field(default_factory=list)
    unknown_abilities: list[str] = field(default_factory=list)
    # Problems that stop the import whatever the player chooses.
    problems: list[str] = field(default_factory=list)

    @property
    def rated_actions(self) -> str:
        rated = [f"{a.capitalize()} {r}" for a, r in self.sheet.ratings.items() if r]
        return ", ".join(rated) or "none"

    @property
    def all_matched(self) -> bool:
        choices = (self.playbook, self.heritage, self.background, self.vice)
        return all(choices) and not self.unknown_abilities and not self.sheet.unknown_traumas


def _by_name(rows, name: str):
    wanted = _key(name)
    return next((row for row in rows if wanted and _key(row.name) == wanted), None)


def match(sheet: Sheet, table) -> Match:
    """What the sheet's names are at this table (a constant number of queries)."""
    found = Match(sheet=sheet)
    playbooks = list(Playbook.objects.filter(playbooks_for(table)))
    found.playbook = _by_name(playbooks, sheet.playbook)
    options = list(Option.objects.all())
    for kind in ("heritage", "background", "vice"):
        rows = [o for o in options if o.kind == kind]
        setattr(found, kind, _by_name(rows, getattr(sheet, kind)))
    found.abilities, found.unknown_abilities = _abilities(sheet.abilities, found.playbook, table)
    if not mastery_for(table) and any(r > rules.action_cap(False) for r in sheet.ratings.values()):
        found.problems.append(
            gettext(
                "Ratings of %(mastery)s need the crew's Mastery; this table's crew does not "
                "have it (at most %(most)s)."
            )
            % {"mastery": rules.action_cap(True), "most": rules.action_cap(False)}
        )
    return found


def _abilities(names: list[str], playbook: Playbook | None, table):
    """The playbook's own ability of that name first, else a veteran one from another."""
    rows = list(
        SpecialAbility.objects.filter(playbook__in=Playbook.objects.filter(playbooks_for(table)))
    )
    if playbook is not None:
        rows.sort(key=lambda a: a.playbook_id != playbook.pk)
    taken, unknown = [], []
    for name in names:
        ability = _by_name(rows, name)
        if ability is None:
            unknown.append(name)
        elif ability not in taken:
            taken.append(ability)
    return taken, unknown


@dataclass
class Parts:
    """What the import writes beside the character row, read from the sheet: its rows are
    unsaved and wait for the character."""

    xp: dict[str, int]
    abilities: list[SpecialAbility]
    contacts: list[Contact]
    items: list[CharacterItem]


def parts_of(sheet: Sheet, playbook: Playbook, table) -> Parts:
    """The sheet's xp, abilities, contacts and items as the player's chosen playbook
    takes them."""
    abilities, _ = _abilities(sheet.abilities, playbook, table)
    xp = {}
    for track in ("playbook", *rules.ATTRIBUTES):
        change = rules.mark_track_xp(0, sheet.xp.get(track, 0), rules.track_length(track))
        xp[f"{track}_xp"], xp[f"{track}_advances"] = change.xp, change.advances
    known = {_key(name): stance for name, stance in sheet.contacts.items()}
    contacts = [
        Contact(name=f.name, role=f.role, stance=known.get(_key(f.name), ""))
        for f in playbook.friends.all()
    ]
    # The sheet's item list as the wizard makes it (the playbook's items, then the
    # standard ones), carrying what the export has equipped; gear of the export's own
    # comes after. One export item stands for one listed item, so an item listed twice
    # (the Leech's bandoliers) takes two.
    unmatched = list(sheet.gear)

    def carried(item: Item) -> bool:
        key = _item_key(item.name)
        same = next((n for n, g in enumerate(unmatched) if _item_key(g.name) == key), None)
        return same is not None and unmatched.pop(same).equipped

    items = [
        CharacterItem(name=i.name, load=i.load, armor=i.armor, special=special, checked=carried(i))
        for i, special in sheet_items(playbook)
    ]
    items += [CharacterItem(name=g.name, load=g.load, checked=g.equipped) for g in unmatched]
    return Parts(xp=xp, abilities=abilities, contacts=contacts, items=items)


def sheet_of(character: Character) -> Sheet:
    """The character as a Foundry sheet, for the export."""
    return Sheet(
        name=character.name,
        playbook=character.playbook.name,
        heritage=character.heritage.name,
        background=character.background.name,
        vice=character.vice.name,
        alias=character.alias,
        look=character.look,
        background_detail=character.background_detail,
        vice_purveyor=character.vice_purveyor,
        ratings=character.ratings,
        stress=character.stress,
        traumas=list(character.traumas),
        harm={k: list(v) for k, v in character.harm.items() if v},
        healing=character.healing,
        armor_used=[b for b in rules.ARMOR_BOXES if getattr(character, f"{b}_used")],
        coin=character.coin,
        stash=character.stash,
        xp={
            track: getattr(character, f"{track}_xp")
            + getattr(character, f"{track}_advances") * rules.track_length(track)
            for track in ("playbook", *rules.ATTRIBUTES)
        },
        abilities=[a.ability.name for a in character.abilities.select_related("ability")],
        gear=[Gear(i.name, i.load, i.checked) for i in character.items.all()],
        contacts={c.name: c.stance for c in character.contacts.all()},
    )
