"""Game content for Blades in the Dark, kept as JSON next to this module.

Pure Python, no Django: each loader returns the parsed JSON (plain dicts and lists).
Results are cached, so treat them as read-only (``copy.deepcopy`` before changing).

Blades in the Dark SRD (c) John Harper / One Seven Design, CC-BY 3.0.
Names and numbers follow /work/shared/content/SRD_FACTS.md; descriptions are paraphrased,
except the custom-playbook abilities, which are the rule text 000 as written.

The loaders below give the English data, which the code matches and stores (keys, and
the names the database keeps). `localized(name, language)` gives the same data with its
text in another language, from `<language>/<name>.json`: per entry (found by its key, or
by its English name where it has no key) only the text fields of TEXT_FIELDS, so every
number, flag and key still comes from the English data. A field left out stays English.
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


# The text a reader reads. A translation can replace nothing else.
TEXT_FIELDS = frozenset(
    {
        "name", "description", "tagline", "xp_trigger", "friends_label", "label", "options",
        "examples", "role", "effect", "text", "explanation",
    }
)  # fmt: skip


@cache
def load(name: str) -> Any:
    """Parse ``<name>.json`` from this folder."""
    return json.loads((DATA_DIR / f"{name}.json").read_text(encoding="utf-8"))


def languages() -> list[str]:
    """The languages the content is translated into, besides English."""
    return sorted(path.name for path in DATA_DIR.iterdir() if (path / "README.md").is_file())


def translation(name: str, language: str) -> Any:
    """The translated text of ``<name>.json``, as stored (empty where there is none)."""
    path = DATA_DIR / language / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def identity(entry: Any) -> str | None:
    """What finds an entry's translation: its key, else its English name; a string is
    its own. An entry with neither has no text of its own (a pair of map cells, say)."""
    if isinstance(entry, dict):
        return entry.get("key") or entry.get("name")
    return entry if isinstance(entry, str) else None


@cache
def localized(name: str, language: str) -> Any:
    """``<name>.json`` with its text in `language` ("es", or "es-ar" for the same) where
    translated, and in English elsewhere. Cached: treat it as read-only."""
    base = language.lower().split("-")[0]
    if base not in languages():
        return load(name)
    return _merge(load(name), translation(name, base))


def _merge(english: Any, text: Any, is_text: bool = False) -> Any:
    """`is_text`: the field holding `english` is one of TEXT_FIELDS (for a list, the
    strings in it are text: a crew's hunting grounds, not an upgrade's item keys)."""
    if isinstance(english, dict):
        text = text if isinstance(text, dict) else {}
        return {
            field: _merge(value, text.get(field), field in TEXT_FIELDS)
            for field, value in english.items()
        }
    if isinstance(english, list):
        text = text if isinstance(text, dict) else {}
        # A row of a claim map is a list in a list: its claims are found in the same text.
        return [
            _merge(
                item, text if isinstance(item, list) else text.get(identity(item) or ""), is_text
            )
            for item in english
        ]
    if is_text and isinstance(english, str) and isinstance(text, str) and text:
        return text
    return english


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


# The lists whose names a stored line keeps in English (blades.rules.words.Named): a
# vice rolled, a claim given up, a gang's type.
NAMED = ("vices", "claims", "gang_types")


@cache
def shown_names(kind: str, language: str) -> dict[str, str]:
    """English name → its name in `language`, for one of NAMED. Claims are every crew
    type's map and the prison claims: no claim's name is translated two ways."""
    if kind == "vices":
        pairs = zip(vices(), localized("vices", language), strict=True)
    elif kind == "gang_types":
        shown = localized("cohort_types", language)["gang_types"]
        pairs = zip(cohort_types()["gang_types"], shown, strict=True)
    elif kind == "claims":
        shown_prison = localized("prison_claims", language)["claims"]
        pairs = list(zip(prison_claims()["claims"], shown_prison, strict=True))
        for english, shown in zip(crew_types(), localized("crew_types", language), strict=True):
            for row, shown_row in zip(english["claims"], shown["claims"], strict=True):
                pairs += zip(row, shown_row, strict=True)
    else:
        return {}
    return {entry["name"]: text["name"] for entry, text in pairs}
