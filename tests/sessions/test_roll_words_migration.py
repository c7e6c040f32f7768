"""A database from before the log kept words: each line's text becomes the players' own
words, read as it was written (table_sessions 0012), and back again."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from sessions.models import Roll
from tests.factories import TableFactory

BEFORE = [("table_sessions", "0011_presence_language")]
# Quotes, a backslash and 200 characters: the longest line the old column took.
NOTE = 'Ada\'s "last" job \\ ' + "x" * 180


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)


def old_roll_model(executor):
    state = executor.loader.project_state(list(executor.loader.applied_migrations))
    return state.apps.get_model("table_sessions", "Roll")


@pytest.mark.django_db(transaction=True)
def test_an_old_line_reads_as_it_was_written_and_goes_back_unchanged():
    table = TableFactory()
    executor = migrate(BEFORE)
    line = {"table_id": table.pk, "kind": "vice", "pool": 1, "dice": [4], "outcome": "partial"}
    old = old_roll_model(executor).objects.create(**line, summary="Clear 4 stress", note=NOTE)

    executor = migrate(executor.loader.graph.leaf_nodes())
    assert Roll.objects.filter(pk=old.pk).values_list("summary", "note").get() == (
        "Clear 4 stress",
        NOTE,
    )

    executor = migrate(BEFORE)
    back = old_roll_model(executor).objects.get(pk=old.pk)
    assert (back.summary, back.note) == ("Clear 4 stress", NOTE)
    migrate(executor.loader.graph.leaf_nodes())
