from django.urls import path

from blades.server.hashing import hashes_passwords

from . import views

T = "tables/<int:table_id>/"
step = views.take_step

urlpatterns = [
    path("", views.home, name="home"),
    path("tables/", views.table_list, name="table_list"),
    path("tables/<int:table_id>/", views.table_detail, name="table_detail"),
    path("join/<str:token>/", views.join, name="join"),
    path("join/<str:token>/signup/", hashes_passwords(views.join_signup), name="join_signup"),
    # Every step of the table page, served by one view (sessions/table_steps.py).
    path(f"{T}invite/new/", step, {"step_name": "invite-new"}, name="invite_regenerate"),
    path(f"{T}invite/revoke/", step, {"step_name": "invite-revoke"}, name="invite_revoke"),
    path(
        f"{T}members/<int:user_id>/remove/",
        step,
        {"step_name": "member-remove"},
        name="member_remove",
    ),
    path(f"{T}rolls/", step, {"step_name": "roll"}, name="roll_create"),
    path(f"{T}clocks/", step, {"step_name": "clock-new"}, name="clock_create"),
    path(f"{T}clocks/<int:clock_id>/", step, {"step_name": "clock-edit"}, name="clock_update"),
    path(f"{T}clocks/<int:clock_id>/tick/", step, {"step_name": "clock-tick"}, name="clock_tick"),
    path(
        f"{T}clocks/<int:clock_id>/delete/",
        step,
        {"step_name": "clock-delete"},
        name="clock_delete",
    ),
    path(f"{T}language/", step, {"step_name": "table-language"}, name="table_language"),
]
