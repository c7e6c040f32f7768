"""A roll's line of the log is read in each reader's language: its result and its note
are kept as words (sessions.fields), not as the text of the language it was written in."""

from django.db import migrations, models

import sessions.fields
from sessions.fields import store_as_words


class Migration(migrations.Migration):
    dependencies = [("table_sessions", "0011_presence_language")]

    operations = [
        migrations.AlterField("roll", "summary", models.TextField(blank=True)),
        migrations.AlterField("roll", "note", models.TextField(blank=True)),
        store_as_words("table_sessions.Roll", "summary", "note"),
        migrations.AlterField("roll", "summary", sessions.fields.WordsField()),
        migrations.AlterField("roll", "note", sessions.fields.WordsField(blank=True, default=str)),
    ]
