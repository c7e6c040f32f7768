from django.urls import path

from sessions.step_view import take_step

from . import feed, views

FLOW = "tables/<int:table_id>/flow/"
ROOM = {"room": views.RollRoom()}


def table_step(route: str, step: str):
    return path(f"{FLOW}{route}/", take_step, {**ROOM, "step": step}, name=f"flow_{step}")


urlpatterns = [
    path("screen/<str:token>/feed.json", feed.feed, name="screen_feed"),
    path(FLOW, views.flow_panel, name="flow_panel"),
    table_step("start", "start"),
    table_step("fortune", "fortune"),
    table_step("undo", "undo"),
    path(f"{FLOW}<int:roll_id>/", views.finished_roll, name="flow_finished_roll"),
    path(f"{FLOW}<int:roll_id>/<slug:step>/", take_step, ROOM, name="flow_step"),
    path(
        f"{FLOW}<int:roll_id>/consequences/<int:consequence_id>/<slug:step>/",
        take_step,
        ROOM,
        name="flow_consequence_step",
    ),
]
