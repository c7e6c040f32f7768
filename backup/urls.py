from django.urls import path

from sessions.step_view import take_step

from . import views

ROOM = views.SettingsRoom()

urlpatterns = [
    path("tables/restore/", views.table_restore, name="table_restore"),
    path("tables/<int:table_id>/settings/", views.table_settings, name="table_settings"),
    path(
        "tables/<int:table_id>/settings/hand-over/",
        take_step,
        {"room": ROOM, "step": "hand-over"},
        name="character_hand_over",
    ),
    path(
        "tables/<int:table_id>/settings/hand-seat/",
        take_step,
        {"room": ROOM, "step": "hand-seat"},
        name="seat_hand_over",
    ),
    path("tables/<int:table_id>/export.json", views.table_export, name="table_export"),
]
