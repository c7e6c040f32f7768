"""A restored table's own pages stand whatever its file held.

The restore checks each value's type and each reference; what it cannot see is a value
of the right type that no path of play writes (a roll with one die for a pool of four,
a harm row that is a number). Such a file is refused at the restore, or its table's
pages still answer: never a 500 for its GM or its players."""

import json

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backup.restore import ImportRefused, read_document, restore_table
from backup.tables import dumps, export_table
from characters.models import Character
from tests.backup.full_table import full_table
from tests.backup.test_hostile_files import VALUES
from tests.factories import UserFactory
from tests.security.urls import table_urls

FEW = settings(
    max_examples=15,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def export(db):
    return json.loads(dumps(export_table(full_table().pk))), UserFactory(username="restorer")


def plausible(data, value):
    """A value the restore's type checks let through: of the same JSON kind as the
    export's own, so only its meaning is wrong."""
    if isinstance(value, bool):
        return data.draw(st.booleans())
    if isinstance(value, int):
        return data.draw(st.integers(-3, 12) | st.integers(-(2**31), 2**31))
    if isinstance(value, str):
        return data.draw(st.sampled_from(["", "x", "0", "gm", "desperate", "lurk"]) | st.text())
    return data.draw(VALUES)


def pages_answer(table, gm) -> None:
    """Every page of the table once, and each character's sheet, as its GM sees them."""
    client = Client(raise_request_exception=False)
    client.force_login(gm)
    characters = list(Character.objects.filter(table=table).values_list("pk", flat=True))
    urls = [u.url for u in table_urls(table_id=table.pk, character_id=characters[0])]
    urls += [reverse("character_sheet", args=[table.pk, pk]) for pk in characters[1:]]
    for url in urls:
        status = client.get(url).status_code
        assert status < 500, f"{url} answered {status}"


@FEW
@given(data=st.data())
def test_a_restored_tables_pages_answer(export, data):
    document, gm = export
    hostile = json.loads(json.dumps(document))
    rows = [item for item in hostile["objects"] if item["fields"]]
    for _ in range(data.draw(st.integers(1, 2))):
        item = data.draw(st.sampled_from(rows))
        name = data.draw(st.sampled_from(sorted(item["fields"])))
        item["fields"][name] = plausible(data, item["fields"][name])
    try:
        restored = restore_table(read_document(json.dumps(hostile)), gm=gm)
    except ImportRefused:
        return
    # The pages are drawn outside the restore's transaction, as a GM's next visit is.
    try:
        pages_answer(restored.table, gm)
    finally:
        restored.table.delete()


@pytest.mark.parametrize(
    "label, changes",
    [
        ("rolls.actionroll", {"pool": 4, "dice": [6]}),
        ("rolls.actionroll", {"dice": ["six"]}),
        ("rolls.actionroll", {"dice": {"a": 1}}),
        ("characters.character", {"harm": 3}),
        ("characters.character", {"harm": {"1": "Tired"}}),
        ("characters.character", {"traumas": "cold"}),
        ("characters.character", {"stress": 40}),
        ("table_sessions.roll", {"dice": [9, 9]}),
        ("crews.crew", {"upgrades": ["carriage"]}),
        ("crews.crew", {"abilities": {"x": 1}}),
        ("crews.cohort", {"types": "thugs"}),
        ("play.phase", {"xp_done": "all"}),
        ("rolls.rollevent", {"changes": [1, 2]}),
        ("table_sessions.clock", {"filled": 9, "segments": 4}),
        # Stored words whose params cannot fill their message, or would fill the memory.
        ("table_sessions.roll", {"summary": {"words": "%(a)d", "with": {"a": "x"}}}),
        ("table_sessions.roll", {"note": {"words": "%(a)999999999s", "with": {"a": "x"}}}),
        ("rolls.rollevent", {"text": [1, 2]}),
        ("play.score", {"resolution": {"term": 3}}),
    ],
)
def test_a_file_with_values_no_play_writes(export, label, changes):
    document, gm = export
    hostile = json.loads(json.dumps(document))
    item = next(i for i in hostile["objects"] if i["model"] == label)
    item["fields"].update(changes)
    try:
        restored = restore_table(read_document(json.dumps(hostile)), gm=gm)
    except ImportRefused:
        return
    pages_answer(restored.table, gm)


def test_a_json_field_holding_true_or_false_is_refused_not_a_crash(export):
    """Hypothesis found it: false in a JSON field failed the type check's own message."""
    document, gm = export
    hostile = json.loads(json.dumps(document))
    item = next(i for i in hostile["objects"] if i["model"] == "crews.crew")
    item["fields"]["upgrades"] = False
    with pytest.raises(ImportRefused, match="upgrades"):
        restore_table(read_document(json.dumps(hostile)), gm=gm)
