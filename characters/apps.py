from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from sessions import panels

        from . import live

        panels.add(
            panel=panels.Panel("characters/table_panels.html#party-card", place="side", order=10),
            snapshot=live.party_snapshot,
        )
