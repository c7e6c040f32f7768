"""A GM restores an export from the web: upload, preview, confirm; the same restore as
the command's, so the attacks the command refuses are refused here too."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from backup import restore
from backup.tables import dumps, export_table, seats_of
from characters.models import Character
from sessions.models import Membership, Table
from tests.backup.full_table import full_table
from tests.factories import UserFactory

URL = reverse("table_restore")


def upload(client, text: str | bytes, name: str = "table.json"):
    data = text.encode() if isinstance(text, str) else text
    return client.post(URL, {"export": SimpleUploadedFile(name, data, "application/json")})


def test_the_gm_previews_then_restores_a_new_table(client, db):
    table = full_table()
    text = dumps(export_table(table.pk))
    gm = UserFactory()
    client.force_login(gm)
    assert URL.encode() in client.get(reverse("table_list")).content
    tables = Table.objects.count()

    preview = upload(client, text)

    assert preview.status_code == 200
    page = preview.content.decode()
    assert "Character: 3" in page and "Clock: 4" in page and "Faction: 2" in page
    assert "Custom made" in page and "Bluecoats close in" in page and "The Red Sashes" in page
    seats = [seat for seat in seats_of(table.pk).values() if seat != "seat 1: the GM"]
    assert f"Players to invite again:</strong> {', '.join(seats)}" in page
    assert Table.objects.count() == tables, "a preview writes nothing"

    digest = preview.context["digest"]
    done = client.post(URL, {"digest": digest})

    restored = Table.objects.get(pk=int(done["Location"].rstrip("/").split("/")[-1]))
    assert restored.pk != table.pk and restored.name == table.name
    assert restored.gm == gm
    assert list(restored.memberships.values_list("user", "role")) == [(gm.pk, "gm")]
    assert client.get(done["Location"]).status_code == 200
    # The file waits for one confirm only.
    again = client.post(URL, {"digest": digest})
    assert again.status_code == 422 and "upload the file again" in again.content.decode()
    assert Table.objects.count() == tables + 1


def test_the_confirm_restores_the_previewed_file_only(client, db):
    table = full_table()
    gm = UserFactory()
    client.force_login(gm)
    upload(client, dumps(export_table(table.pk)))
    tables = Table.objects.count()
    forged = client.post(URL, {"digest": "0" * 64})
    assert forged.status_code == 422
    assert 'id="id_export_error"' in forged.content.decode()
    assert Table.objects.count() == tables


def test_a_hostile_file_is_refused_beside_the_file_field(client, db):
    table = full_table()
    document = json.loads(dumps(export_table(table.pk)))
    victim = UserFactory(username="victim")
    document["objects"].append(
        {"model": "auth.user", "pk": victim.pk, "fields": {"username": "victim"}}
    )
    client.force_login(UserFactory())
    for text, said in [
        (json.dumps(document), "“auth.user” row"),
        ("{not json", "not JSON"),
        (b"\xff\xfe", "not text"),
        ("[]", "not a Blades Table export"),
    ]:
        response = upload(client, text)
        assert response.status_code == 422
        page = response.content.decode()
        assert 'id="id_export_error"' in page and said in page
        assert "digest" not in response.context


def test_a_huge_file_is_refused(client, db, monkeypatch):
    monkeypatch.setattr(restore, "MAX_BYTES", 1000)
    monkeypatch.setattr("backup.forms.MAX_BYTES", 1000)
    client.force_login(UserFactory())
    response = upload(client, " " * 1001)
    assert response.status_code == 422
    assert "larger than" in response.content.decode()


def test_the_restore_page_needs_a_login(client, db):
    assert client.get(URL).status_code == 302


def test_the_gm_hands_a_waiting_character_to_a_player_who_came_back(client, db):
    table = full_table()
    gm = UserFactory()
    restored = restore.restore_table(
        restore.read_document(dumps(export_table(table.pk))), gm=gm
    ).table
    player = UserFactory()
    Membership.objects.create(table=restored, user=player, role="player")
    waiting = Character.objects.get(table=restored, name="Custom made")
    settings_url = reverse("table_settings", args=[restored.pk])
    hand_over_url = reverse("character_hand_over", args=[restored.pk])
    client.force_login(gm)
    page = client.get(settings_url).content.decode()
    assert "Characters waiting for their player" in page and "Custom made" in page

    given = client.post(hand_over_url, {"character": waiting.pk, "player": player.username})
    assert given.status_code == 302
    waiting.refresh_from_db()
    assert waiting.owner == player

    # One active character a player; a character of another table is not a choice.
    second = Character.objects.get(table=restored, notes="Owes Bazso")
    refused = client.post(hand_over_url, {"character": second.pk, "player": player.username})
    assert refused.status_code == 422
    assert "already has an active character" in refused.content.decode()
    elsewhere = table.characters.first()
    refused = client.post(hand_over_url, {"character": elsewhere.pk, "player": player.username})
    assert refused.status_code == 422 and 'id="id_character_error"' in refused.content.decode()
    client.force_login(player)
    assert client.post(hand_over_url, {"character": second.pk, "player": "x"}).status_code == 403


@pytest.mark.parametrize(
    "text,said",
    [
        (b'{"objects": 3}', "Esto no es una exportación de Blades Table."),
        (b'{"name": "nul \\u0000"}', "`name` del archivo contiene un carácter NUL (\\u0000)"),
    ],
)
def test_a_refused_file_is_explained_in_the_readers_language(client, db, text, said):
    client.force_login(UserFactory())
    response = client.post(
        URL,
        {"export": SimpleUploadedFile("table.json", text, "application/json")},
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert response.status_code == 422
    assert said in response.content.decode()
