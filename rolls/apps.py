from django.apps import AppConfig


class RollsConfig(AppConfig):
    name = "rolls"
    verbose_name = "Action rolls"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from sessions import panels

        from . import live, views

        panels.add(page_context=views.table_page_context, snapshot=live.flow_snapshot)
