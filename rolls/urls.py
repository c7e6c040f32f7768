from django.urls import path

from . import feed, views

urlpatterns = [
    path("screen/<str:token>/feed.json", feed.feed, name="screen_feed"),
    path("tables/<int:table_id>/flow/", views.flow_panel, name="flow_panel"),
    path("tables/<int:table_id>/flow/start/", views.flow_start, name="flow_start"),
    path("tables/<int:table_id>/flow/fortune/", views.flow_fortune, name="flow_fortune"),
    path("tables/<int:table_id>/flow/undo/", views.flow_undo, name="flow_undo"),
    path(
        "tables/<int:table_id>/flow/<int:roll_id>/<slug:step>/",
        views.flow_step,
        name="flow_step",
    ),
    path(
        "tables/<int:table_id>/flow/<int:roll_id>/consequences/<int:consequence_id>/<slug:step>/",
        views.flow_consequence_step,
        name="flow_consequence_step",
    ),
]
