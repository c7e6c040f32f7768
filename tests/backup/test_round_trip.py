import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from backup.tables import dumps, export_table
from characters import actions as character_actions
from characters.models import Character, GmNote
from sessions.models import Table
from tests.factories import (
    CharacterAbilityFactory,
    CharacterFactory,
    CharacterItemFactory,
    ClockFactory,
    MembershipFactory,
    RollFactory,
    TableFactory,
)


def full_table() -> Table:
    """A table with one of everything an export must carry."""
    table = TableFactory(name="The Lampblacks' table")
    player = MembershipFactory(table=table).user
    other = MembershipFactory(table=table).user
    character = CharacterFactory(
        table=table, owner=player, notes="Owes Bazso", stress=4, coin=2, harm={"1": ["Tired"]}
    )
    CharacterItemFactory(character=character, name="Fine lockpicks")
    CharacterAbilityFactory(character=character)
    GmNote.objects.create(character=character, text="Secretly a Red Sash")
    playbook = character_actions.create_custom_playbook(
        table=table,
        name="Ghost Hunter",
        xp_trigger="You hunted a spirit.",
        primary="attune",
        secondary="survey",
        ability_keys=[],
        own_abilities=[("Spirit sense", "You see ghosts.")],
        friends=[("Elsa", "a spirit warden")],
        items=[("Spirit lantern", 1)],
    )
    CharacterFactory(table=table, owner=other, playbook=playbook, name="Custom made")
    CharacterFactory(table=table, owner=player, state="dead", name="Old Marlane")
    ClockFactory(table=table, name="Bluecoats close in", segments=6, filled=3)
    ClockFactory(table=table, name="Secret plot", visibility="gm")
    RollFactory(table=table, roller=player, character=character, note="Over the wall")
    RollFactory(table=table, roller=table.gm, secret=True)
    return table


def comparable(document: dict) -> dict:
    """As written to the file, so dates compare as the same text."""
    return json.loads(dumps(document))


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_export_flush_import_export_loses_nothing(tmp_path):
    table = full_table()
    path = tmp_path / "table.json"
    call_command("export_table", table.pk, output=str(path))
    first = json.loads(path.read_text())
    kinds = {item["model"] for item in first["objects"]}
    assert {
        "table_sessions.table",
        "table_sessions.membership",
        "table_sessions.clock",
        "table_sessions.roll",
        "characters.character",
        "characters.characteritem",
        "characters.characterability",
        "characters.gmnote",
    } <= kinds
    # Everything of the table and its members goes; the standard content stays.
    usernames = first["users"]
    # Characters first: a custom playbook's characters protect it from a table delete.
    Character.objects.all().delete()
    Table.objects.all().delete()
    get_user_model().objects.all().delete()
    assert not Character.objects.exists()

    call_command("import_table", str(path))
    assert comparable(export_table(table.pk)) == first
    restored = get_user_model().objects.filter(username__in=usernames)
    assert restored.count() == len(usernames)
    assert not any(user.has_usable_password() for user in restored)
    # New rows after an import get fresh ids (PostgreSQL's sequences moved on).
    assert TableFactory().pk != table.pk


def test_import_refuses_a_table_that_exists(db, tmp_path):
    from django.core.management.base import CommandError

    table = TableFactory()
    path = tmp_path / "table.json"
    call_command("export_table", table.pk, output=str(path))
    with pytest.raises(CommandError, match="already exists"):
        call_command("import_table", str(path))


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
    assert gm.username in document["users"]
    client.force_login(player)
    assert client.get(settings_url).status_code == 403
    assert client.get(export_url).status_code == 403
    client.force_login(outsider)
    assert client.get(settings_url).status_code == 404
    assert client.get(export_url).status_code == 404
