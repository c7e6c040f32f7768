from django.urls import path

from blades.server.hashing import hashes_passwords

from . import views
from .step_view import take_step

T = "tables/<int:table_id>/"
ROOM = views.TablePageRoom()


def step(route: str, name: str, url_name: str):
    """A URL of one step of the table page, served by the one step view."""
    return path(f"{T}{route}", take_step, {"room": ROOM, "step": name}, name=url_name)


urlpatterns = [
    path("", views.home, name="home"),
    path("tables/", views.table_list, name="table_list"),
    path("tables/<int:table_id>/", views.table_detail, name="table_detail"),
    path("join/<str:token>/", views.join, name="join"),
    path("join/<str:token>/signup/", hashes_passwords(views.join_signup), name="join_signup"),
    # Every step of the table page, served by one view (sessions/table_steps.py).
    step("invite/new/", "invite-new", "invite_regenerate"),
    step("invite/revoke/", "invite-revoke", "invite_revoke"),
    step("members/<int:user_id>/remove/", "member-remove", "member_remove"),
    step("rolls/", "roll", "roll_create"),
    step("clocks/", "clock-new", "clock_create"),
    step("clocks/<int:clock_id>/", "clock-edit", "clock_update"),
    step("clocks/<int:clock_id>/tick/", "clock-tick", "clock_tick"),
    step("clocks/<int:clock_id>/delete/", "clock-delete", "clock_delete"),
    step("language/", "table-language", "table_language"),
]
