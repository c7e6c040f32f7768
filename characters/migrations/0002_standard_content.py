from django.db import migrations

from characters.content import load_standard_content


def load(apps, schema_editor):
    load_standard_content(apps)


class Migration(migrations.Migration):
    dependencies = [("characters", "0001_initial")]

    # Nothing to undo: dropping the tables on the way back removes the rows.
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
