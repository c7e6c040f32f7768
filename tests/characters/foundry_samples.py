"""Actor exports as the blades-in-the-dark system writes them, one per shape it has had
(from its template.json and module/migration.js). Trimmed of what this app ignores
(images, flags, effects), which real exports also carry."""

import copy


def _skills(values: dict, wrap) -> dict:
    groups = {
        "insight": ("hunt", "study", "survey", "tinker"),
        "prowess": ("finesse", "prowl", "skirmish", "wreck"),
        "resolve": ("attune", "command", "consort", "sway"),
    }
    return {
        attribute: {
            "exp": values.get(f"{attribute}_xp", 0),
            "exp_max": 6,
            "label": f"BITD.Skills{attribute.capitalize()}",
            "skills": {action: wrap(values.get(action, 0)) for action in actions},
        }
        for attribute, actions in groups.items()
    }


RATINGS = {"skirmish": 2, "prowl": 1, "hunt": 1, "command": 1, "insight_xp": 2}

# The maintained line on Foundry v11/v12: `system`, plain numbers, trauma keys.
V11 = {
    "name": "Silver",
    "type": "character",
    "img": "systems/blades-in-the-dark/styles/assets/icons/cutter.png",
    "system": {
        "alias": "The Knife",
        "look": "Scarred, tall, a long coat",
        "heritage": "",
        "background": "",
        "background-details": "Deserter from the Imperial army",
        "vice": "",
        "vice-purveyor": "Mother Narcissa, the Church of Ecstasy",
        "playbook": "",
        "acquaintances": [
            {"id": "a1", "name": "Marlane", "standing": "friend"},
            {"id": "a2", "name": "Chael", "standing": "rival"},
            {"id": "a3", "name": "Mercy", "standing": "neutral"},
        ],
        "stress": {"value": 3, "max": 9, "name": "BITD.Stress"},
        "trauma": {"max": 4, "value": [1], "list": ["BITD.TraumaCold"]},
        "healing_clock": {"value": [1], "max": 4, "min": 0},
        "armor-uses": {"armor": True, "heavy": False, "special": False},
        "experience": 3,
        "coins": 2,
        "coins_stashed": 10,
        "harm": {
            "light": {"one": "Battered", "two": ""},
            "medium": {"one": "Deep cut to the arm", "two": ""},
            "heavy": {"one": ""},
            "deadly": {"one": ""},
        },
        "attributes": _skills(RATINGS, lambda v: {"value": v, "max": 3, "min": 0}),
    },
    "items": [
        {"name": "Cutter", "type": "class", "system": {"description": "A dangerous fighter"}},
        {"name": "Skovlan", "type": "heritage", "system": {}},
        {"name": "Military", "type": "background", "system": {}},
        {"name": "Pleasure", "type": "vice", "system": {}},
        {"name": "Battleborn", "type": "ability", "system": {"purchased": True, "class": "Cutter"}},
        {"name": "Bodyguard", "type": "ability", "system": {"purchased": False, "class": "Cutter"}},
        {"name": "Not To Be Trifled With", "type": "ability", "system": {"purchased": True}},
        {"name": "Fine hand weapon", "type": "item", "system": {"load": 1, "equipped": True}},
        {"name": "Scary weapon or tool", "type": "item", "system": {"load": 1, "equipped": False}},
        {"name": "Armor", "type": "item", "system": {"load": 2, "equipped": True}},
    ],
    "effects": [],
    "flags": {},
    "_stats": {"systemId": "blades-in-the-dark", "systemVersion": "5.1", "coreVersion": "11.315"},
}

