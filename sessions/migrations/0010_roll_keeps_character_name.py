"""A line of the roll log keeps the name of the character who rolled, not a key to the
sheet: sessions is the floor the characters app stands on, and its tables and
migrations point at nothing above it. Each line takes its character's name as it is now.

This migration names no other app: the characters' table is there already, made before
0002 pointed at it.
"""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def copy_names(apps, schema_editor):
    Roll = apps.get_model("table_sessions", "Roll")
    Character = apps.get_model("characters", "Character")
    name = Character.objects.filter(pk=OuterRef("character_id")).values("name")[:1]
    Roll.objects.exclude(character=None).update(character_name=Subquery(name))


class Migration(migrations.Migration):
    dependencies = [
        ("table_sessions", "0009_table_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="roll",
            name="character_name",
            field=models.CharField(blank=True, default="", max_length=80),
            preserve_default=False,
        ),
        migrations.RunPython(copy_names, migrations.RunPython.noop),
        migrations.RemoveField(model_name="roll", name="character"),
    ]
