from django.urls import path

from . import views

urlpatterns = [
    path("tables/<int:table_id>/discord/", views.discord_settings, name="discord_settings"),
    path(
        "tables/<int:table_id>/discord/test/",
        views.take_step,
        {"taken": "discord-test"},
        name="discord_test",
    ),
    path("tables/<int:table_id>/dice/", views.dice_statistics, name="dice_statistics"),
    path("tables/<int:table_id>/journal/", views.journal_page, name="journal"),
    path("tables/<int:table_id>/journal.md", views.campaign_export, name="journal_campaign"),
    path(
        "tables/<int:table_id>/journal/start/",
        views.take_step,
        {"taken": "start"},
        name="journal_start",
    ),
    path(
        "tables/<int:table_id>/journal/<int:session_id>/end/",
        views.take_step,
        {"taken": "end"},
        name="journal_end",
    ),
    path(
        "tables/<int:table_id>/journal/<int:session_id>/edit/",
        views.session_edit,
        name="journal_edit",
    ),
    path(
        "tables/<int:table_id>/journal/<int:session_id>/learned/",
        views.take_step,
        {"taken": "learned"},
        name="journal_learned",
    ),
    path(
        "tables/<int:table_id>/journal/<int:session_id>.md",
        views.session_export,
        name="journal_export",
    ),
]
