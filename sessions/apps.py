from django.apps import AppConfig


class TableSessionsConfig(AppConfig):
    # "sessions" is taken by django.contrib.sessions, which the websocket auth needs.
    name = "sessions"
    label = "table_sessions"
    verbose_name = "Tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out
        from django.utils.translation import gettext, ngettext

        from blades.rules import words

        from .live import close_login_sockets

        user_logged_out.connect(close_login_sockets, dispatch_uid="close_login_sockets")
        # A refusal is read in the language of whoever reads it.
        words.install(gettext, ngettext)
