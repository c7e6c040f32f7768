from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0008_resistance_roll_line"),
    ]

    operations = [
        migrations.AddField(
            model_name="actionroll",
            name="assist_foresight",
            field=models.BooleanField(default=False),
        ),
    ]
