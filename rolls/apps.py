from django.apps import AppConfig


class RollsConfig(AppConfig):
    name = "rolls"
    verbose_name = "Action rolls"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from crews import screen
        from sessions import panels

        from . import live, views
        from .templatetags import roll_tags

        panels.add(
            panel=panels.Panel("rolls/table_panels.html#card", place="main", order=10),
            page_context=views.table_page_context,
            snapshot=live.flow_snapshot,
        )
        screen.add_part(roll_tags.screen_context)
