from django.apps import AppConfig


class RollsConfig(AppConfig):
    name = "rolls"
    verbose_name = "Action rolls"
    default_auto_field = "django.db.models.BigAutoField"
