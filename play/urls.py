"""The phase machine's addresses."""

from django.urls import path

from . import views as v

T = "tables/<int:table_id>/"
C = "<int:character_id>/"

urlpatterns = [
    path(f"{T}phase/", v.phase_detail, name="phase_detail"),
    path(f"{T}phase/panel/", v.phase_panel, name="phase_panel"),
    path(f"{T}phase/score/", v.score_start, name="score_start"),
    path(f"{T}phase/score/load/{C}", v.score_load, name="score_load"),
    path(f"{T}phase/score/engagement/", v.score_engagement, name="score_engagement"),
    path(f"{T}phase/score/flashback/", v.score_flashback, name="score_flashback"),
    path(f"{T}phase/flashback/<int:flashback_id>/pay/", v.flashback_pay, name="flashback_pay"),
    path(f"{T}phase/score/end/", v.score_end, name="score_end"),
    path(f"{T}phase/payoff/", v.phase_payoff, name="phase_payoff"),
    path(f"{T}phase/share-coin/", v.crew_share_coin, name="crew_share_coin"),
    path(f"{T}phase/heat/", v.phase_heat, name="phase_heat"),
    path(f"{T}phase/entanglement/", v.entanglement_roll, name="entanglement_roll"),
    path(f"{T}phase/entanglement/resolve/", v.entanglement_resolve, name="entanglement_resolve"),
    path(f"{T}crew/incarcerate/", v.crew_incarcerate, name="crew_incarcerate"),
    path(f"{T}phase/downtime/{C}", v.downtime_activity, name="downtime_activity"),
    path(f"{T}phase/activity/<int:activity_id>/raise/", v.activity_raise, name="activity_raise"),
    path(
        f"{T}phase/activity/<int:activity_id>/overindulge/",
        v.activity_overindulge,
        name="activity_overindulge",
    ),
    path(
        f"{T}phase/activity/<int:activity_id>/trouble/",
        v.activity_trouble,
        name="activity_trouble",
    ),
    path(f"{T}phase/faction-roll/", v.downtime_faction_roll, name="downtime_faction_roll"),
    path(f"{T}phase/downtime/end/", v.downtime_end, name="downtime_end"),
    path(f"{T}phase/session/", v.session_end, name="session_end"),
    path(f"{T}phase/xp/{C}", v.xp_character, name="xp_character"),
    path(f"{T}phase/xp/crew/", v.xp_crew, name="xp_crew"),
]
