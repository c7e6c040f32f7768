"""A GM's export, edited by hand and restored by the host (the command) or by the
attacker as GM of the new table (the web page), turned against the server.

Each file is the attacker's own small table plus one row aimed elsewhere. The restore
makes a new table from the table's own rows only: the aimed row is refused (and then
nothing at all is written) or, named by an id of another table, it becomes a row of the
new table and the other table's row stays as it was.
"""

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import translation

from characters.models import Character
from sessions.models import Membership, Table
from sessions.shapes import ShapeError
from tests.factories import CharacterFactory, TableFactory, UserFactory

TABLE_ID = 7_777
URL = reverse("table_restore")


@pytest.fixture
def attacker(db):
    return UserFactory(username="mallory")


@pytest.fixture
def victim_table(db):
    return TableFactory(name="Someone else's table")


class Refused(Exception):
    """The refusal, as the command or the web page tells it."""


def file_with(*rows: dict) -> str:
    """The attacker's small table, and the rows aimed elsewhere."""
    document = {
        "format": "blades-table-export",
        "version": 1,
        "table": TABLE_ID,
        "users": ["mallory"],
        "objects": [
            {
                "model": "table_sessions.table",
                "pk": TABLE_ID,
                "fields": {
                    "name": "Innocent table",
                    "gm": ["mallory"],
                    "invite_active": True,
                    "created": "2026-01-01T00:00:00Z",
                    "opening_position": "",
                },
            },
            {
                "model": "table_sessions.membership",
                "pk": TABLE_ID,
                "fields": {
                    "table": TABLE_ID,
                    "user": ["mallory"],
                    "role": "gm",
                    "joined": "2026-01-01T00:00:00Z",
                },
            },
            *rows,
        ],
    }
    return json.dumps(document)


# The host restoring the file with the command, and the attacker restoring it as a GM
# from the web: the same restore, so each attack is tried both ways.
@pytest.fixture(params=["command", "web"])
def restore(request, tmp_path, client, attacker):
    def by_command(*rows: dict) -> None:
        path = tmp_path / "table.json"
        path.write_text(file_with(*rows))
        try:
            call_command("import_table", str(path), gm="mallory")
        except CommandError as error:
            raise Refused(str(error)) from None

    def by_web(*rows: dict) -> None:
        client.force_login(attacker)
        upload = SimpleUploadedFile("table.json", file_with(*rows).encode(), "application/json")
        response = client.post(URL, {"export": upload})
        if response.status_code == 200:
            response = client.post(URL, {"digest": response.context["digest"]})
        if response.status_code == 422:
            raise Refused(" ".join(response.context["upload"].errors["export"]))
        assert response.status_code == 302, response.status_code

    return by_command if request.param == "command" else by_web


@pytest.fixture
def refused(restore):
    def attempt(*rows: dict) -> str:
        tables = Table.objects.count()
        with pytest.raises(Refused) as error:
            restore(*rows)
        assert Table.objects.count() == tables, "nothing is written on a refusal"
        return str(error.value)

    return attempt


def test_a_membership_of_another_table_is_refused(refused, attacker, victim_table):
    message = refused(
        {
            "model": "table_sessions.membership",
            "pk": 1,
            "fields": {
                "table": victim_table.pk,
                "user": ["mallory"],
                "role": "gm",
                "joined": "2026-01-01T00:00:00Z",
            },
        },
    )
    assert "its table names a table that is not in the file" in message
    assert not Membership.objects.filter(table=victim_table, user=attacker).exists()


def test_a_second_gm_is_refused(refused, attacker, victim_table):
    UserFactory(username="trudy")
    message = refused(
        {
            "model": "table_sessions.membership",
            "pk": 1,
            "fields": {"table": TABLE_ID, "user": ["trudy"], "role": "gm"},
        },
    )
    assert "someone other than the table's GM" in message


