from django.urls import path

from sessions.step_view import take_step

from . import foundry_views, views

urlpatterns = [
    path("tables/<int:table_id>/characters/new/", views.wizard, name="character_new"),
    path(
        "tables/<int:table_id>/playbooks/new/",
        views.custom_playbook_new,
        name="custom_playbook_new",
    ),
    path(
        "tables/<int:table_id>/characters/<int:character_id>/",
        views.sheet,
        name="character_sheet",
    ),
    path(
        "tables/<int:table_id>/characters/<int:character_id>/edit/",
        views.edit,
        name="character_edit",
    ),
    path(
        "tables/<int:table_id>/characters/import/",
        foundry_views.foundry_import,
        name="foundry_import",
    ),
    path(
        "tables/<int:table_id>/characters/<int:character_id>/foundry.json",
        foundry_views.foundry_export,
        name="foundry_export",
    ),
    path(
        "tables/<int:table_id>/characters/<int:character_id>/do/<slug:step>/",
        take_step,
        {"room": views.SheetRoom()},
        name="character_move",
    ),
]
