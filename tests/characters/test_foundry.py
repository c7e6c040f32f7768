"""The Foundry mapping on its own: no database."""

import copy
import json

import pytest

from characters.foundry import MAX_BYTES, FoundryError, Gear, parse, read_actor, to_actor

from .foundry_samples import V09, V10, V11, WHISPER


def test_a_v11_export_reads_every_field():
    sheet = read_actor(V11)
    assert sheet.version == "Foundry v10 or later"
    assert (sheet.name, sheet.alias, sheet.playbook) == ("Silver", "The Knife", "Cutter")
    assert (sheet.heritage, sheet.background, sheet.vice) == ("Skovlan", "Military", "Pleasure")
    assert sheet.vice_purveyor.startswith("Mother Narcissa")
    assert sheet.ratings["skirmish"] == 2 and sheet.ratings["prowl"] == 1
    assert sheet.ratings["wreck"] == 0
    assert (sheet.stress, sheet.traumas, sheet.healing) == (3, ["cold"], 1)
    assert sheet.harm == {"1": ["Battered"], "2": ["Deep cut to the arm"]}
    assert (sheet.coin, sheet.stash) == (2, 10)
    assert sheet.xp == {"insight": 2, "prowess": 0, "resolve": 0, "playbook": 3}
    # Only the abilities marked purchased.
    assert sheet.abilities == ["Battleborn", "Not To Be Trifled With"]
    assert sheet.gear[0] == Gear("Fine hand weapon", 1, True)
    assert sheet.gear[1] == Gear("Scary weapon or tool", 1, False)
    assert sheet.contacts == {"Marlane": "friend", "Chael": "rival", "Mercy": ""}


def test_a_v10_export_reads_strings_lists_and_a_trauma_object():
    sheet = read_actor(V10)
    assert sheet.ratings["skirmish"] == 2
    assert sheet.stress == 4
    assert sheet.traumas == ["haunted", "paranoid"]
    assert (sheet.healing, sheet.coin, sheet.stash, sheet.xp["playbook"]) == (2, 1, 0, 5)


def test_a_pre_v10_export_reads_data_and_the_oldest_shapes():
    sheet = read_actor(V09)
    assert sheet.version == "before Foundry v10"
    assert sheet.playbook == "Whisper"
    assert sheet.ratings["attune"] == 2 and sheet.ratings["study"] == 1
    assert sheet.stress == 2
    assert sheet.traumas == ["haunted", "obsessed"]
    # None marked purchased: an old export embeds only what was taken.
    assert sheet.abilities == ["Compel"]
    assert sheet.gear == [Gear("Spirit Hunter", 2, False)]


def test_an_unknown_trauma_is_kept_aside_not_imported():
    actor = copy.deepcopy(V11)
    actor["system"]["trauma"]["list"] = ["BITD.TraumaCold", "Homesick"]
    sheet = read_actor(actor)
    assert sheet.traumas == ["cold"]
    assert sheet.unknown_traumas == ["Homesick"]


@pytest.mark.parametrize("key", ["healing_clock", "healing-clock"])
@pytest.mark.parametrize("value", [1, [1], "1", ["1"], {"value": 1}, {"value": [1]}])
def test_the_healing_clock_reads_in_every_shape(key, value):
    actor = copy.deepcopy(V11)
    del actor["system"]["healing_clock"]
    actor["system"][key] = value
    assert read_actor(actor).healing == 1


@pytest.mark.parametrize(
    "sample, used", [(V11, ["armor"]), (V10, ["special"]), (V09, []), (WHISPER, ["special"])]
)
def test_armor_used_is_read_and_written_back(sample, used):
    sheet = read_actor(sample)
    assert sheet.armor_used == used
    written = to_actor(sheet)["system"]["armor-uses"]
    assert written == {box: box in used for box in ("armor", "heavy", "special")}


@pytest.mark.parametrize("sample", [V11, V10, V09, WHISPER])
def test_export_reads_back_the_same_sheet(sample):
    sheet = read_actor(sample)
    exported = to_actor(sheet)
    again = read_actor(json.loads(json.dumps(exported)))
    again.version = sheet.version
    assert again == sheet
    assert all(key.startswith("BITD.Trauma") for key in exported["system"]["trauma"]["list"])


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"\x89PNG\r\n", "not JSON"),
        (b"{not json", "not JSON"),
        (b"[1, 2]", "not a Foundry actor"),
        (b"[" * 100_000 + b"]" * 100_000, "larger than"),
        (b"[" * 50_000 + b"]" * 50_000, "not JSON"),
        (b" " * (MAX_BYTES + 1), "larger than"),
        (b'{"a": 1' + b"0" * 5000 + b"}", "not JSON"),
    ],
)
def test_a_file_that_is_not_an_export_is_refused_clearly(raw, message):
    with pytest.raises(FoundryError) as refused:
        parse(raw)
    assert message in str(refused.value)


def _with(**system) -> dict:
    actor = copy.deepcopy(V11)
    actor["system"].update(system)
    return actor


@pytest.mark.parametrize(
    "actor, message",
    [
        ({"name": "x", "type": "npc", "system": {}}, "not a character"),
        ({"name": "Silver"}, "no character fields"),
        ({"name": "Silver", "system": "nope"}, "no character fields"),
        ({**V11, "name": ""}, "has no name"),
        ({**V11, "name": "x" * 500}, "longer than 80"),
        ({**V11, "name": {"$gt": ""}}, "is not text"),
        (_with(stress={"value": 99}), "Stress is 99"),
        (_with(stress={"value": {"nested": 1}}), "Stress is not a number"),
        (_with(stress={"value": [1, 2]}), "Stress is not a number"),
        (_with(stress={"value": True}), "Stress is not a number"),
        (_with(stress={"value": 1e308}), "it must be between 0 and 9"),
        (_with(stress={"value": float("nan")}), "Stress is not a number"),
        (_with(coins="lots"), "Coin is not a number"),
        (_with(coins_stashed=41), "Stash is 41"),
        (_with(trauma={"list": "cold"}), "neither a list"),
        (_with(**{"armor-uses": {"heavy": 2}}), "Armor used (heavy) is 2"),
        (_with(trauma={"list": ["cold", "haunted", "obsessed", "paranoid", "soft"]}), "retires"),
        (_with(harm={"light": {"one": "x" * 1000}}), "longer than 200"),
        ({**V11, "items": {"a": 1}}, "`items` is not a list"),
        ({**V11, "items": [{"name": "x", "type": "item"}] * 301}, "more than 300"),
        ({**V11, "items": ["a string"]}, "not an object"),
        (
            {**V11, "items": [{"name": "Rope", "type": "item", "system": {"load": -2}}]},
            "load of Rope is -2",
        ),
    ],
)
def test_a_hostile_export_names_its_problem(actor, message):
    with pytest.raises(FoundryError) as refused:
        read_actor(actor)
    assert message in str(refused.value)


def test_every_problem_is_listed_at_once():
    with pytest.raises(FoundryError) as refused:
        read_actor(_with(coins="lots", coins_stashed=99, stress={"value": -1}))
    assert len(refused.value.problems) == 3


def test_missing_fields_read_as_empty():
    sheet = read_actor({"name": "Bare", "system": {}})
    assert sheet.stress == 0 and sheet.ratings["hunt"] == 0 and sheet.abilities == []


def test_an_odd_acquaintance_is_passed_over():
    actor = copy.deepcopy(V11)
    actor["system"]["acquaintances"] += [{"name": "x" * 500}, {"name": 7}, "Lyssa"]
    assert read_actor(actor).contacts == {"Marlane": "friend", "Chael": "rival", "Mercy": ""}
