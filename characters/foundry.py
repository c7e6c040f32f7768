"""Foundry VTT character exports (the `blades-in-the-dark` system) to a plain sheet and back.

Pure: JSON in, a `Sheet` of plain values out (and the reverse), no database; matching
names to this app's playbooks and options is foundry_import's job.

The shapes, from the system's template.json and module/migration.js over its versions:
- Foundry v10 and later keep an actor's fields under `system`, earlier ones under `data`
  (items too).
- A number may be a number, a numeric string or a one-element list (`[3]`): the sheets
  long stored radio buttons as lists, and exports keep whatever was last written.
- Action ratings sit at `attributes.<attribute>.skills.<action>.value`; the oldest
  exports hold the list itself (`skills.hunt = [2]`), which the migration moved.
- Stress is `stress.value`, or the oldest `stress = [n]`. Trauma is `trauma.list` (the
  oldest: `traumas`): condition keys such as `BITD.TraumaCold` or plain names, or an
  object of condition → true/false.
- The healing clock is `healing_clock.value`, earlier `healing-clock`; either may hold
  the number itself or an object with its `value`.
- Armor used is `armor-uses.armor` / `.heavy` / `.special`: 0 in the template, true or
  false once the sheet's checkbox was clicked.
- Playbook, heritage, background, vice, abilities and gear are embedded items of type
  class, heritage, background, vice, ability (`purchased`) and item (`load`, `equipped`).
"""

import json
import math
from dataclasses import dataclass, field

from django.utils.translation import gettext, gettext_noop

from blades.rules import character as rules
from sessions.files import unstorable_text

from .wording import ACTION_NAMES, ATTRIBUTE_NAMES

MAX_BYTES = 192 * 1024  # an export with every ability's text is ~30 KB
MAX_ITEMS = 300
NAME_MAX = 80
TEXT_MAX = 200
XP_MAX = 2 * rules.PLAYBOOK_XP  # a full track waiting to be spent, and then some

HARM_SLOTS = {"light": ("1", ("one", "two")), "medium": ("2", ("one", "two"))} | {
    "heavy": ("3", ("one",)),
    "deadly": ("4", ("one",)),
}
TRAUMA_PREFIX = "BITD.Trauma"
STANDINGS = {"friend": "friend", "rival": "rival"}


class FoundryError(ValueError):
    """The file is not a character export this app can read; `problems` says why."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Gear:
    name: str
    load: int
    equipped: bool


@dataclass
class Sheet:
    """A character as Foundry has it, in this app's terms and units."""

    name: str
    playbook: str = ""
    heritage: str = ""
    background: str = ""
    vice: str = ""
    alias: str = ""
    look: str = ""
    background_detail: str = ""
    vice_purveyor: str = ""
    ratings: dict[str, int] = field(default_factory=lambda: dict.fromkeys(rules.ACTIONS, 0))
    stress: int = 0
    traumas: list[str] = field(default_factory=list)
    harm: dict[str, list[str]] = field(default_factory=dict)
    healing: int = 0
    # The armor boxes used (rules.ARMOR_BOXES).
    armor_used: list[str] = field(default_factory=list)
    coin: int = 0
    stash: int = 0
    # Raw xp per track ("playbook" and the three attributes), as marked in Foundry.
    xp: dict[str, int] = field(default_factory=dict)
    abilities: list[str] = field(default_factory=list)
    gear: list[Gear] = field(default_factory=list)
    contacts: dict[str, str] = field(default_factory=dict)
    # Read but not understood: shown in the preview, not imported.
    unknown_traumas: list[str] = field(default_factory=list)
    version: str = ""


