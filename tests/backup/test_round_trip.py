import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from backup.restore import read_document, restore_table
from backup.tables import MOVED, PARTS, dumps, export_table, seats_of
from characters.models import Character
from rolls.models import RollEvent
from sessions.models import Membership, Table
from sessions.shapes import ShapedJSONField
from tests.backup.full_table import full_table, hand_seats_back
from tests.factories import ClockFactory, UserFactory


def comparable(document: dict) -> dict:
    """As written to the file, each id replaced by the row's place among its kind's rows
    in the file: a restore makes new ids, and this compares everything else."""
    document = json.loads(dumps(document))
    places = {label.lower(): {} for label, _ in PARTS}
    for item in document["objects"]:
        kind = places[item["model"]]
        kind[item["pk"]] = len(kind)

    def place(label: str, pk) -> int:
        return places[label.lower()][int(pk)]

    for item in document["objects"]:
        model = apps.get_model(item["model"])
        item["pk"] = place(item["model"], item["pk"])
        for field in model._meta.fields:
            label = field.related_model and field.related_model._meta.label
            value = item["fields"].get(field.name)
            if label and label.lower() in places and isinstance(value, int):
                item["fields"][field.name] = place(label, value)
        for field in model._meta.fields:
            if isinstance(field, ShapedJSONField) and item["fields"].get(field.name) is not None:
                item["fields"][field.name] = field.shape.moved(item["fields"][field.name], place)
    del document["table"]
    return document


def test_a_restore_is_a_new_table_equal_in_content(db):
    table = full_table()
    first = export_table(table.pk)
    kinds = {item["model"] for item in first["objects"]}
    # Every model the export knows is in this file, so the comparison below covers it.
    assert kinds == {label.lower() for label, _ in PARTS}
    users = get_user_model().objects.count()

    restored = restore_table(read_document(dumps(first)), gm=table.gm)
    hand_seats_back(restored.table, table)

    assert restored.table.pk != table.pk
    assert rejoined(comparable(export_table(restored.table.pk))) == rejoined(comparable(first))
    assert get_user_model().objects.count() == users
    # The original is untouched, and the copy's rows are its own.
    assert comparable(export_table(table.pk)) == comparable(first)
    assert not set(Character.objects.filter(table=restored.table).values_list("pk", flat=True)) & {
        c.pk for c in table.characters.all()
    }
    assert restored.table.invite_token != table.invite_token


@pytest.mark.django_db(transaction=True)
def test_export_flush_restore_by_the_command(tmp_path):
    """Moving a campaign to a fresh server: the host makes the GM's account first."""
    table = full_table()
    path = tmp_path / "table.json"
    call_command("export_table", table.pk, output=str(path))
    first = json.loads(path.read_text())
    gm_name = table.gm.username
    Table.objects.all().delete()
    get_user_model().objects.all().delete()
    gm = UserFactory(username=gm_name)

    call_command("import_table", str(path), gm=gm_name)

    (restored,) = Table.objects.all()
    assert restored.gm == gm
    assert list(get_user_model().objects.all()) == [gm]
    assert list(Membership.objects.values_list("user", "role")) == [(gm.pk, "gm")]
    # The players are invited again: their characters wait for them, nothing else differs.
    assert Character.objects.filter(table=restored).count() == 3
    assert not Character.objects.exclude(owner=None).exists()
    expected = comparable(first)
    got = comparable(export_table(restored.pk))
    for document in (expected, got):
        document["users"] = []
        document["objects"] = [
            item
            for item in document["objects"]
            if item["model"] not in ("table_sessions.membership", "characters.draft")
        ]
        for item in document["objects"]:
            for name in ("owner", "roller", "started_by", "bargain_by", "actor", "author"):
                if name in item["fields"]:
                    item["fields"][name] = None
    assert got == expected


def rejoined(document: dict) -> dict:
    """As it reads once the players have joined again and have their seats: each joined
    at another time, and a character half made by a player who was not here is not kept
    (a draft must have its player: they start the wizard again)."""
    document["objects"] = [i for i in document["objects"] if i["model"] != "characters.draft"]
    for item in document["objects"]:
        if item["model"] == "table_sessions.membership":
            del item["fields"]["joined"]
    return document


def test_a_file_names_no_user_of_this_site(db):
    table = full_table()
    text = dumps(export_table(table.pk))
    for membership in table.memberships.all():
        assert membership.user.username not in text
    assert "seat 2: the player of " in text


