"""The content in each language besides English (blades/content/<language>/): text only,
all of it, and the same numbers as the English. Pure data checks, no Django."""

import json
import re

import pytest

from blades import content

NAMES = sorted(path.stem for path in content.DATA_DIR.glob("*.json"))
# People's names in the friends and contacts lists are proper nouns: only their role is text.
PEOPLE = {"friends", "contacts"}


def translatable(english, path=(), person=False):
    """(path, English text) for every text the reader reads in one content file, the path
    naming it as the translation file does (entries by key or English name)."""
    if isinstance(english, dict):
        for field, value in english.items():
            if isinstance(value, dict | list):
                yield from translatable(value, (*path, field), field in PEOPLE)
            elif field not in content.TEXT_FIELDS or not isinstance(value, str) or not value:
                continue
            elif not (person and field == "name"):  # a person's name is a proper noun
                yield (*path, field), value
    elif isinstance(english, list):
        for item in english:
            if isinstance(item, list):
                yield from translatable(item, path, person)
            elif isinstance(item, str):
                if path and path[-1] in content.TEXT_FIELDS and item:
                    yield (*path, item), item
            elif (name := content.identity(item)) is not None:
                yield from translatable(item, (*path, name), person)


def lookup(translation, path):
    for step in path:
        if not isinstance(translation, dict) or step not in translation:
            return None
        translation = translation[step]
    return translation


def leaves(data, path=()):
    if isinstance(data, dict):
        for field, value in data.items():
            yield from leaves(value, (*path, field))
    elif isinstance(data, list):
        for value in data:
            yield from leaves(value, path)
    else:
        yield path, data


@pytest.mark.parametrize("language", content.languages())
def test_every_text_of_every_entry_is_translated(language):
    missing = [
        f"{name}: {' > '.join(path)}"
        for name in NAMES
        for path, _ in translatable(content.load(name))
        if not isinstance(lookup(content.translation(name, language), path), str)
    ]
    assert missing == []


@pytest.mark.parametrize("language", content.languages())
def test_a_translation_holds_text_and_nothing_else(language):
    """No numbers, flags or keys of its own (those come from the English), and nothing
    that names no English entry."""
    for name in NAMES:
        translation = content.translation(name, language)
        known = {path for path, _ in translatable(content.load(name))}
        for path, value in leaves(translation):
            assert isinstance(value, str) and value, (name, path, value)
            assert path in known, (name, path)


@pytest.mark.parametrize("language", content.languages())
def test_the_numbers_in_a_text_are_the_englishs_in_the_same_order(language):
    differ = []
    for name in NAMES:
        for path, english in translatable(content.load(name)):
            text = lookup(content.translation(name, language), path)
            if re.findall(r"\d+", text) != re.findall(r"\d+", english):
                differ.append(f"{name}: {' > '.join(path)}: {english!r} / {text!r}")
    assert differ == []


@pytest.mark.parametrize("language", content.languages())
def test_the_srd_attribution_stays_with_each_language(language):
    readme = (content.DATA_DIR / language / "README.md").read_text(encoding="utf-8")
    assert "Creative Commons Attribution 3.0" in readme and "John Harper" in readme


def test_spanish_is_offered():
    assert content.languages() == ["es"]


def test_the_localized_data_is_the_english_but_for_its_text():
    """Same shape, and every number, flag and key the English's."""
    for name in NAMES:
        english = list(leaves(content.load(name)))
        spanish = list(leaves(content.localized(name, "es")))
        assert [path for path, _ in spanish] == [path for path, _ in english]
        for (path, en), (_, es) in zip(english, spanish, strict=True):
            if path[-1] not in content.TEXT_FIELDS:
                assert es == en, (name, path)
        assert spanish != english


def test_a_sheet_reads_in_spanish():
    cutter = next(p for p in content.localized("playbooks", "es") if p["key"] == "cutter")
    assert cutter["name"] == "Matón" and cutter["dots"] == {"skirmish": 2, "command": 1}
    battleborn = cutter["abilities"][0]
    assert battleborn["name"] == "Nacido para la batalla" and battleborn["special_armor"] is True
    assert cutter["friends"][0] == {"name": "Marlane", "role": "púgil"}
    assert cutter["items"][0] == {"name": "Arma de mano fina", "load": 1, "fine": True}


def test_keys_and_item_lists_stay_english():
    weapons = next(u for u in content.localized("crew_upgrades", "es") if u["key"] == "weapons")
    assert weapons["items"][0] == "a_blade_or_two" and weapons["name"] == "Armas"
    shadows = next(c for c in content.localized("crew_types", "es") if c["key"] == "shadows")
    english = next(c for c in content.crew_types() if c["key"] == "shadows")
    assert shadows["starting_upgrades"] == english["starting_upgrades"]
    assert shadows["hunting_grounds"]["options"][0] == "Allanamiento"
    assert shadows["claims"][0][0]["name"] == "Sala de interrogatorios"
    assert shadows["paths"] == english["paths"]


@pytest.mark.parametrize("language", ["en", "fr", "en-us"])
def test_a_language_without_translation_reads_english(language):
    assert content.localized("playbooks", language) is content.playbooks()


def test_a_regional_variant_reads_its_language():
    assert content.localized("vices", "es-ar")[0]["name"] == "Fe"


def test_a_field_left_out_stays_english(tmp_path, monkeypatch):
    (tmp_path / "es").mkdir()
    (tmp_path / "es" / "README.md").write_text("")
    english = [{"key": "cold", "name": "Cold", "description": "Distant.", "order": 3}]
    (tmp_path / "traumas.json").write_text(json.dumps(english))
    (tmp_path / "es" / "traumas.json").write_text(json.dumps({"cold": {"name": "Frío"}}))
    monkeypatch.setattr(content, "DATA_DIR", tmp_path)
    content.load.cache_clear()
    content.localized.cache_clear()
    try:
        assert content.localized("traumas", "es") == [
            {"key": "cold", "name": "Frío", "description": "Distant.", "order": 3}
        ]
    finally:
        monkeypatch.undo()
        content.load.cache_clear()
        content.localized.cache_clear()


@pytest.mark.parametrize("language", content.languages())
def test_a_name_a_stored_line_keeps_reads_one_way(language):
    """A stored line keeps a claim by its English name alone (words.Named), so a claim on
    several crew types' maps must read the same on each; and every list of NAMED has
    its names."""
    claims = {}
    english, shown = content.crew_types(), content.localized("crew_types", language)
    for crew_type, its in zip(english, shown, strict=True):
        for row, its_row in zip(crew_type["claims"], its["claims"], strict=True):
            for claim, its_claim in zip(row, its_row, strict=True):
                claims.setdefault(claim["name"], set()).add(its_claim["name"])
    assert {name: ways for name, ways in claims.items() if len(ways) > 1} == {}
    for kind in content.NAMED:
        assert content.shown_names(kind, language), kind
