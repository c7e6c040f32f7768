"""The action roll now lives in the `rolls` app (its 0001 took over these tables)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("table_sessions", "0004_group_bonuses_and_heat"),
        ("rolls", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="RollEvent"),
                migrations.DeleteModel(name="Consequence"),
                migrations.DeleteModel(name="ActionRoll"),
            ],
        ),
    ]