def test_the_host_may_seat_members_of_an_older_file_by_username(db):
    """Files written before seats named users by username."""
    table = full_table()
    text = dumps(export_table(table.pk))
    for username, seat in seats_of(table.pk).items():
        text = text.replace(json.dumps(seat), json.dumps(username))
    document = read_document(text)
    newcomer = UserFactory()
    players = [m.user for m in table.memberships.exclude(role="gm")]

    restored = restore_table(document, gm=newcomer, match_members=True)

    assert restored.table.gm == newcomer
    assert restored.seated == sorted(p.username for p in players)
    assert restored.invited == []
    roles = dict(restored.table.memberships.values_list("user__username", "role"))
    # The person restoring takes the file's GM's place; the file's GM is not seated.
    assert roles == {newcomer.username: "gm", **{p.username: "player" for p in players}}


def test_an_export_written_before_the_action_roll_moved_still_restores(db):
    table = full_table()
    document = export_table(table.pk)
    # Until the action roll had its own app, exports named its models under sessions.
    older = json.loads(dumps(document).replace('"rolls.', '"table_sessions.'))
    assert {"table_sessions.actionroll", "table_sessions.consequence"} <= {
        item["model"] for item in older["objects"]
    }

    restored = restore_table(older, gm=table.gm)
    hand_seats_back(restored.table, table)
    assert rejoined(comparable(export_table(restored.table.pk))) == rejoined(comparable(document))
    assert RollEvent.objects.filter(roll__table=restored.table).count() == 3


def test_an_export_written_while_a_roll_pointed_at_its_character_still_restores(db):
    table = full_table()
    document = export_table(table.pk)
    # Until a roll kept its character's name, it named the character's row in the file.
    older = json.loads(dumps(document))
    rows = {(item["model"], item["pk"]): item["fields"] for item in older["objects"]}
    rolls = [item["fields"] for item in older["objects"] if item["model"] == "table_sessions.roll"]
    for roll in rolls:
        name = roll.pop("character_name")
        sheet = next(
            (pk for (model, pk), row in rows.items() if model == "characters.character"
             and row["name"] == name),
            None,
        )  # fmt: skip
        roll["character"] = sheet
    assert any(roll["character"] for roll in rolls)

    restored = restore_table(older, gm=table.gm)
    hand_seats_back(restored.table, table)
    assert rejoined(comparable(export_table(restored.table.pk))) == rejoined(comparable(document))


MOVED_BACK = {new: old for old, new in MOVED.items()}


def test_an_export_written_before_the_phase_loop_moved_still_restores(db, tmp_path):
    """Files written while scores, flashbacks, downtime and the phase lived in crews,
    and which still carried the invite token (the restore makes a new one)."""
    table = full_table()
    current = export_table(table.pk)
    older = json.loads(dumps(current))
    for item in older["objects"]:
        item["model"] = MOVED_BACK.get(item["model"], item["model"])
        if item["model"] == "table_sessions.table":
            item["fields"]["invite_token"] = table.invite_token
    path = tmp_path / "older.json"
    path.write_text(json.dumps(older))

    call_command("import_table", str(path), gm=table.gm.username)

    restored = Table.objects.exclude(pk=table.pk).get()
    hand_seats_back(restored, table)
    assert rejoined(comparable(export_table(restored.pk))) == rejoined(comparable(current))
    assert restored.invite_token != table.invite_token


def test_restoring_twice_makes_two_tables(db, tmp_path):
    table = full_table()
    path = tmp_path / "table.json"
    path.write_text(dumps(export_table(table.pk)))
    for _ in range(2):
        call_command("import_table", str(path), gm=table.gm.username)
    assert Table.objects.filter(name=table.name).count() == 3


def test_the_command_needs_a_gm_who_is_a_user_here(db, tmp_path):
    table = full_table()
    path = tmp_path / "table.json"
    path.write_text(dumps(export_table(table.pk)))
    with pytest.raises(CommandError, match="no user “nobody”"):
        call_command("import_table", str(path), gm="nobody")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_table", str(tmp_path / "missing.json"), gm=table.gm.username)
    assert Table.objects.count() == 1


def test_the_gm_downloads_the_export_from_the_settings_page(client, table, gm, player, outsider):
    ClockFactory(table=table, name="Bluecoats close in")
    settings_url = reverse("table_settings", args=[table.pk])
    export_url = reverse("table_export", args=[table.pk])
    client.force_login(gm)
    page = client.get(settings_url)
    assert page.status_code == 200 and export_url.encode() in page.content
    download = client.get(export_url)
    assert download["Content-Disposition"] == f'attachment; filename="table-{table.pk}.json"'
    document = json.loads(download.content)
    assert any(o["fields"].get("name") == "Bluecoats close in" for o in document["objects"])
    assert document["users"][0] == "seat 1: the GM"
    assert gm.username.encode() not in download.content
    client.force_login(player)
    assert client.get(settings_url).status_code == 403
    assert client.get(export_url).status_code == 403
    client.force_login(outsider)
    assert client.get(settings_url).status_code == 404
    assert client.get(export_url).status_code == 404
