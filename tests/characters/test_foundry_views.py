"""Importing a Foundry export through the pages: preview, then one transaction."""

import copy
import html
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from characters import actions
from characters.foundry import MAX_BYTES, read_actor
from characters.models import Character
from tests.factories import CharacterFactory
from tests.helpers import foundry_choices

from .foundry_samples import V09, V10, V11, WHISPER


def _upload(client, table, actor, name="fvtt-Actor-silver.json", **headers):
    raw = actor if isinstance(actor, bytes) else json.dumps(actor).encode()
    return client.post(
        f"/tables/{table.pk}/characters/import/",
        {"export": SimpleUploadedFile(name, raw, content_type="application/json")},
        **headers,
    )


def _confirm(client, table, actor, **choices):
    document = actor if isinstance(actor, str) else json.dumps(actor)
    return client.post(f"/tables/{table.pk}/characters/import/", {"document": document, **choices})


def test_the_preview_shows_what_matched_and_saves_nothing(client, table, player):
    client.force_login(player)
    actor = copy.deepcopy(V11)
    actor["items"].append(
        {"name": "Homebrew Trick", "type": "ability", "system": {"purchased": True}}
    )
    response = _upload(client, table, actor)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Playbook: Cutter" in page
    assert "Heritage: Skovlan" in page
    assert "Ability: Battleborn" in page
    assert "Ability “Homebrew Trick” is in no playbook here: not imported." in page
    assert "Armor used: Armor" in page
    assert not Character.objects.exists()


def test_a_custom_playbook_is_named_as_not_matched(client, table, player):
    client.force_login(player)
    actor = copy.deepcopy(V11)
    actor["items"][0]["name"] = "Vigilante"
    page = _upload(client, table, actor).content.decode()
    assert "Playbook “Vigilante” is not at this table" in page


def test_confirming_imports_the_whole_sheet(client, table, player):
    client.force_login(player)
    response = _confirm(client, table, V11, **foundry_choices())
    character = Character.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/tables/{table.pk}/characters/{character.pk}/"
    assert (character.owner, character.table, character.name) == (player, table, "Silver")
    assert character.playbook.key == "cutter"
    assert (character.skirmish, character.prowl, character.hunt) == (2, 1, 1)
    assert (character.stress, character.traumas, character.healing) == (3, ["cold"], 1)
    assert character.harm == {"1": ["Battered"], "2": ["Deep cut to the arm"]}
    assert (character.coin, character.stash, character.playbook_xp, character.insight_xp) == (
        2,
        10,
        3,
        2,
    )
    # Names match whatever their case.
    assert {a.ability.name for a in character.abilities.all()} == {
        "Battleborn",
        "Not to Be Trifled With",
    }
    carried = {i.name for i in character.items.filter(checked=True)}
    assert carried == {"Fine hand weapon", "Armor"}
    assert character.items.get(name="Armor").armor == "armor"
    stances = dict(character.contacts.values_list("name", "stance"))
    assert stances["Marlane"] == "friend" and stances["Chael"] == "rival"


@pytest.mark.parametrize("actor", [V10, V09])
def test_older_exports_import_too(client, table, player, actor):
    client.force_login(player)
    response = _confirm(
        client, table, actor, **foundry_choices("whisper", "iruvia", "academic", "weird")
    )
    assert response.status_code == 302
    assert Character.objects.get().stress in (4, 2)


WHISPER_CHOICES = ("whisper", "iruvia", "academic", "weird")


def test_an_export_item_that_is_a_playbook_item_is_that_item(client, table, player):
    client.force_login(player)
    _confirm(client, table, WHISPER, **foundry_choices(*WHISPER_CHOICES))
    character = Character.objects.get()
    names = list(character.items.values_list("name", flat=True))
    assert "Spirit Bottles" not in names and names.count("Spirit bottles (2)") == 1
    assert "(W) Fine Spirit Mask" not in names
    carried = set(character.items.filter(checked=True).values_list("name", "special"))
    # The export's own item stays, beside the playbook's and the standard ones.
    assert carried == {
        ("Spirit bottles (2)", True),
        ("Fine spirit mask", True),
        ("A Pet Crow", False),
    }
    assert (character.special_used, character.armor_used, character.healing) == (True, False, 1)


def test_choosing_a_load_after_an_import_keeps_what_it_carries(client, table, player):
    client.force_login(player)
    _confirm(client, table, V11, **foundry_choices())
    character = Character.objects.get()
    actions.set_load(character=character, level="normal")
    character.refresh_from_db()
    carried = set(character.items.filter(checked=True).values_list("name", flat=True))
    assert carried == {"Fine hand weapon", "Armor"}
    # The next load starts the next score: the last one's items are put down.
    actions.set_load(character=character, level="light")
    character.refresh_from_db()
    assert not character.items.filter(checked=True).exists()


