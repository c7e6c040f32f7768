from django.urls import path

from sessions.step_view import take_step

from . import screen, views

T = "tables/<int:table_id>/"
ROOM = views.CrewRoom()


def step(route: str, name: str, url_name: str):
    """A URL of one step (crews/steps.py), all served by the one step view."""
    return path(f"{T}{route}", take_step, {"room": ROOM, "step": name}, name=url_name)


urlpatterns = [
    path(f"{T}crew/", views.crew_detail, name="crew_detail"),
    path(f"{T}crew/new/", views.crew_create, name="crew_create"),
    step("crew/sheet/", "sheet", "crew_sheet"),
    step("crew/settings/", "settings", "crew_settings"),
    step("crew/books/", "books", "crew_books"),
    step("crew/rep/", "rep", "crew_rep"),
    step("crew/develop/", "develop", "crew_develop"),
    step("crew/heat/", "heat", "crew_heat"),
    step("crew/coin/", "coin", "crew_coin"),
    step("crew/xp/", "xp", "crew_xp"),
    step("crew/advance/", "advance", "crew_advance"),
    step("crew/abilities/", "ability", "crew_ability"),
    step("crew/abilities/drop/", "drop-ability", "crew_ability_drop"),
    step("crew/upgrades/", "upgrade", "crew_upgrade"),
    step("crew/claims/", "claim-add", "crew_claim_add"),
    step("crew/claims/<int:claim_id>/", "claim", "crew_claim"),
    step("crew/claims/<int:claim_id>/remove/", "claim-remove", "crew_claim_remove"),
    step("crew/cohorts/", "cohort-add", "crew_cohort_add"),
    step("crew/cohorts/<int:cohort_id>/harm/", "cohort-harm", "crew_cohort_harm"),
    step("crew/cohorts/<int:cohort_id>/dismiss/", "cohort-dismiss", "crew_cohort_dismiss"),
    path(
        f"{T}factions/",
        views.faction_list,
        {"room": ROOM, "step": "faction-add"},
        name="faction_list",
    ),
    step("factions/<int:faction_id>/", "faction-edit", "faction_update"),
    step("factions/<int:faction_id>/status/", "faction-status", "faction_status"),
    step("factions/<int:faction_id>/delete/", "faction-delete", "faction_delete"),
    step("factions/<int:faction_id>/clocks/", "faction-clock", "faction_clock"),
]

urlpatterns += [
    path(f"{T}screen/", screen.screen, name="screen"),
    step("screen/link/", "screen-link", "screen_link"),
    path("screen/<str:token>/", screen.screen_shared, name="screen_shared"),
    *(
        path(f"screen/<str:token>/{part}/", screen.overlay, {"part": part}, name=f"overlay_{part}")
        for part in screen.OVERLAYS
    ),
]
