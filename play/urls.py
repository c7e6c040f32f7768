"""The phase machine's addresses: the page, and the one step view for every step
(play/steps.py), each step at its own address and named by it."""

from django.urls import path

from sessions.step_view import take_step

from . import views as v

T = "tables/<int:table_id>/"
C = "<int:character_id>/"


ROOM = v.PhaseRoom()


def step(route: str, name: str):
    return path(f"{T}{route}", take_step, {"room": ROOM, "step": name}, name=name)


urlpatterns = [
    path(f"{T}phase/", v.phase_detail, name="phase_detail"),
    path(f"{T}phase/panel/", v.phase_panel, name="phase_panel"),
    step("phase/score/", "score_start"),
    step(f"phase/score/load/{C}", "score_load"),
    step("phase/score/engagement/", "score_engagement"),
    step("phase/score/flashback/", "score_flashback"),
    step("phase/flashback/<int:flashback_id>/pay/", "flashback_pay"),
    step("phase/score/end/", "score_end"),
    step("phase/payoff/", "phase_payoff"),
    step("phase/share-coin/", "crew_share_coin"),
    step("phase/heat/", "phase_heat"),
    step("phase/entanglement/", "entanglement_roll"),
    step("phase/entanglement/resolve/", "entanglement_resolve"),
    step("crew/incarcerate/", "crew_incarcerate"),
    step(f"phase/downtime/{C}", "downtime_activity"),
    step("phase/activity/<int:activity_id>/raise/", "activity_raise"),
    step("phase/activity/<int:activity_id>/overindulge/", "activity_overindulge"),
    step("phase/activity/<int:activity_id>/trouble/", "activity_trouble"),
    step("phase/activity/<int:activity_id>/vice-shift/", "activity_vice_shift"),
    step("phase/faction-roll/", "downtime_faction_roll"),
    step("phase/downtime/end/", "downtime_end"),
    step("phase/session/", "session_end"),
    step(f"phase/xp/{C}", "xp_character"),
    step("phase/xp/crew/", "xp_crew"),
]
