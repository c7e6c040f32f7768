"""Stored lines survive a change of wording (issue 38).

A line of the roll log (and every other `WordsField`) is kept as its English message and
params, read in its reader's language when read. An English message edited in the code
no longer matches the rows that hold the old one, and a param that no longer fills its
message could not be read at all: the whole roll log's query failed with it. So

- a line that no longer reads is shown as it was written, and logged;
- every message the code stores is on stored_words.json (each a message, the singular and
  plural of a count, or a word of the rules kept as a `Term`): every message the modules
  that write stored lines mark (`WRITERS`, read from their source), and every message
  the language sweep saw stored (a word of the rules a writer passes on); a message on it
  that the catalog no longer holds was reworded or dropped, and its old rows need a data
  migration."""

import ast
import json
import logging
import re
from pathlib import Path

import pytest
from django.apps import apps
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


# The modules that write a stored line (a `WordsField`'s value): every message they mark
# is one the database may hold (the few refusals they keep in a table of their own are
# listed with the rest: a list too long asks nothing wrong). Each other module of the
# apps that builds `Words` says here why its words are never stored.
WRITERS = {
    "characters/actions.py", "play/downtime.py", "play/phases.py", "rolls/actions.py",
    "rolls/changes.py", "rolls/group.py", "rolls/log.py", "rolls/outcome.py", "rolls/undo.py",
    "sessions/actions.py",
}  # fmt: skip
NOT_WRITERS = {
    "sessions/shapes.py": "a restore's refusals, shown once and never stored",
}
# What marks a message in those modules (a `RuleError` raised with one is answered, never
# stored).
MARKS = {"gettext_noop", "_", "ngettext", "Term"}


def marked_in(path: Path) -> set[str]:
    """Every message `path` marks, but for one raised as a `RuleError`'s own message."""
    found = set()

    def visit(node, refused: bool) -> None:
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            refused = refused or name == "RuleError"
            if name in MARKS and not refused:
                found.update(
                    arg.value
                    for arg in node.args[:2]
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value
                )
        for child in ast.iter_child_nodes(node):
            visit(child, refused)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def builders_of_words() -> set[str]:
    """The apps' modules (not the rules', not a migration) that import `Words`."""
    base = Path(settings.BASE_DIR)
    found = set()
    for config in apps.get_app_configs():
        folder = Path(config.path)
        if folder.parent != base:
            continue
        for path in folder.rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = {
                alias.name
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module in WORDS_MODULES
                for alias in node.names
            }
            if "Words" in names:
                found.add(str(path.relative_to(base)))
    return found


WORDS_MODULES = {"blades.rules.words", "blades.rules.errors"}


def test_every_module_building_words_is_known_as_a_writer_or_not():
    assert builders_of_words() == WRITERS | set(NOT_WRITERS)


def test_every_message_a_writer_marks_is_on_the_list():
    """Issue 38: the list is every message the database may hold, not only the ones one
    played session stored, so that rewording any of them fails
    `test_every_stored_message_is_still_in_the_catalog`."""
    base = Path(settings.BASE_DIR)
    marked = {message for path in WRITERS for message in marked_in(base / path)}
    missing = sorted(marked - stored())
    assert missing == [], (
        "Messages the code may store are not on tests/sessions/stored_words.json. A new "
        "message: add it. One that replaces an old wording: write a data migration for the "
        f"rows that hold the old one, then replace it on the list: {missing}"
    )


def test_the_writers_scan_leaves_out_only_a_refusal(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        'x = Words(gettext_noop("%(name)s rolls"), name="Ada")\n'
        'T = {"a": _("Stress")}\n'
        'raise RuleError(gettext_noop("No."), field="x")\n'
        'raise RuleError(ngettext("%(n)s die", "%(n)s dice", 2), n=2)\n'
    )
    assert marked_in(module) == {"%(name)s rolls", "Stress"}


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