# Foundry v10, with the values the sheet's radio buttons left: strings and one-element
# lists; trauma as an object of condition -> marked; the older healing field.
V10 = copy.deepcopy(V11)
V10["system"].update(
    {
        "stress": {"value": ["4"], "max": 9},
        "trauma": {
            "list": {"BITD.TraumaHaunted": True, "BITD.TraumaCold": False, "Paranoid": True}
        },
        "experience": ["5"],
        "coins": "1",
        "coins_stashed": ["0"],
        # The template's zeros, but for the box the sheet's checkbox set.
        "armor-uses": {"armor": 0, "heavy": 0, "special": True},
        "attributes": _skills(RATINGS, lambda v: {"value": [str(v)]}),
    }
)
del V10["system"]["healing_clock"]
V10["system"]["healing-clock"] = ["2"]

# Before Foundry v10: `data` instead of `system`, the oldest shapes the migration reads
# (skills held as the list itself, stress as a list, `traumas`).
V09 = {
    "name": "Whisper of Crows",
    "type": "character",
    "data": {
        "alias": "",
        "look": "Hooded",
        "stress": [2],
        "traumas": ["haunted", "obsessed"],
        "healing-clock": [0],
        "armor-uses": {"armor": 0, "heavy": 0, "special": 0},
        "experience": [1],
        "coins": [4],
        "coins_stashed": [0],
        "harm": {"light": {"one": "", "two": ""}, "medium": {"one": "", "two": ""}},
        "attributes": _skills({"attune": 2, "study": 1, "consort": 1}, lambda v: [v]),
    },
    "items": [
        {"name": "Whisper", "type": "class", "data": {}},
        {"name": "Iruvia", "type": "heritage", "data": {}},
        {"name": "Academic", "type": "background", "data": {}},
        {"name": "Weird", "type": "vice", "data": {}},
        {"name": "Compel", "type": "ability", "data": {"purchased": False}},
        {"name": "Spirit Hunter", "type": "item", "data": {"load": 2, "equipped": False}},
    ],
}

# A Whisper in the playbook's own gear, as a player fills the sheet from the compendium:
# the item names differ from the book's ("Spirit Bottles" for "Spirit bottles (2)"), the
# healing clock was written as an object under the older key, and armor is used.
WHISPER = {
    "name": "Lyra",
    "type": "character",
    "system": {
        "alias": "Ash",
        "look": "Pale, ink-stained fingers",
        "background-details": "Doskvol Academy dropout",
        "vice-purveyor": "Eldren's salon",
        "acquaintances": [{"id": "b1", "name": "Nyryx", "standing": "friend"}],
        "stress": {"value": 5, "max": 9},
        "trauma": {"list": ["BITD.TraumaHaunted"]},
        "healing-clock": {"value": 1},
        "armor-uses": {"armor": False, "heavy": False, "special": True},
        "experience": 9,
        "coins": 1,
        "coins_stashed": 4,
        "harm": {
            "light": {"one": "Drained", "two": "Shaky"},
            "medium": {"one": "", "two": ""},
            "heavy": {"one": "Haunted by a ghost"},
            "deadly": {"one": ""},
        },
        "attributes": _skills(
            {"attune": 3, "study": 2, "survey": 1, "resolve_xp": 4},
            lambda v: {"value": v, "max": 3, "min": 0},
        ),
    },
    "items": [
        {"name": "Whisper", "type": "class", "system": {}},
        {"name": "Iruvia", "type": "heritage", "system": {}},
        {"name": "Academic", "type": "background", "system": {}},
        {"name": "Weird", "type": "vice", "system": {}},
        {"name": "Compel", "type": "ability", "system": {"purchased": True}},
        {"name": "Ghost Mind", "type": "ability", "system": {"purchased": True}},
        {"name": "Spirit Bottles", "type": "item", "system": {"load": 1, "equipped": True}},
        {"name": "(W) Fine Spirit Mask", "type": "item", "system": {"load": "1", "equipped": True}},
        {"name": "Lantern", "type": "item", "system": {"load": 1, "equipped": False}},
        {"name": "A Pet Crow", "type": "item", "system": {"load": 0, "equipped": True}},
    ],
}
