from django.urls import path

from . import views

urlpatterns = [
    path("tables/restore/", views.table_restore, name="table_restore"),
    path("tables/<int:table_id>/settings/", views.table_settings, name="table_settings"),
    path(
        "tables/<int:table_id>/settings/hand-over/",
        views.take_step,
        {"taken": "hand-over"},
        name="character_hand_over",
    ),
    path(
        "tables/<int:table_id>/settings/hand-seat/",
        views.take_step,
        {"taken": "hand-seat"},
        name="seat_hand_over",
    ),
    path("tables/<int:table_id>/export.json", views.table_export, name="table_export"),
]
