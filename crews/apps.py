from django.apps import AppConfig


class CrewsConfig(AppConfig):
    name = "crews"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from sessions import panels

        from . import live

        panels.add(snapshot=live.crew_snapshot)
