"""A database from when a line of the roll log pointed at its character's row keeps who
rolled: each line takes the character's name (table_sessions 0010)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from sessions.models import Roll
from tests.factories import CharacterFactory, TableFactory

BEFORE = [("table_sessions", "0009_table_language")]


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh graph, as the next `migrate` sees it


@pytest.mark.django_db(transaction=True)
def test_a_line_of_the_log_keeps_its_characters_name():
    table = TableFactory()
    ada = CharacterFactory(table=table, name="Ada")

    executor = migrate(BEFORE)
    old = executor.loader.project_state(list(executor.loader.applied_migrations)).apps
    OldRoll = old.get_model("table_sessions", "Roll")
    line = {"table_id": table.pk, "kind": "vice", "pool": 1, "dice": [4], "outcome": "partial"}
    hers = OldRoll.objects.create(**line, character_id=ada.pk, summary="Clear 4 stress")
    fortune = OldRoll.objects.create(**line, summary="Partial")

    migrate(executor.loader.graph.leaf_nodes())
    names = dict(Roll.objects.values_list("pk", "character_name"))
    assert names == {hers.pk: "Ada", fortune.pk: ""}