def test_the_sheet_shows_the_imported_character(client, table, player):
    client.force_login(player)
    _confirm(client, table, V11, **foundry_choices())
    character = Character.objects.get()
    page = client.get(f"/tables/{table.pk}/characters/{character.pk}/").content.decode()
    assert "Silver" in page and "Battleborn" in page


def test_export_round_trips_through_import(client, table, player, other_player):
    client.force_login(player)
    _confirm(client, table, V11, **foundry_choices())
    first = Character.objects.get()
    exported = client.get(f"/tables/{table.pk}/characters/{first.pk}/foundry.json")
    assert exported["Content-Disposition"].startswith("attachment")
    client.force_login(other_player)
    assert (
        _confirm(client, table, exported.content.decode(), **foundry_choices()).status_code == 302
    )
    second = Character.objects.exclude(pk=first.pk).get()
    fields = ["name", "alias", "look", "stress", "traumas", "harm", "healing", "coin", "stash"]
    fields += ["skirmish", "prowl", "hunt", "playbook_xp", "insight_xp", "vice_purveyor"]
    assert {f: getattr(second, f) for f in fields} == {f: getattr(first, f) for f in fields}
    assert set(second.abilities.values_list("ability", flat=True)) == set(
        first.abilities.values_list("ability", flat=True)
    )
    assert set(second.items.values_list("name", "checked")) == set(
        first.items.values_list("name", "checked")
    )


# What an import keeps of an export: the export read back from the character.
KEPT = ["name", "alias", "look", "background_detail", "vice_purveyor", "ratings", "stress"]
KEPT += ["traumas", "harm", "healing", "armor_used", "coin", "stash", "xp"]


@pytest.mark.parametrize(
    "sample, choices",
    [(V11, ()), (V10, WHISPER_CHOICES), (V09, WHISPER_CHOICES), (WHISPER, WHISPER_CHOICES)],
)
def test_export_import_export_is_equal(client, table, player, other_player, sample, choices):
    client.force_login(player)
    assert _confirm(client, table, sample, **foundry_choices(*choices)).status_code == 302
    first = Character.objects.get()
    exported = client.get(f"/tables/{table.pk}/characters/{first.pk}/foundry.json").json()
    original, kept = read_actor(sample), read_actor(exported)
    assert {f: getattr(kept, f) for f in KEPT} == {f: getattr(original, f) for f in KEPT}
    assert {a.casefold() for a in kept.abilities} == {a.casefold() for a in original.abilities}
    carried = {g.name for g in kept.gear if g.equipped}
    assert len(carried) == len([g for g in original.gear if g.equipped])

    client.force_login(other_player)
    document = json.dumps(exported)
    assert _confirm(client, table, document, **foundry_choices(*choices)).status_code == 302
    second = Character.objects.exclude(pk=first.pk).get()
    again = client.get(f"/tables/{table.pk}/characters/{second.pk}/foundry.json").json()
    assert again == exported


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"not json at all", "not JSON"),
        (b"\xff\xfe\x00garbage", "not JSON"),
        (b'{"name": "x", "type": "npc", "system": {}}', "not a character"),
        (b'{"name": "Silver", "system": {"stress": {"value": "lots"}}}', "Stress is not a number"),
        (b"[" * 20000 + b"]" * 20000, "not JSON"),
        (b"{}", "no character fields"),
    ],
)
def test_a_hostile_upload_is_refused_beside_the_field(client, table, player, raw, message):
    client.force_login(player)
    response = _upload(client, table, raw)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Character.objects.exists()


def test_a_huge_upload_is_refused_before_it_is_read(client, table, player):
    client.force_login(player)
    response = _upload(client, table, b" " * (MAX_BYTES + 10))
    assert response.status_code == 422
    assert "larger than" in response.content.decode()


def test_a_tampered_confirmation_saves_nothing(client, table, player):
    client.force_login(player)
    actor = copy.deepcopy(V11)
    actor["system"]["stress"] = {"value": 50}
    response = _confirm(client, table, actor, **foundry_choices())
    assert response.status_code == 422
    assert "Stress is 50" in response.content.decode()
    response = _confirm(client, table, V11, **{**foundry_choices(), "playbook": 999999})
    assert response.status_code == 422
    assert not Character.objects.exists()


def test_nothing_is_half_imported(client, table, player, monkeypatch):
    """A failure after the character row is written takes the whole import back."""
    from characters import foundry_import

    client.force_login(player)

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(foundry_import.CharacterItem.objects, "bulk_create", broken)
    with pytest.raises(RuntimeError):
        _confirm(client, table, V11, **foundry_choices())
    assert not Character.objects.exists()


