"""Game content for Blades in the Dark, kept as JSON next to this module.

Pure Python, no Django: each loader returns the parsed JSON (plain dicts and lists).
Results are cached, so treat them as read-only (``copy.deepcopy`` before changing).

Blades in the Dark SRD (c) John Harper / One Seven Design, CC-BY 3.0.
Names and numbers follow /work/shared/content/SRD_FACTS.md; descriptions are paraphrased,
except the custom-playbook abilities, which are the rule text 000 as written.
"""

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent

ACTIONS = {
    "insight": ("hunt", "study", "survey", "tinker"),
    "prowess": ("finesse", "prowl", "skirmish", "wreck"),
    "resolve": ("attune", "command", "consort", "sway"),
}
ACTION_KEYS = tuple(action for actions in ACTIONS.values() for action in actions)


@cache
def load(name: str) -> Any:
    """Parse ``<name>.json`` from this folder."""
    return json.loads((DATA_DIR / f"{name}.json").read_text(encoding="utf-8"))


def playbooks() -> list[dict]:
    return load("playbooks")


def items() -> list[dict]:
    return load("items")


def heritages() -> list[dict]:
    return load("heritages")


def backgrounds() -> list[dict]:
    return load("backgrounds")


def vices() -> list[dict]:
    return load("vices")


def traumas() -> list[dict]:
    return load("traumas")


def custom_abilities() -> list[dict]:
    return load("custom_abilities")


def crew_types() -> list[dict]:
    return load("crew_types")


def crew_upgrades() -> list[dict]:
    return load("crew_upgrades")


def cohort_types() -> dict:
    return load("cohort_types")


def prison_claims() -> dict:
    return load("prison_claims")
