"""A restored table's log reads in each reader's language, as the original did: the
export keeps the log's words (which is a rule's word, which a player's), not one
language's reading of them."""

import json

from django.utils import translation

from backup.restore import read_document, restore_table
from backup.tables import dumps, export_table
from blades.rules.words import Named
from sessions.actions import record_roll
from sessions.models import Roll
from tests.factories import UserFactory
from tests.helpers import Dice


def test_the_export_keeps_the_logs_words_and_the_restore_reads_them(table, gm):
    record_roll(table_id=table.pk, roller=gm, kind="downtime", pool=1, note="Mend", rng=Dice(6))
    document = json.loads(dumps(export_table(table.pk)))
    (line,) = [item for item in document["objects"] if item["model"] == "table_sessions.roll"]
    assert line["fields"]["summary"]["words"] == ["%(ticks)s tick", "%(ticks)s ticks", 3]

    restored = restore_table(read_document(json.dumps(document)), gm=UserFactory())
    copy = Roll.objects.get(table=restored.table)
    with translation.override("es"):
        assert (str(copy.summary), copy.note) == ("3 segmentos", "Mend")
    assert str(copy.summary) == "3 ticks"


def test_a_name_from_the_content_is_restored_as_one(table, gm):
    """A vice roll's note is the vice's name from the content (issue 38): the export keeps
    which list it is from, and the restored line reads it in its reader's language."""
    note = Named("Faith", of="vices")
    record_roll(table_id=table.pk, roller=gm, kind="vice", pool=1, note=note, rng=Dice(6))
    document = json.loads(dumps(export_table(table.pk)))
    (line,) = [item for item in document["objects"] if item["model"] == "table_sessions.roll"]
    assert line["fields"]["note"] == {"name": "Faith", "of": "vices"}

    restored = restore_table(read_document(json.dumps(document)), gm=UserFactory())
    copy = Roll.objects.get(table=restored.table)
    with translation.override("es"):
        assert str(copy.note) == "Fe"
