from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "The phase loop"
    default_auto_field = "django.db.models.BigAutoField"
