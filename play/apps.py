from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "The phase loop"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from crews import screen
        from sessions import panels

        from .templatetags import phase_tags

        screen.add_part(phase_tags.screen_context)
        panels.add(panel=panels.Panel("play/table_panels.html#head", place="head", order=40))