def test_one_active_character_per_seat(client, table, player):
    CharacterFactory(table=table, owner=player)
    client.force_login(player)
    response = _confirm(client, table, V11, **foundry_choices())
    assert response.status_code == 422
    assert "Retire your current character" in response.content.decode()
    assert Character.objects.count() == 1


def test_ratings_of_four_need_mastery(client, table, player):
    client.force_login(player)
    actor = copy.deepcopy(V11)
    actor["system"]["attributes"]["prowess"]["skills"]["skirmish"]["value"] = 4
    page = _upload(client, table, actor).content.decode()
    assert "Mastery" in page
    assert _confirm(client, table, actor, **foundry_choices()).status_code == 422
    assert not Character.objects.exists()


def test_the_gm_and_outsiders_cannot_import(client, table, gm, outsider):
    client.force_login(gm)
    assert client.get(f"/tables/{table.pk}/characters/import/").status_code == 403
    client.force_login(outsider)
    assert _confirm(client, table, V11, **foundry_choices()).status_code == 404
    assert not Character.objects.exists()


def test_the_import_is_linked_from_the_party(client, table, player):
    client.force_login(player)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert f"/tables/{table.pk}/characters/import/" in page


# JSON carries a lone surrogate or a NUL as an escape (`\ud800`, `\u0000`): valid JSON, but
# text no page can be encoded with and no PostgreSQL text column can hold.
UNSTORABLE = [
    ("name", "Sur\ud800rogate", "`name`"),
    ("name", "Nul\x00l", "`name`"),
    ("look", "tall\udfff", "`system.look`"),
    ("item", "Fine\x00 blade", "`items[10].name`"),
    ("trauma", "\ud800", "`system.trauma.list[1]`"),
    ("key", "Cold\x00", "`system.harm.Cold\\u0000`"),
]


def _unstorable(where: str, text: str) -> str:
    actor = copy.deepcopy(V11)
    if where == "name":
        actor["name"] = text
    elif where == "look":
        actor["system"]["look"] = text
    elif where == "item":
        actor["items"].append({"name": text, "type": "item", "system": {"load": 1}})
    elif where == "trauma":
        actor["system"]["trauma"]["list"].append(text)
    else:
        actor["system"]["harm"][text] = {"one": "x"}
    return json.dumps(actor)


@pytest.mark.parametrize("where, text, field", UNSTORABLE)
def test_text_no_column_can_store_is_refused_beside_the_file_field(
    client, table, player, where, text, field
):
    client.force_login(player)
    response = _upload(client, table, _unstorable(where, text).encode())
    assert response.status_code == 422
    error = re.search(r'id="id_export_error"[^>]*>(.*?)</p>', response.content.decode(), re.S)
    assert field in html.unescape(error.group(1))
    assert not Character.objects.exists()


@pytest.mark.parametrize("where, text, field", UNSTORABLE)
def test_text_no_column_can_store_is_refused_at_confirm(client, table, player, where, text, field):
    client.force_login(player)
    response = _confirm(client, table, _unstorable(where, text), **foundry_choices())
    assert response.status_code == 422
    assert field in html.unescape(response.content.decode())
    assert not Character.objects.exists()


def test_a_spanish_reader_reads_the_preview_and_its_problems_in_spanish(client, table, player):
    client.force_login(player)
    spanish = {"HTTP_ACCEPT_LANGUAGE": "es"}

    def page(actor) -> str:
        return html.unescape(_upload(client, table, actor, **spanish).content.decode())

    assert "El archivo no es JSON: exporta el actor de Foundry de nuevo." in page(b"{not json")
    actor = copy.deepcopy(V11)
    actor["system"]["stress"] = {"value": 99}
    assert "Estrés es 99; debe estar entre 0 y 9." in page(actor)
    preview = page(V11)
    assert "Arquetipo: Matón" in preview and "Habilidad: Nacido para la batalla" in preview
    assert "Playbook:" not in preview


def test_an_import_lists_the_spiritbane_charm_once_as_the_wizard_does(client, table, player):
    """The Cutter lists the Spiritbane charm among its own items and the standard items
    list it too (the app's content, as SRD_FACTS.md gives both lists): the sheet carries
    it once, as the playbook's, as the creation wizard makes it."""
    client.force_login(player)
    _confirm(client, table, V11, **foundry_choices())
    items = Character.objects.get().items.filter(name__iexact="Spiritbane charm")
    assert list(items.values_list("special", flat=True)) == [True]
