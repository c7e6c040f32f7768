"""The action roll moves here from `table_sessions` (its 0003 and 0004): same columns,
same rows. The models join this app's state on the tables they already have, then the
tables take this app's names; `table_sessions` 0005 drops them from its own state."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import blades.rules.rolls


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("characters", "0004_restrict_custom_content"),
        ("table_sessions", "0004_group_bonuses_and_heat"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ActionRoll",
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
                                    ("action", "Action roll"),
                                    ("group", "Group action"),
                                    ("fortune", "Fortune roll"),
                                ],
                                default="action",
                                max_length=10,
                            ),
                        ),
                        (
                            "step",
                            models.CharField(
                                choices=[
                                    ("setup", "Setting up"),
                                    ("consequences", "Rolled"),
                                    ("done", "Finished"),
                                    ("cancelled", "Cancelled"),
                                    ("undone", "Undone"),
                                ],
                                default="setup",
                                max_length=15,
                            ),
                        ),
                        ("goal", models.CharField(max_length=200)),
                        ("action", models.CharField(blank=True, max_length=12)),
                        (
                            "position",
                            models.CharField(
                                choices=[
                                    ("controlled", "Controlled"),
                                    ("risky", "Risky"),
                                    ("desperate", "Desperate"),
                                ],
                                default=blades.rules.rolls.Position["RISKY"],
                                max_length=10,
                            ),
                        ),
                        (
                            "effect",
                            models.PositiveSmallIntegerField(
                                choices=[
                                    (0, "Zero"),
                                    (1, "Limited"),
                                    (2, "Standard"),
                                    (3, "Great"),
                                    (4, "Extreme"),
                                ],
                                default=blades.rules.rolls.Effect["STANDARD"],
                            ),
                        ),
                        ("trade_asked", models.BooleanField(default=False)),
                        ("gather_information", models.BooleanField(default=False)),
                        ("flashback", models.BooleanField(default=False)),
                        ("flashback_cost", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("push_dice", models.BooleanField(default=False)),
                        ("push_effect", models.BooleanField(default=False)),
                        ("bargain", models.CharField(blank=True, max_length=200)),
                        ("bargain_accepted", models.BooleanField(default=False)),
                        ("ability_dice", models.PositiveSmallIntegerField(default=0)),
                        ("ability_effect", models.PositiveSmallIntegerField(default=0)),
                        ("ability_reason", models.CharField(blank=True, max_length=120)),
                        ("setup_benefit", models.CharField(blank=True, max_length=10)),
                        ("setup_used", models.BooleanField(default=False)),
                        ("group", models.JSONField(default=dict)),
                        ("group_bonuses", models.JSONField(default=dict)),
                        ("secret", models.BooleanField(default=False)),
                        ("pool", models.SmallIntegerField(null=True)),
                        ("dice", models.JSONField(null=True)),
                        (
                            "outcome",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("critical", "Critical"),
                                    ("success", "Full success"),
                                    ("partial", "Partial success"),
                                    ("bad", "Bad outcome"),
                                ],
                                max_length=10,
                            ),
                        ),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        ("finished", models.DateTimeField(null=True)),
                        (
                            "assister",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="characters.character",
                            ),
                        ),
                        (
                            "bargain_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "character",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="characters.character",
                            ),
                        ),
                        (
                            "setup_for",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="characters.character",
                            ),
                        ),
                        (
                            "setup_from",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="rolls.actionroll",
                            ),
                        ),
                        (
                            "started_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="action_rolls",
                                to="table_sessions.table",
                            ),
                        ),
                        (
                            "target_clock",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="table_sessions.clock",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "table_sessions_actionroll",
                        "ordering": ["-created", "-pk"],
                    },
                ),
                migrations.CreateModel(
                    name="Consequence",
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
                                    ("harm", "Harm"),
                                    ("complication", "Complication"),
                                    ("reduced_effect", "Reduced effect"),
                                    ("worse_position", "Worse position"),
                                    ("lost_opportunity", "Lost opportunity"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("description", models.CharField(blank=True, max_length=120)),
                        ("harm_level", models.PositiveSmallIntegerField(null=True)),
                        ("harm_landed", models.PositiveSmallIntegerField(null=True)),
                        ("ticks", models.PositiveSmallIntegerField(default=0)),
                        ("heat", models.PositiveSmallIntegerField(default=0)),
                        ("resist_attribute", models.CharField(blank=True, max_length=10)),
                        (
                            "resisted",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("", "Not resisted"),
                                    ("roll", "Resistance roll"),
                                    ("armor", "Armor"),
                                ],
                                max_length=5,
                            ),
                        ),
                        ("resist_dice", models.JSONField(null=True)),
                        (
                            "result",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("", "Stands"),
                                    ("reduced", "Reduced"),
                                    ("avoided", "Avoided"),
                                ],
                                max_length=10,
                            ),
                        ),
                        (
                            "character",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="characters.character",
                            ),
                        ),
                        (
                            "clock",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="table_sessions.clock",
                            ),
                        ),
                        (
                            "protected_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="characters.character",
                            ),
                        ),
                        (
                            "roll",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="consequences",
                                to="rolls.actionroll",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "table_sessions_consequence",
                        "ordering": ["pk"],
                    },
                ),
                migrations.CreateModel(
                    name="RollEvent",
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
                        ("text", models.CharField(max_length=300)),
                        ("changes", models.JSONField(default=list)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        (
                            "actor",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "roll",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="events",
                                to="rolls.actionroll",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "table_sessions_rollevent",
                        "ordering": ["pk"],
                    },
                ),
            ],
        ),
        migrations.AlterModelTable(name="actionroll", table=None),
        migrations.AlterModelTable(name="consequence", table=None),
        migrations.AlterModelTable(name="rollevent", table=None),
    ]
