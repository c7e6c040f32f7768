"""Each step of a shared roll is read in its reader's language (sessions.fields)."""

from django.db import migrations, models

import sessions.fields
from sessions.fields import store_as_words


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0009_an_assist_for_free_with_foresight"),
        ("table_sessions", "0012_roll_lines_in_words"),
    ]

    operations = [
        migrations.AlterField("rollevent", "text", models.TextField(blank=True)),
        store_as_words("rolls.RollEvent", "text"),
        migrations.AlterField("rollevent", "text", sessions.fields.WordsField()),
    ]
