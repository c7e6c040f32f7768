"""Hostile files against the restore: a real export with a few things changed (kinds of
rows, ids, field values, the document's own keys), and bytes that are no export at all.

Whatever the file, the restore ends in a new table or in a refusal (`ImportRefused`,
which the command and the form show), and a refusal writes nothing. A preview writes
nothing either way. Other tables and every user stay as they were. Through the web page
(upload, preview, confirm) the same files never give a 5xx.
"""

import json

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backup.restore import ImportRefused, read_document, restore_table
from backup.tables import PARTS, dumps, export_table
from sessions.models import Table
from tests.backup.full_table import full_table
from tests.factories import CharacterFactory, ClockFactory, UserFactory

URL = reverse("table_restore")

# Modest and fixed: the suite's time matters, and a failure must come back the same.
FEW = settings(
    max_examples=25,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

TEXT = st.text(max_size=12) | st.sampled_from(["\x00", "Sur\ud800rogate", "x" * 300, "gm"])
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)
LABELS = st.sampled_from(
    [label.lower() for label, _ in PARTS]
    + [
        "auth.user",
        "auth.permission",
        "sessions.session",
        "contenttypes.contenttype",
        "crews.screen",
        "chronicle.discordhook",
        "characters.option",
        "nonsense",
        "",
    ]
)


def every_row() -> dict[str, int]:
    return {m._meta.label: m._default_manager.count() for m in apps.get_models()}


@pytest.fixture
def world(db):
    """An export of a full table, and another table (with its rows) the file may aim at."""
    table = full_table()
    victim = CharacterFactory(name="Victim")
    ClockFactory(table=victim.table, name="Victim's clock")
    gm = UserFactory(username="restorer")
    document = json.loads(dumps(export_table(table.pk)))
    ids = sorted({item["pk"] for item in document["objects"]} | {victim.pk, victim.table_id})
    return document, gm, victim.table, ids


def check(text: str | bytes, gm, victim) -> None:
    """The property, on one file: then the database is put back for the next."""
    before = every_row()
    others = json.loads(dumps(export_table(victim.pk)))
    with transaction.atomic():
        try:
            document = read_document(text)
            restore_table(document, gm=gm, preview=True)
            assert every_row() == before, "a preview writes nothing"
            restored = restore_table(document, gm=gm, match_members=True)
        except ImportRefused as refusal:
            assert str(refusal)
            assert every_row() == before, "a refusal writes nothing"
        else:
            assert restored.table.gm == gm
            assert every_row()["auth.User"] == before["auth.User"]
            assert every_row()["sessions.Session"] == before["sessions.Session"]
        assert json.loads(dumps(export_table(victim.pk))) == others
        transaction.set_rollback(True)


MUTATIONS = st.sampled_from(["field", "model", "pk", "drop", "copy", "top", "reference"])


def mutate(data, document: dict, ids: list[int]) -> None:
    objects = document["objects"]
    kind = data.draw(MUTATIONS)
    if kind == "top":
        key = data.draw(st.sampled_from(["format", "version", "table", "objects", "users"]))
        document[key] = data.draw(VALUES)
        return
    if not isinstance(objects, list) or not objects:
        return
    index = data.draw(st.integers(0, len(objects) - 1))
    item = objects[index]
    if not (isinstance(item, dict) and isinstance(item.get("fields"), dict)):
        return  # an earlier change made it no row at all
    if kind == "model":
        item["model"] = data.draw(LABELS)
    elif kind == "pk":
        item["pk"] = data.draw(VALUES | st.sampled_from(ids))
    elif kind == "drop":
        del objects[index]
    elif kind == "copy":
        objects.append(json.loads(json.dumps(item)))
    else:
        names = sorted(item["fields"]) + ["id", "owner", "table", "user", "nonsense"]
        name = data.draw(st.sampled_from(names))
        ints = st.sampled_from(ids) | st.integers(0, 2**64)
        item["fields"][name] = data.draw(ints if kind == "reference" else VALUES)


@FEW
@given(data=st.data())
def test_an_export_with_a_few_things_changed(world, data):
    document, gm, victim, ids = world
    hostile = json.loads(json.dumps(document))
    for _ in range(data.draw(st.integers(1, 3))):
        mutate(data, hostile, ids)
    check(json.dumps(hostile), gm, victim)


@FEW
@given(raw=st.binary(max_size=200) | st.text(max_size=200) | st.builds(json.dumps, VALUES))
def test_bytes_that_are_no_export(world, raw):
    _, gm, victim, _ = world
    check(raw, gm, victim)


def test_the_export_itself_restores(world):
    """The property's other branch is reached: the unchanged file makes a table."""
    document, gm, victim, _ = world
    check(json.dumps(document), gm, victim)
    with transaction.atomic():
        assert restore_table(read_document(json.dumps(document)), gm=gm).table.pk
        transaction.set_rollback(True)


@FEW
@given(data=st.data())
def test_hostile_files_through_the_web_restore(world, client, data):
    """The page a GM uploads to, then confirms: never a 5xx, and nothing of the file
    kept but the new table a confirm makes (taken away again for the next file)."""
    document, gm, victim, ids = world
    hostile = json.loads(json.dumps(document))
    for _ in range(data.draw(st.integers(0, 3))):
        mutate(data, hostile, ids)
    raw = data.draw(st.just(json.dumps(hostile).encode()) | st.binary(max_size=200))
    client.force_login(gm)
    before = every_row()
    others = json.loads(dumps(export_table(victim.pk)))
    upload = SimpleUploadedFile("table.json", raw, "application/json")
    response = client.post(URL, {"export": upload})
    assert response.status_code in (200, 422), response.status_code
    assert every_row() == before, "an upload and its preview write nothing"
    if response.status_code == 200:
        done = client.post(URL, {"digest": response.context["digest"]})
        assert done.status_code == 302, done.status_code
        made = Table.objects.get(pk=int(done["Location"].rstrip("/").split("/")[-1]))
        assert made.gm == gm and made.pk != victim.pk
        made.delete()
    assert every_row() == before
    assert json.loads(dumps(export_table(victim.pk))) == others
