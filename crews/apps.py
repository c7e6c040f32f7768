from django.apps import AppConfig
from django.utils.translation import gettext_noop


class CrewsConfig(AppConfig):
    name = "crews"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from sessions import audience, panels

        from . import live
        from .models import Faction

        panels.add(
            panel=panels.Panel("crews/table_panels.html#links", place="head", order=10),
            snapshot=live.crew_snapshot,
        )
        panels.add(panel=panels.Panel("crews/table_panels.html#summary", place="head", order=30))

        audience.register(
            "faction",
            audience.Kind(
                Faction,
                hidden=gettext_noop("a faction the GM keeps hidden"),
                gone=gettext_noop("a faction since deleted"),
            ),
        )
        # A score's target, in the roll log's line for its engagement roll.
        audience.register(
            "target",
            audience.Kind(Faction, hidden=audience.HIDDEN_TARGET, gone=audience.GONE_TARGET),
        )
