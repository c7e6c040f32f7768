"""A stored line the app wrote (a roll's result, a step of a roll, a downtime result):
kept as words (blades.rules.words), so that each reader reads it in their own language."""

import json
import logging
from functools import lru_cache

from django.core.exceptions import ValidationError
from django.db import migrations, models
from django.db.models.fields.json import KeyTransform

from blades.rules import words

logger = logging.getLogger(__name__)


class WordsField(models.JSONField):
    """Reads back as `Words`, `Joined`, or the players' own text as typed."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("encoder", words.Encoder)
        kwargs.setdefault("decoder", words.Decoder)
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs.pop("encoder", None)
        kwargs.pop("decoder", None)
        return name, path, args, kwargs

    def from_db_value(self, value, expression, connection):
        if isinstance(value, str) and not isinstance(expression, KeyTransform):
            return _read(value)
        return super().from_db_value(value, expression, connection)

    def to_python(self, value):
        # A restore hands over the file's JSON: refused here unless it is words.
        if isinstance(value, words.Words | words.Joined | words.Term | words.Named):
            return value
        try:
            return words.from_data(value)
        except ValueError as error:
            raise ValidationError(str(error)) from None

    def value_to_string(self, obj):
        """The export keeps which word is which, not one language's reading of them."""
        return words.to_data(self.value_from_object(obj))


@lru_cache(maxsize=4096)
def _read(value: str):
    """A stored line as words. A page reads the same few lines again and again (a roll
    log's results, its steps), and reading one renders it once to check it (issue 36:
    about a tenth of the table page), so each text is read once; words are never changed
    once made, so rows may share them.

    A stored line that no longer reads as words (its message reworded, a param that no
    longer fills it) is shown as it was written, and logged: it must not take the roll
    log's query, and the page, down with it."""
    try:
        return json.loads(value, cls=words.Decoder)
    except json.JSONDecodeError:
        return value
    except ValueError as error:
        logger.warning("Unreadable stored line %r (%s): shown as written", value, error)
        return words.as_written(json.loads(value))


def store_as_words(label: str, *names: str) -> migrations.RunPython:
    """A migration step: a text column's lines become words (the players' own text, as
    typed), so that it can be altered to a `WordsField`; and back, in English."""
    app_label, model_name = label.split(".")

    def forwards(apps, schema_editor):
        _rewrite(schema_editor, apps.get_model(app_label, model_name), names, json.dumps)

    def backwards(apps, schema_editor):
        _rewrite(schema_editor, apps.get_model(app_label, model_name), names, _english)

    return migrations.RunPython(forwards, backwards)


def reword(label: str, *names: str, change, **rows) -> migrations.RunPython:
    """A migration step: each stored line of these columns (of the `rows` that match, if
    given) becomes `change(line)`, words in and words out; for lines whose message, or
    a param of it, the code now stores in another shape. Not undone going back: the old
    code reads the new shape as well as a stored line can be read (sessions.fields)."""
    app_label, model_name = label.split(".")

    def forwards(apps, schema_editor):
        model = apps.get_model(app_label, model_name)
        for row in model._default_manager.filter(**rows).only(*names).iterator():
            for name in names:
                setattr(row, name, change(getattr(row, name)))
            row.save(update_fields=names)

    return migrations.RunPython(forwards, migrations.RunPython.noop)


def _english(stored: str) -> str:
    return str(json.loads(stored, cls=words.Decoder))


def _rewrite(schema_editor, model, names, change) -> None:
    if schema_editor.connection.vendor == "postgresql":
        # PostgreSQL will not alter a table whose rows still owe deferred key checks,
        # and the column is altered next, in the same transaction.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    for row in model._default_manager.only(*names).iterator():
        for name in names:
            setattr(row, name, change(getattr(row, name)))
        row.save(update_fields=names)
