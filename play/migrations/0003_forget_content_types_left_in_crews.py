"""The phase loop's models came from the crews app (crews 0003); their old content
types, and the permissions hanging on them, stayed behind under crews, naming models
that no longer exist there. Django never removes a content type on its own.

A fresh database never made them (content types are made after the last migration), so
there the delete finds nothing. Going back leaves them gone: nothing refers to them."""

from django.db import migrations

MOVED = ["downtimeactivity", "flashback", "phase", "score"]


def forget(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    # Their permissions go with them (a cascade through the historical Permission model).
    ContentType.objects.filter(app_label="crews", model__in=MOVED).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0002_flashback_to_downtime"),
        ("crews", "0003_phase_loop_to_play"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(forget, migrations.RunPython.noop)]
