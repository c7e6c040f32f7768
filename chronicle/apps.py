from django.apps import AppConfig


class ChronicleConfig(AppConfig):
    """What a table's story sends out and looks back on: the Discord relay, the dice
    statistics. The top floor: it may import every app, and none imports it."""

    name = "chronicle"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from sessions import panels

        from . import recorder, relay, views

        relay.connect()
        recorder.connect()
        panels.add(
            panel=panels.Panel("chronicle/table_panels.html#head", place="head", order=20),
            page_context=views.table_page_context,
        )
