"""The phase loop's models move here from crews, rows and all.

Only Django's picture of the models changes here; the tables already exist (made by
crews 0002); crews 0003, which comes after this one, renames them from crews_* to play_*."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("characters", "0002_standard_content"),
        ("crews", "0002_phases"),
        ("table_sessions", "0002_roll_character"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Score",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("target_name", models.CharField(max_length=120, verbose_name="Target")),
                        ("target_tier", models.PositiveSmallIntegerField(default=0)),
                        (
                            "plan",
                            models.CharField(
                                choices=[
                                    ("assault", "Assault"),
                                    ("deception", "Deception"),
                                    ("stealth", "Stealth"),
                                    ("occult", "Occult"),
                                    ("social", "Social"),
                                    ("transport", "Transport"),
                                ],
                                max_length=10,
                            ),
                        ),
                        ("detail", models.CharField(max_length=200)),
                        ("advantages", models.PositiveSmallIntegerField(default=0)),
                        ("disadvantages", models.PositiveSmallIntegerField(default=0)),
                        (
                            "position",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("controlled", "Controlled"),
                                    ("risky", "Risky"),
                                    ("desperate", "Desperate"),
                                ],
                                max_length=10,
                            ),
                        ),
                        ("past_first_obstacle", models.BooleanField(default=False)),
                        ("rep", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("coin", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("tithe", models.PositiveSmallIntegerField(default=0)),
                        ("heat", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("entanglements", models.JSONField(default=list)),
                        ("entanglement", models.CharField(blank=True, max_length=40)),
                        ("resolution", models.CharField(blank=True, max_length=300)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        (
                            "engagement_roll",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="table_sessions.roll",
                            ),
                        ),
                        (
                            "entanglement_roll",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="table_sessions.roll",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="scores",
                                to="table_sessions.table",
                            ),
                        ),
                        (
                            "target_faction",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="crews.faction",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["-created", "-pk"],
                    },
                ),
                migrations.CreateModel(
                    name="Phase",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "step",
                            models.CharField(
                                choices=[
                                    ("free_play", "Free play"),
                                    ("score", "The score"),
                                    ("payoff", "Payoff"),
                                    ("heat", "Heat"),
                                    ("entanglement", "Entanglements"),
                                    ("activities", "Downtime activities"),
                                    ("xp_review", "End of session: xp"),
                                ],
                                default="free_play",
                                max_length=20,
                            ),
                        ),
                        ("xp_done", models.JSONField(default=list)),
                        ("crew_xp_done", models.BooleanField(default=False)),
                        (
                            "table",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="phase",
                                to="table_sessions.table",
                            ),
                        ),
                        (
                            "score",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="play.score",
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="Flashback",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("stress", models.PositiveSmallIntegerField()),
                        ("note", models.CharField(blank=True, max_length=200)),
                        ("paid", models.BooleanField(default=False)),
                        (
                            "character",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="characters.character",
                            ),
                        ),
                        (
                            "score",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="flashbacks",
                                to="play.score",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["pk"],
                    },
                ),
                migrations.CreateModel(
                    name="DowntimeActivity",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("acquire_asset", "Acquire asset"),
                                    ("project", "Long-term project"),
                                    ("recover", "Recover"),
                                    ("reduce_heat", "Reduce heat"),
                                    ("train", "Train"),
                                    ("indulge_vice", "Indulge vice"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("paid_with", models.CharField(blank=True, max_length=4)),
                        ("detail", models.CharField(blank=True, max_length=200)),
                        ("outcome", models.CharField(blank=True, max_length=10)),
                        ("raised", models.PositiveSmallIntegerField(default=0)),
                        ("amount", models.PositiveSmallIntegerField(default=0)),
                        ("overindulged", models.BooleanField(default=False)),
                        ("overindulgence", models.CharField(blank=True, max_length=20)),
                        ("result", models.CharField(blank=True, max_length=300)),
                        (
                            "character",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="characters.character",
                            ),
                        ),
                        (
                            "clock",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="table_sessions.clock",
                            ),
                        ),
                        (
                            "roll",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="table_sessions.roll",
                            ),
                        ),
                        (
                            "score",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="activities",
                                to="play.score",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["pk"],
                    },
                ),
            ],
        ),
    ]
