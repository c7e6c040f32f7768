from django.urls import path

from . import screen, views

T = "tables/<int:table_id>/"

urlpatterns = [
    path(f"{T}crew/", views.crew_detail, name="crew_detail"),
    path(f"{T}crew/new/", views.crew_create, name="crew_create"),
    path(f"{T}crew/sheet/", views.crew_sheet, name="crew_sheet"),
    path(f"{T}crew/settings/", views.crew_settings, name="crew_settings"),
    path(f"{T}crew/books/", views.crew_books, name="crew_books"),
    path(f"{T}crew/rep/", views.crew_rep, name="crew_rep"),
    path(f"{T}crew/develop/", views.crew_develop, name="crew_develop"),
    path(f"{T}crew/heat/", views.crew_heat, name="crew_heat"),
    path(f"{T}crew/coin/", views.crew_coin, name="crew_coin"),
    path(f"{T}crew/xp/", views.crew_xp, name="crew_xp"),
    path(f"{T}crew/advance/", views.crew_advance, name="crew_advance"),
    path(f"{T}crew/abilities/", views.crew_ability, name="crew_ability"),
    path(f"{T}crew/upgrades/", views.crew_upgrade, name="crew_upgrade"),
    path(f"{T}crew/claims/", views.crew_claim_add, name="crew_claim_add"),
    path(f"{T}crew/claims/<int:claim_id>/", views.crew_claim, name="crew_claim"),
    path(
        f"{T}crew/claims/<int:claim_id>/remove/",
        views.crew_claim_remove,
        name="crew_claim_remove",
    ),
    path(f"{T}crew/cohorts/", views.crew_cohort_add, name="crew_cohort_add"),
    path(f"{T}crew/cohorts/<int:cohort_id>/harm/", views.crew_cohort_harm, name="crew_cohort_harm"),
    path(
        f"{T}crew/cohorts/<int:cohort_id>/dismiss/",
        views.crew_cohort_dismiss,
        name="crew_cohort_dismiss",
    ),
    path(f"{T}factions/", views.faction_list, name="faction_list"),
    path(f"{T}factions/<int:faction_id>/", views.faction_update, name="faction_update"),
    path(f"{T}factions/<int:faction_id>/status/", views.faction_status, name="faction_status"),
    path(f"{T}factions/<int:faction_id>/delete/", views.faction_delete, name="faction_delete"),
    path(f"{T}factions/<int:faction_id>/clocks/", views.faction_clock, name="faction_clock"),
]

urlpatterns += [
    path(f"{T}screen/", screen.screen, name="screen"),
    path(f"{T}screen/link/", screen.screen_link, name="screen_link"),
    path("screen/<str:token>/", screen.screen_shared, name="screen_shared"),
    *(
        path(f"screen/<str:token>/{part}/", screen.overlay, {"part": part}, name=f"overlay_{part}")
        for part in screen.OVERLAYS
    ),
]