def parse(raw: bytes) -> dict:
    """The upload as a JSON object, or a FoundryError a player can act on."""
    if len(raw) > MAX_BYTES:
        raise FoundryError(
            [
                gettext("The file is larger than %(kb)s KB: not an actor export.")
                % {"kb": MAX_BYTES // 1024}
            ]
        )
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise FoundryError(
            [gettext("The file is not JSON: export the actor from Foundry again.")]
        ) from None
    if not isinstance(document, dict):
        raise FoundryError([gettext("The file holds JSON, but not a Foundry actor.")])
    problems = unstorable_text(document)
    if problems:
        raise FoundryError(problems)
    return document


class _Reader:
    """Collects every problem of a document, so the player sees them all at once."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def number(self, value, what: str, low: int, high: int) -> int:
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        if value is None or value == "":
            return 0
        number = None
        if isinstance(value, bool):
            number = None
        elif isinstance(value, int):
            number = value
        elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
            number = int(value)
        elif isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 6:
            number = int(value.strip())
        if number is None:
            self.problems.append(gettext("%(what)s is not a number.") % {"what": what})
            return 0
        if not low <= number <= high:
            self.problems.append(
                gettext("%(what)s is %(n)s; it must be between %(low)s and %(high)s.")
                % {"what": what, "n": number, "low": low, "high": high}
            )
            return 0
        return number

    def text(self, value, what: str, limit: int = TEXT_MAX) -> str:
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            self.problems.append(gettext("%(what)s is not text.") % {"what": what})
            return ""
        text = str(value).strip()
        if len(text) > limit:
            self.problems.append(
                gettext("%(what)s is longer than %(n)s characters.") % {"what": what, "n": limit}
            )
            return ""
        return text


def _fields(thing: dict) -> tuple[dict, str]:
    """The fields of an actor or item: `system` (Foundry v10+) or `data` (before)."""
    for key, version in (
        ("system", gettext_noop("Foundry v10 or later")),
        ("data", gettext_noop("before Foundry v10")),
    ):
        fields = thing.get(key)
        if isinstance(fields, dict):
            return fields, gettext(version)
    return {}, ""


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _trauma_key(name: str) -> str:
    name = name.strip()
    if name.startswith(TRAUMA_PREFIX):
        name = name[len(TRAUMA_PREFIX) :]
    return name.lower()


def read_actor(document: dict) -> Sheet:
    """Read an actor export. Raises FoundryError listing every problem found."""
    read = _Reader()
    actor_type = document.get("type", "character")
    if actor_type != "character":
        raise FoundryError(
            [
                gettext("This is a Foundry %(type)s, not a character.")
                % {"type": repr(str(actor_type)[:40])}
            ]
        )
    system, version = _fields(document)
    if not version:
        raise FoundryError([gettext("The file has no character fields (`system` or `data`).")])
    name = read.text(document.get("name"), gettext("The name"), NAME_MAX)
    if not name:
        read.problems.append(gettext("The character has no name."))
    sheet = Sheet(name=name, version=version)
    # In the order of the sheet, so the problems are listed as the player reads it.
    for part in (_read_texts, _read_ratings, _read_stress, _read_harm, _read_kit, _read_contacts):
        part(read, sheet, system)
    _read_items(read, sheet, document.get("items"))
    if read.problems:
        raise FoundryError(read.problems)
    return sheet


def _read_texts(read: _Reader, sheet: Sheet, system: dict) -> None:
    sheet.alias = read.text(system.get("alias"), gettext("The alias"), NAME_MAX)
    sheet.look = read.text(system.get("look"), gettext("The look"))
    sheet.background_detail = read.text(
        system.get("background-details"), gettext("Background details")
    )
    sheet.vice_purveyor = read.text(system.get("vice-purveyor"), gettext("The vice purveyor"))
    # The sheet's own text fields name the choices when no item does.
    choices = {
        "playbook": gettext("The playbook"),
        "heritage": gettext("The heritage"),
        "background": gettext("The background"),
        "vice": gettext("The vice"),
    }
    for choice, what in choices.items():
        setattr(sheet, choice, read.text(system.get(choice), what, NAME_MAX))


def _read_ratings(read: _Reader, sheet: Sheet, system: dict) -> None:
    """The action ratings and the xp of each track."""
    attributes = _dict(system.get("attributes"))
    for attribute, actions in rules.ATTRIBUTES.items():
        group = _dict(attributes.get(attribute))
        skills = _dict(group.get("skills"))
        for action in actions:
            value = skills.get(action)
            if isinstance(value, dict):
                value = value.get("value")
            sheet.ratings[action] = read.number(value, str(ACTION_NAMES[action]), 0, 4)
        sheet.xp[attribute] = read.number(
            group.get("exp"),
            gettext("%(attribute)s xp") % {"attribute": ATTRIBUTE_NAMES[attribute]},
            0,
            XP_MAX,
        )
    sheet.xp["playbook"] = read.number(system.get("experience"), gettext("Playbook xp"), 0, XP_MAX)


def _read_stress(read: _Reader, sheet: Sheet, system: dict) -> None:
    """Stress and trauma: known conditions are kept, others shown as not understood."""
    stress = system.get("stress")
    if isinstance(stress, dict):
        stress = stress.get("value")
    sheet.stress = read.number(stress, gettext("Stress"), 0, rules.STRESS_MAX)

    trauma = system.get("trauma")
    conditions = trauma.get("list") if isinstance(trauma, dict) else system.get("traumas")
    if isinstance(conditions, dict):
        conditions = [key for key, marked in conditions.items() if marked is True]
    if conditions is None:
        conditions = []
    if not isinstance(conditions, list):
        read.problems.append(gettext("Trauma is neither a list nor a set of conditions."))
        conditions = []
    for condition in conditions:
        text = read.text(condition, gettext("A trauma condition"), NAME_MAX)
        key = _trauma_key(text)
        if key in rules.TRAUMA_CONDITIONS:
            if key not in sheet.traumas:
                sheet.traumas.append(key)
        elif text:
            sheet.unknown_traumas.append(text)
    if len(sheet.traumas) > rules.TRAUMA_MAX:
        read.problems.append(
            gettext("%(n)s trauma conditions: past %(most)s a scoundrel retires.")
            % {"n": len(sheet.traumas), "most": rules.TRAUMA_MAX}
        )


def _read_harm(read: _Reader, sheet: Sheet, system: dict) -> None:
    """The harm rows and the healing clock."""
    harm = _dict(system.get("harm"))
    for level, (key, slots) in HARM_SLOTS.items():
        row = _dict(harm.get(level))
        what = gettext("Level %(level)s harm") % {"level": key}
        entries = [read.text(row.get(slot), what) for slot in slots]
        if any(entries):
            sheet.harm[key] = [entry for entry in entries if entry]

    healing = system.get("healing_clock")
    if healing is None:
        healing = system.get("healing-clock")
    if isinstance(healing, dict):
        healing = healing.get("value")
    sheet.healing = read.number(
        healing, gettext("The healing clock"), 0, rules.HEALING_SEGMENTS - 1
    )


def _read_kit(read: _Reader, sheet: Sheet, system: dict) -> None:
    """The armor boxes used, coin and stash."""
    armor = _dict(system.get("armor-uses"))
    for box in rules.ARMOR_BOXES:
        used = armor.get(box)
        if not isinstance(used, bool):
            what = gettext("Armor used (%(box)s)") % {"box": box}
            used = read.number(used, what, 0, 1) == 1
        if used:
            sheet.armor_used.append(box)
    sheet.coin = read.number(system.get("coins"), gettext("Coin"), 0, rules.COIN_MAX)
    sheet.stash = read.number(system.get("coins_stashed"), gettext("Stash"), 0, rules.STASH_MAX)


def _read_contacts(read: _Reader, sheet: Sheet, system: dict) -> None:
    acquaintances = system.get("acquaintances")
    # Only to carry friend and rival over to the playbook's contacts: an acquaintance
    # that is not a short name is passed over, not a reason to refuse the file.
    for person in acquaintances if isinstance(acquaintances, list) else []:
        person = _dict(person)
        who, standing = person.get("name"), person.get("standing")
        if isinstance(who, str) and 0 < len(who.strip()) <= NAME_MAX:
            sheet.contacts[who.strip()] = STANDINGS.get(str(standing).lower(), "")


def _read_items(read: _Reader, sheet: Sheet, items) -> None:
    if items is None:
        return
    if not isinstance(items, list):
        read.problems.append(gettext("`items` is not a list."))
        return
    if len(items) > MAX_ITEMS:
        read.problems.append(
            gettext("%(n)s items: more than %(most)s is not a character.")
            % {"n": len(items), "most": MAX_ITEMS}
        )
        return
    abilities: list[tuple[str, bool | None]] = []
    for item in items:
        if not isinstance(item, dict):
            read.problems.append(gettext("An item is not an object."))
            continue
        kind = item.get("type")
        fields, _ = _fields(item)
        what = gettext("The name of a %(kind)s item") % {"kind": str(kind)[:20]}
        name = read.text(item.get("name"), what, NAME_MAX)
        if not name:
            continue
        if kind == "class":
            sheet.playbook = name
        elif kind in ("heritage", "background", "vice"):
            setattr(sheet, kind, name)
        elif kind == "ability":
            purchased = fields.get("purchased")
            abilities.append((name, purchased if isinstance(purchased, bool) else None))
        elif kind == "item":
            what = gettext("The load of %(name)s") % {"name": name}
            load = read.number(fields.get("load"), what, 0, 9)
            sheet.gear.append(Gear(name, load, fields.get("equipped") is True))
    # Later exports embed every playbook ability and mark the ones taken; earlier ones
    # embedded only the abilities taken, and left `purchased` at its default.
    if any(purchased for _, purchased in abilities):
        sheet.abilities = [name for name, purchased in abilities if purchased]
    else:
        sheet.abilities = [name for name, _ in abilities]


def to_actor(sheet: Sheet) -> dict:
    """A Foundry v10+ actor export of the sheet, in the shapes the system's template
    declares (lists where it keeps lists), so Foundry and this app read it alike."""
    harm = {
        level: {
            slot: (sheet.harm.get(key, []) + ["", ""])[index] for index, slot in enumerate(slots)
        }
        for level, (key, slots) in HARM_SLOTS.items()
    }
    attributes = {
        attribute: {
            "exp": sheet.xp.get(attribute, 0),
            "exp_max": rules.ATTRIBUTE_XP,
            "label": f"BITD.Skills{attribute.capitalize()}",
            "skills": {
                action: {
                    "label": f"BITD.Skills{action.capitalize()}",
                    "value": sheet.ratings.get(action, 0),
                    "max": 4,
                    "min": 0,
                }
                for action in actions
            },
        }
        for attribute, actions in rules.ATTRIBUTES.items()
    }
    system = {
        "alias": sheet.alias,
        "look": sheet.look,
        "heritage": sheet.heritage,
        "background": sheet.background,
        "background-details": sheet.background_detail,
        "vice": sheet.vice,
        "vice-purveyor": sheet.vice_purveyor,
        "playbook": sheet.playbook,
        "acquaintances": [
            {"name": who, "standing": standing or "neutral"}
            for who, standing in sheet.contacts.items()
        ],
        "stress": {"value": [sheet.stress], "max": rules.STRESS_MAX},
        "trauma": {
            "value": [len(sheet.traumas)],
            "max": rules.TRAUMA_MAX,
            "list": [TRAUMA_PREFIX + key.capitalize() for key in sheet.traumas],
        },
        "healing_clock": {"value": [sheet.healing], "max": rules.HEALING_SEGMENTS, "min": 0},
        "armor-uses": {box: box in sheet.armor_used for box in rules.ARMOR_BOXES},
        "experience": [sheet.xp.get("playbook", 0)],
        "experience_max": rules.PLAYBOOK_XP,
        "coins": [sheet.coin],
        "coins_stashed": [sheet.stash],
        "harm": harm,
        "attributes": attributes,
    }
    items = [
        {"name": name, "type": kind, "system": {}}
        for kind, name in (
            ("class", sheet.playbook),
            ("heritage", sheet.heritage),
            ("background", sheet.background),
            ("vice", sheet.vice),
        )
        if name
    ]
    items += [
        {"name": name, "type": "ability", "system": {"purchased": True}} for name in sheet.abilities
    ]
    items += [
        {"name": g.name, "type": "item", "system": {"load": g.load, "equipped": g.equipped}}
        for g in sheet.gear
    ]
    return {"name": sheet.name, "type": "character", "system": system, "items": items}
