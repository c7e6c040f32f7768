from django.urls import path

from sessions.step_view import take_step

from . import views

ROOM = views.JournalRoom()


def step(route: str, name: str, url_name: str):
    """A URL of one step of the journal (chronicle/steps.py), served by the one step view."""
    return path(
        f"tables/<int:table_id>/{route}", take_step, {"room": ROOM, "step": name}, name=url_name
    )


urlpatterns = [
    path("tables/<int:table_id>/discord/", views.discord_settings, name="discord_settings"),
    step("discord/test/", "discord-test", "discord_test"),
    path("tables/<int:table_id>/dice/", views.dice_statistics, name="dice_statistics"),
    path("tables/<int:table_id>/journal/", views.journal_page, name="journal"),
    path("tables/<int:table_id>/journal.md", views.campaign_export, name="journal_campaign"),
    step("journal/start/", "start", "journal_start"),
    step("journal/<int:session_id>/end/", "end", "journal_end"),
    path(
        "tables/<int:table_id>/journal/<int:session_id>/edit/",
        views.session_edit,
        name="journal_edit",
    ),
    step("journal/<int:session_id>/learned/", "learned", "journal_learned"),
    path(
        "tables/<int:table_id>/journal/<int:session_id>.md",
        views.session_export,
        name="journal_export",
    ),
]
