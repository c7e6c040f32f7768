"""The action roll's models came from the sessions app (table_sessions 0005); their old
content types, and the permissions hanging on them, stayed behind under table_sessions,
naming models that no longer exist there. Django never removes a content type on its own.

A fresh database never made them (content types are made after the last migration), so
there the delete finds nothing. Going back leaves them gone: nothing refers to them."""

from django.db import migrations

MOVED = ["actionroll", "consequence", "rollevent"]


def forget(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    # Their permissions go with them (a cascade through the historical Permission model).
    ContentType.objects.filter(app_label="table_sessions", model__in=MOVED).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0004_action_roll_log_line"),
        ("table_sessions", "0005_action_roll_moves_to_rolls"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(forget, migrations.RunPython.noop)]
