from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0010_roll_events_in_words"),
    ]

    operations = [
        migrations.AddField(
            model_name="actionroll",
            name="push_special",
            field=models.BooleanField(default=False),
        ),
    ]
