from django.urls import path

from . import views

urlpatterns = [
    path("tables/<int:table_id>/discord/", views.discord_settings, name="discord_settings"),
    path("tables/<int:table_id>/dice/", views.dice_statistics, name="dice_statistics"),
    path("tables/<int:table_id>/journal/", views.journal_page, name="journal"),
    path("tables/<int:table_id>/journal.md", views.campaign_export, name="journal_campaign"),
    path("tables/<int:table_id>/journal/start/", views.session_start, name="journal_start"),
    path(
        "tables/<int:table_id>/journal/<int:session_id>/end/",
        views.session_end,
        name="journal_end",
    ),
    path(
        "tables/<int:table_id>/journal/<int:session_id>/edit/",
        views.session_edit,
        name="journal_edit",
    ),
    path(
        "tables/<int:table_id>/journal/<int:session_id>/learned/",
        views.learned_add,
        name="journal_learned",
    ),
    path(
        "tables/<int:table_id>/journal/<int:session_id>.md",
        views.session_export,
        name="journal_export",
    ),
]
