from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from sessions import panels

        from . import live

        panels.add(snapshot=live.party_snapshot)
