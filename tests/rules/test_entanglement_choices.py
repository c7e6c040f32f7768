"""Every entanglement's ways out, for every crew the function can be asked about, exactly
as `entanglement_choices.json` holds them (written from the function before its choices
became a table, so that the table is proved to offer what the code did).

Each row of the file names the values it holds for (`when`: the wanted level, the crew's
tier, the faction's tier, the claims held, whether a faction is at +3); a value it does not
name does not change the price. Every input matches exactly one row."""

import itertools
import json
from pathlib import Path

import pytest

from blades.rules.crew import FACTION_TIER_MAX, TIER_MAX
from blades.rules.dice import Outcome
from blades.rules.rolls import MAX_WANTED, entanglements
from blades.rules.score import Choice, entanglement_choices
from blades.rules.words import to_data

EXPECTED = json.loads((Path(__file__).parent / "entanglement_choices.json").read_text())
# A whole claims map is 15 squares; only none or some changes a price.
CLAIMS_MAX = 15
INPUTS = {
    "wanted": range(MAX_WANTED + 1),
    "crew_tier": range(TIER_MAX + 1),
    "faction_tier": [None, *range(FACTION_TIER_MAX + 1)],
    "claims": range(CLAIMS_MAX + 1),
    "allies": [False, True],
}
NAMES = sorted(
    {
        name
        for heat, outcome in itertools.product((0, 4, 6), Outcome)
        for name in entanglements(heat, outcome)
    }
)


def _read(choice: Choice) -> dict:
    """Everything a choice says: its key, its words and their params (a `Term` told from
    the players' words), what it costs, and whether it waits for the faction."""
    cost = {name: value for name, value in vars(choice.cost).items() if value}
    return {
        "key": choice.key,
        "label": to_data(choice.label),
        "cost": cost,
        "needs_faction": choice.needs_faction,
    }


def test_the_file_holds_every_entanglement_of_the_table():
    assert sorted(EXPECTED) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_every_crew_is_offered_the_ways_out_the_file_holds(name):
    for values in itertools.product(*INPUTS.values()):
        given = dict(zip(INPUTS, values, strict=True))
        rows = [
            row
            for row in EXPECTED[name]
            if all(given[param] in held for param, held in row["when"].items())
        ]
        assert len(rows) == 1, given
        got = [_read(choice) for choice in entanglement_choices(name, **given)]
        assert got == rows[0]["choices"], given
