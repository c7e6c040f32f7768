"""The phase loop's models now belong to the play app (play 0001 holds them in its state).

Crews forgets them, and their tables take the play app's names; every row stays where
it is. The renames keep the foreign keys between them and to other tables."""

from django.db import migrations

MOVED = ["downtimeactivity", "flashback", "phase", "score"]


class Migration(migrations.Migration):
    dependencies = [
        ("crews", "0002_phases"),
        ("play", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterModelTable(name=name, table=f"play_{name}") for name in MOVED
            ],
            state_operations=[migrations.DeleteModel(name=name) for name in MOVED],
        ),
    ]
