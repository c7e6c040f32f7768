"""What the crew sheet offers and how it is drawn: choices from the content, upgrade
rows and the claim map's geometry. No game arithmetic here (that is `blades.rules`)."""

import textwrap
from dataclasses import dataclass

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from blades import content
from blades.rules.abilities import reminded
from characters.models import Character, CharacterAbility
from characters.wording import ability_text

from .models import Crew, shown_content

UPGRADE_GROUPS = (
    ("lair", pgettext_lazy("upgrade group", "Lair")),
    ("quality", pgettext_lazy("upgrade group", "Quality")),
    ("training", pgettext_lazy("upgrade group", "Training")),
    ("rigging", pgettext_lazy("upgrade group", "Rigging")),
    ("specific", _("Crew upgrades")),
)  # the cohort upgrades are spent by recruiting in the cohorts section

# Claim map drawing, in SVG user units.
CELL_W, CELL_H, GAP = 130, 76, 26
LINE_CHARS = 15


def ability_choices(crew: Crew, *, shown: bool = False) -> list[dict]:
    """The crew type's abilities; a custom crew, or one with Veteran, may pick from all.
    `shown`: their text in the reader's language."""
    data = crew.type_text if shown else crew.type_data
    if data and "veteran" not in crew.abilities:
        return data["abilities"]
    seen: dict[str, dict] = {}
    for crew_type in shown_content("crew_types") if shown else content.crew_types():
        for ability in crew_type["abilities"]:
            seen.setdefault(ability["key"], ability)
    return list(seen.values())


def prison_claim_choices() -> list[dict]:
    """The prison claims a crew can earn inside (003 Prison claims), one of each kind."""
    return content.prison_claims()["claims"]


def upgrade_choices(crew: Crew, *, shown: bool = False) -> list[dict]:
    upgrades = shown_content("crew_upgrades") if shown else content.crew_upgrades()
    return [u for u in upgrades if u["crew_type"] in (None, crew.crew_type)]


def upgrade_rows(crew: Crew) -> list[dict]:
    """Upgrades grouped as on the sheet, each with its boxes drawn marked or not."""
    choices = upgrade_choices(crew, shown=True)
    groups = []
    for key, label in UPGRADE_GROUPS:
        rows = [
            {
                **upgrade,
                "marked": crew.upgrades.get(upgrade["key"], 0),
                "box_list": [
                    i < crew.upgrades.get(upgrade["key"], 0) for i in range(upgrade["boxes"])
                ],
            }
            for upgrade in choices
            if upgrade["group"] == key
        ]
        if rows:
            groups.append({"key": key, "label": label, "rows": rows})
    return groups


def claim_map(crew: Crew) -> dict | None:
    """Cells and paths of the crew type's map, or None for a crew without one."""
    data = crew.type_text
    placed = [c for c in crew.claims.all() if c.row is not None]
    if data is None or not placed:
        return None

    def center(row: int, col: int) -> tuple[int, int]:
        return col * (CELL_W + GAP) + CELL_W // 2, row * (CELL_H + GAP) + CELL_H // 2

    cells = []
    for claim in placed:
        lines = textwrap.wrap(claim.shown_name, LINE_CHARS) or [""]
        x, y = claim.col * (CELL_W + GAP), claim.row * (CELL_H + GAP)
        first = y + CELL_H // 2 - (len(lines) - 1) * 9
        cells.append(
            {
                "claim": claim,
                "x": x,
                "y": y,
                "text_x": x + CELL_W // 2,
                "lines": [(first + i * 18, line) for i, line in enumerate(lines)],
            }
        )
    paths = []
    for (r1, c1), (r2, c2) in data["paths"]:
        (x1, y1), (x2, y2) = center(r1, c1), center(r2, c2)
        paths.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2})
    rows = 1 + max(c.row for c in placed)
    cols = 1 + max(c.col for c in placed)
    held = [c.shown_name for c in placed if c.held]
    return {
        "cells": cells,
        "paths": paths,
        "width": cols * CELL_W + (cols - 1) * GAP,
        "height": rows * CELL_H + (rows - 1) * GAP,
        "label": gettext("Claim map of the {crew_type}; held: {claims}").format(
            crew_type=data["name"], claims=", ".join(held) or gettext("none")
        ),
    }


@dataclass(frozen=True)
class Reminder:
    """An ability the GM judges, shown at the moment it may matter."""

    name: str
    text: str


def _crew_reminders(crew: Crew, moment: str) -> list[Reminder]:
    abilities = {a["key"]: a for a in ability_choices(crew, shown=True)}
    upgrades = {u["key"]: u for u in upgrade_choices(crew, shown=True)}
    marked = [key for key, boxes in crew.upgrades.items() if boxes and key in upgrades]
    return [
        Reminder(abilities[key]["name"], abilities[key]["description"])
        for key in reminded([k for k in crew.abilities if k in abilities], moment)
    ] + [
        Reminder(upgrades[key]["name"], upgrades[key].get("effect", ""))
        for key in reminded(marked, moment)
    ]


def reminders(character: Character | None, crew: Crew | None, moment: str) -> list[Reminder]:
    """The character's and the crew's abilities and upgrades to keep in mind at `moment`
    (blades.rules.abilities.REMINDERS): the character's first, then the crew's."""
    own = []
    if character is not None:
        if "abilities" in getattr(character, "_prefetched_objects_cache", {}):
            taken = [row.ability for row in character.abilities.all()]
        else:
            rows = CharacterAbility.objects.filter(character=character).select_related(
                "ability__playbook"
            )
            taken = [row.ability for row in rows]
        by_key = {a.key: a for a in taken}
        # The sheet's own words for the ability, in the reader's language: the database
        # keeps its English name and text.
        own = [
            Reminder(ability_text(by_key[k], "name"), ability_text(by_key[k], "description"))
            for k in reminded(by_key, moment)
        ]
    return own + (_crew_reminders(crew, moment) if crew is not None else [])
