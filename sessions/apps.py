from django.apps import AppConfig


class TableSessionsConfig(AppConfig):
    # "sessions" is taken by django.contrib.sessions, which the websocket auth needs.
    name = "sessions"
    label = "table_sessions"
    verbose_name = "Tables"
    default_auto_field = "django.db.models.BigAutoField"
