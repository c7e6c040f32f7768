"""Stored lines survive a change of wording (issue 38).

A line of the roll log (and every other `WordsField`) is kept as its English message and
params, read in its reader's language when read. An English message edited in the code
no longer matches the rows that hold the old one, and a param that no longer fills its
message could not be read at all: the whole roll log's query failed with it. So

- a line that no longer reads is shown as it was written, and logged;
- every message the code stores is on STORED (each a message, the singular and plural of
  a count, or a word of the rules kept as a `Term`), which the language sweep keeps
  complete (every message it saw stored must be on it); a message on it that the catalog
  no longer holds was reworded or dropped, and its old rows need a data migration."""

import json
import logging
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse
from django.utils.html import escape

from blades.rules import words

STORED_FILE = Path(__file__).with_name("stored_words.json")
CATALOG = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES" / "django.po"


def stored() -> set[str]:
    return set(json.loads(STORED_FILE.read_text()))


def catalog_messages() -> set[str]:
    """Every English message of the catalog (msgid and msgid_plural), unwrapped."""
    messages, current, inside = set(), [], False
    for line in CATALOG.read_text().splitlines():
        start = re.match(r'^(msgid|msgid_plural) "(.*)"$', line)
        if start:
            if current:
                messages.add("".join(current))
            current, inside = [start.group(2)], True
        elif inside and line.startswith('"'):
            current.append(line[1:-1])
        else:
            if inside and current:
                messages.add("".join(current))
            current, inside = [], False
    return {json.loads(f'"{message}"') for message in messages if message}


def test_every_stored_message_is_still_in_the_catalog():
    gone = sorted(stored() - catalog_messages())
    assert gone == [], (
        "These stored messages are no longer in the catalog: their wording changed or they "
        "were dropped. Rows in the database still hold them: write a data migration for old "
        "rows (rewrite each to the new message), then update tests/sessions/stored_words.json: "
        f"{gone}"
    )


def stored_messages(value) -> set[str]:
    """The messages and words of the rules one stored value holds."""
    if isinstance(value, words.Term):
        return {value.english} if value else set()
    if isinstance(value, words.Words):
        message = value.message
        found = set(message[:2]) if isinstance(message, words.Plural) else {message}
        return {m for m in found if m} | {
            m for param in value.params.values() for m in stored_messages(param)
        }
    if isinstance(value, words.Joined):
        return stored_messages(value.separator) | {
            m for part in value.parts for m in stored_messages(part)
        }
    return set()


def test_the_scan_finds_every_message_in_a_line():
    line = words.Joined(
        words.Term("; "),
        [
            words.Words("%(who)s rolls %(n)s", who="Ada", n=words.Term("Prowl")),
            words.Words(words.ngettext("%(n)s tick", "%(n)s ticks", 2), n=2),
        ],
    )
    assert stored_messages(line) == {"; ", "%(who)s rolls %(n)s", "Prowl", "%(n)s tick",
                                     "%(n)s ticks"}  # fmt: skip


UNREADABLE = [
    # A param the message no longer has.
    {"words": "%(who)s rolled %(dice)s", "with": {"who": "Ada"}},
    # Its message is no message at all.
    {"words": {"old": "shape"}},
    {"join": "; ", "parts": [{"words": "Heat +%(heat)s", "with": {"hot": 2}}, "Ada's own words"]},
]


@pytest.mark.parametrize("data", UNREADABLE)
@pytest.mark.django_db
def test_an_unreadable_line_is_shown_as_written_and_logged(client, table, gm, data, caplog):
    from sessions.models import Roll
    from tests.factories import RollFactory

    roll = RollFactory(table=table, roller=gm, note="a note")
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Roll._meta.db_table} SET note = %s WHERE id = %s", [json.dumps(data), roll.pk]
        )
    client.force_login(gm)
    with caplog.at_level(logging.WARNING, logger="sessions.fields"):
        response = client.get(reverse("table_detail", args=[table.pk]))
    assert response.status_code == 200
    written = words.as_written(data)
    assert written and escape(written) in response.content.decode()
    assert "Unreadable stored line" in caplog.text


def test_as_written_fills_what_it_can_and_never_raises():
    assert words.as_written({"words": "Heat +%(heat)s", "with": {"heat": 2}}) == "Heat +2"
    assert words.as_written({"words": "%(who)s rolled %(dice)s", "with": {"who": "Ada"}}) == (
        "%(who)s rolled %(dice)s"
    )
    assert words.as_written({"words": ["%(n)s tick", "%(n)s ticks", 3], "with": {"n": 3}}) == (
        "3 ticks"
    )
    assert words.as_written({"words": "%(a)999999999s", "with": {"a": "x"}}) == "%(a)999999999s"
    assert words.as_written([1, 2]) == "[1, 2]"


def test_a_translation_its_params_do_not_fill_reads_as_the_english(monkeypatch, caplog):
    monkeypatch.setattr(words, "_translate", lambda message: "%(nadie)s tira %(dados)s")
    with caplog.at_level(logging.WARNING, logger="blades.rules.words"):
        assert str(words.Words("%(who)s rolls", who="Ada")) == "Ada rolls"
    assert "not filled" in caplog.text
