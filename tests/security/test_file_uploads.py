"""Random files into every upload the app has: never a 5xx, and a refusal writes nothing.

The files are the samples of real exports with one value anywhere in them replaced by
random JSON (text with NULs, lone surrogates and markup among it), or random bytes. Run
on SQLite and on PostgreSQL (`python -m tests.services -- pytest ...`), whose text
columns refuse what SQLite stores. FUZZ_EXAMPLES=500 digs deeper; the default keeps
`make test` quick, and the examples are the same on every run (derandomized).
"""

import copy
import json
import os
import re
from pathlib import Path

import pytest
from django import forms
from django.core.files.uploadedfile import SimpleUploadedFile
from django.forms.models import model_to_dict
from django.urls import get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from characters.models import Character, CharacterAbility, CharacterItem, Contact
from tests.characters.foundry_samples import V09, V10, V11
from tests.helpers import foundry_choices

ROOT = Path(__file__).parents[2]
# Each form that takes a file, and the tests that send it random ones.
FUZZED = {
    "characters.forms.UploadForm": "tests/security/test_file_uploads.py",
    "backup.forms.RestoreForm": "tests/backup/test_hostile_files.py",
}

# NUL, which PostgreSQL's text columns refuse (SQLite stores it), and lone surrogates.
UNSTORABLE = re.compile(r"\\x00|\\ud[89a-f]")

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "30")),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# What a Foundry text field can carry that a form field cannot, set into plain text.
HOSTILE = st.sampled_from(["\x00", "\ud800", "\udfff", "\ud83d", "\n", "<b>", "&amp;", "’"])
TEXT = st.tuples(st.text(max_size=12), HOSTILE, st.text(max_size=12)).map("".join)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


def _paths(value, path=()):
    """Every place in a document a value sits, as the keys that lead there."""
    yield path
    if isinstance(value, dict | list):
        for key, child in value.items() if isinstance(value, dict) else enumerate(value):
            yield from _paths(child, (*path, key))


SAMPLES = [V11, V10, V09]
PLACES = [(n, path) for n, sample in enumerate(SAMPLES) for path in _paths(sample) if path]


def _at(document, path):
    for key in path:
        document = document[key]
    return document


# Most places hold numbers the reader refuses as text, or text it passes over (labels,
# images, ids): the text it reads is drawn as often as all the rest.
TEXT_PLACES = [
    (n, path)
    for n, path in PLACES
    if isinstance(_at(SAMPLES[n], path), str) and path[-1] not in {"label", "img", "id", "type"}
]


@st.composite
def exports(draw) -> bytes:
    """A sample export with one value replaced (or a key added), as a file's bytes."""
    text = draw(st.booleans())
    sample, path = draw(st.sampled_from(TEXT_PLACES if text else PLACES))
    document = copy.deepcopy(SAMPLES[sample])
    inside = _at(document, path[:-1])
    if text:
        inside[path[-1]] = draw(TEXT)
    else:
        new_key = draw(st.booleans()) and isinstance(inside, dict)
        inside[draw(TEXT) if new_key else path[-1]] = draw(JSON)
    ascii_only = draw(st.booleans())
    # Unescaped, a lone surrogate cannot even be written as UTF-8: bytes no JSON reader takes.
    return json.dumps(document, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


FILES = exports() | st.binary(max_size=200)


def written() -> list:
    return [
        [model_to_dict(c) for c in Character.objects.order_by("pk")],
        list(CharacterItem.objects.order_by("pk").values()),
        list(CharacterAbility.objects.order_by("pk").values()),
        list(Contact.objects.order_by("pk").values()),
    ]


def _upload_forms(module_names: set[str]) -> set[type]:
    found, waiting = set(), [forms.BaseForm]
    while waiting:
        form = waiting.pop()
        waiting.extend(form.__subclasses__())
        takes_file = any(
            isinstance(f, forms.FileField) for f in getattr(form, "base_fields", {}).values()
        )
        if takes_file and form.__module__.split(".")[0] in module_names:
            found.add(form)
    return found


def test_every_upload_is_fuzzed():
    """A form added later that takes a file fails here until it has its fuzz test."""
    get_resolver().url_patterns  # noqa: B018 (imports every view, and so every form)
    apps = {"accounts", "sessions", "characters", "crews", "rolls", "play", "backup", "chronicle"}
    found = {f"{form.__module__}.{form.__qualname__}" for form in _upload_forms(apps)}
    assert "characters.forms.UploadForm" in found
    unfuzzed = found - set(FUZZED)
    assert not unfuzzed, f"fuzz these uploads with hypothesis and list them in FUZZED: {unfuzzed}"
    for form in found:
        assert (ROOT / FUZZED[form]).exists(), FUZZED[form]


@pytest.mark.parametrize("step", ["upload", "confirm"])
def test_random_foundry_exports_never_fail_and_refusals_write_nothing(client, table, player, step):
    client.force_login(player)
    url = f"/tables/{table.pk}/characters/import/"
    choices = foundry_choices()

    @FUZZ
    @given(raw=FILES)
    def post(raw):
        before = written()
        if step == "upload":
            export = SimpleUploadedFile("fvtt-Actor-x.json", raw, "application/json")
            response = client.post(url, {"export": export})
        else:
            response = client.post(url, {"document": raw.decode("utf-8", "replace"), **choices})
        assert response.status_code < 500, raw
        if response.status_code != 302:
            assert written() == before, raw
        # What SQLite would take and PostgreSQL refuse is refused on both.
        assert not UNSTORABLE.search(repr(written())), raw
        # A character imported leaves the seat taken: the next file would be refused for that.
        Character.objects.filter(owner=player).delete()

    post()