def test_another_tables_character_named_by_its_id_stays_as_it_was(restore, attacker, victim_table):
    victim = CharacterFactory(table=victim_table, name="Victim", stress=1)
    before = Character.objects.filter(pk=victim.pk).values().get()
    sheet = {
        field: value
        for field, value in before.items()
        if field not in ("id", "table_id", "owner_id", "playbook_id", "created")
        and not field.endswith("_id")
    }
    restore(
        {
            "model": "characters.character",
            "pk": victim.pk,
            "fields": {
                **sheet,
                "name": "Overwritten",
                "stress": 9,
                "table": TABLE_ID,
                "owner": ["mallory"],
                "playbook": {"content": [victim.playbook.key]},
                "heritage": {"content": ["heritage", victim.heritage.key]},
                "background": {"content": ["background", victim.background.key]},
                "vice": {"content": ["vice", victim.vice.key]},
                "created": "2026-01-01T00:00:00Z",
            },
        },
    )
    assert Character.objects.filter(pk=victim.pk).values().get() == before
    mine = Character.objects.get(name="Overwritten")
    assert mine.pk != victim.pk and mine.table.gm == attacker


def test_a_character_put_into_another_table_is_refused(refused, attacker, victim_table):
    victim = CharacterFactory(table=victim_table, name="Victim")
    message = refused(
        {
            "model": "characters.character",
            "pk": 1,
            "fields": {
                "name": "Spy",
                "table": victim_table.pk,
                "owner": ["mallory"],
                "playbook": {"content": [victim.playbook.key]},
            },
        },
    )
    assert "not in the file" in message
    assert list(victim_table.characters.all()) == [victim]


def test_a_user_row_is_refused(refused, attacker):
    victim = UserFactory(username="victim")
    before = get_user_model().objects.filter(pk=victim.pk).values().get()
    message = refused(
        {
            "model": "auth.user",
            "pk": victim.pk,
            "fields": {
                "username": "victim",
                "password": attacker.password,
                "is_superuser": True,
                "is_staff": True,
            },
        },
    )
    assert "“auth.user” row" in message and "never users" in message
    assert get_user_model().objects.filter(pk=victim.pk).values().get() == before


def test_a_session_row_is_refused(refused, attacker):
    message = refused(
        {
            "model": "sessions.session",
            "pk": "planted-session-key",
            "fields": {
                "session_data": "e30:planted",
                "expire_date": "2099-01-01T00:00:00Z",
            },
        },
    )
    assert "“sessions.session” row" in message
    assert not Session.objects.filter(session_key="planted-session-key").exists()


def test_clocks_that_unlock_each_other_are_refused(refused, attacker):
    def clock(pk: int, unlocks: int) -> dict:
        return {
            "model": "table_sessions.clock",
            "pk": pk,
            "fields": {
                "table": TABLE_ID,
                "name": f"Clock {pk}",
                "unlocks": unlocks,
                "created": "2026-01-01T00:00:00Z",
            },
        }

    message = refused(clock(1, 2), clock(2, 1))
    assert "cannot unlock itself" in message


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{broken", "not JSON"),
        ('{"format": "blades-table-export", "version": 1, "objects": "many"}', "no list"),
        ("\ufeff[1, 2]", "not a Blades Table export"),
        ('{"format": "blades-table-export", "version": 99}', "cannot read"),
        ('{"name": "NaN", "x": NaN}', "not a number JSON allows"),
        ('{"name": "nul \\u0000"}', "NUL character"),
        ('{"name": "\\ud800"}', "lone surrogate"),
    ],
)
def test_a_malformed_file_ends_with_a_command_error(tmp_path, attacker, text, said):
    path = tmp_path / "table.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError, match=said):
        call_command("import_table", str(path), gm="mallory")


def test_wrong_types_are_refused(refused, attacker):
    message = refused(
        {
            "model": "table_sessions.clock",
            "pk": 1,
            "fields": {"table": TABLE_ID, "name": "Clock", "segments": "lots"},
        },
    )
    assert "segments" in message
    message = refused(
        {"model": "table_sessions.clock", "pk": 1, "fields": {"table": [TABLE_ID], "name": 1}},
    )
    assert "its table names a table that is not in the file" in message


def test_what_a_refused_shape_says_reads_in_its_readers_language():
    with pytest.raises(ShapeError) as refused:
        Character._meta.get_field("traumas").shape.check(["cold", 3])
    with translation.override("es"):
        assert str(refused.value) == "«3» no es texto"
