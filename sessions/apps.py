from django.apps import AppConfig
from django.utils.translation import get_language

from blades import content


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
        words.install(gettext, ngettext, content_name)


def content_name(of: str, english: str) -> str:
    """A name from the game's content (blades.rules.words.Named) in the active language."""
    return content.shown_names(of, get_language() or "en").get(english, english)
