"""Entanglement and downtime results are read in each reader's language (sessions.fields)."""

from django.db import migrations, models

import sessions.fields
from sessions.fields import store_as_words


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0006_score_payoff_split"),
        ("table_sessions", "0012_roll_lines_in_words"),
    ]

    operations = [
        migrations.AlterField("score", "resolution", models.TextField(blank=True)),
        migrations.AlterField("downtimeactivity", "trouble", models.TextField(blank=True)),
        migrations.AlterField("downtimeactivity", "result", models.TextField(blank=True)),
        store_as_words("play.Score", "resolution"),
        store_as_words("play.DowntimeActivity", "trouble", "result"),
        migrations.AlterField(
            "score", "resolution", sessions.fields.WordsField(blank=True, default=str)
        ),
        migrations.AlterField(
            "downtimeactivity", "trouble", sessions.fields.WordsField(blank=True, default=str)
        ),
        migrations.AlterField(
            "downtimeactivity", "result", sessions.fields.WordsField(blank=True, default=str)
        ),
    ]
