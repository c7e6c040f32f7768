"""The page and the guard ask the same question (crews/access.py): every step of the
crew sheet, the faction ladder and the screen link whose control a page does not draw
for a member is refused, and nothing changes; every one it draws is not refused for
permission."""

import pytest
from django.forms.models import model_to_dict
from django.urls import reverse

from crews import urls
from crews.models import Claim, Cohort, Crew, Faction, Screen
from sessions.models import Clock
from tests.factories import CohortFactory, FactionFactory

HX = {"HX-Request": "true"}

# What each step posts: enough to pass its form, so a refusal is the guard's.
POSTED = {
    "rep": {"amount": "1"},
    "heat": {"amount": "1"},
    "coin": {"amount": "1"},
    "xp": {"amount": "1"},
    "develop": {},
    "advance": {},
    "books": {"tier": "1", "hold": "strong", "wanted": "1"},
    "ability": {"key": "ghost_echoes"},
    "drop-ability": {"key": "everyone_steals"},
    "upgrade": {"key": "vault", "amount": "1"},
    "sheet": {"name": "Renamed", "reputation": "", "lair": "", "hunting_grounds": ""},
    "settings": {"players_edit_sheet": "on", "players_keep_books": "on", "xp_track": "10"},
    "claim": {"held": "1"},
    "claim-remove": {},
    "claim-add": {"name": "A warehouse", "effect": ""},
    "cohort-add": {"kind": "gang", "types": ["thugs"], "edges": ["loyal"], "flaws": ["wild"]},
    "cohort-harm": {"harm": "1"},
    "cohort-dismiss": {},
    "faction-add": {"name": "Bluecoats", "tier": "2", "hold": "strong", "status": "0"},
    "faction-edit": {"faction-{faction_id}-name": "Renamed", "faction-{faction_id}-tier": "1",
                     "faction-{faction_id}-hold": "weak", "faction-{faction_id}-status": "0"},
    "faction-status": {"status": "1"},
    "faction-delete": {},
    "faction-clock": {"goal-{faction_id}-name": "Take the docks",
                      "goal-{faction_id}-segments": "4"},
    "screen-link": {},
}  # fmt: skip
AUDIENCES = {
    "gm": {},
    "player": {},
    "player keeping the books": {"players_edit_sheet": False, "players_keep_books": True},
}


def step_urls():
    """Every URL the one step view serves, from the URLconf (a new step is tested here):
    its step, its name and the ids it takes."""
    return [
        (p.default_args["step"], p.name, list(p.pattern.converters))
        for p in urls.urlpatterns
        if "step" in p.default_args
    ]


def state() -> list:
    """Everything a crew step could change."""
    return [
        [model_to_dict(row) for row in model.objects.order_by("pk")]
        for model in (Crew, Claim, Cohort, Faction, Screen, Clock)
    ]


@pytest.fixture
def sheet(crew):
    """A crew whose sheet draws every control: an advance to spend, rep to develop a weak hold,
    an upgrade box marked and free ones, a claim off the map, a cohort, a faction."""
    Crew.objects.filter(pk=crew.pk).update(
        advances=1, rep=crew.rep_track, hold="weak", boxes_free=2
    )
    claim = Claim.objects.create(crew=crew, name="Off the map", effect="")
    faction = FactionFactory(table=crew.table)
    return {
        "claim_id": claim.pk,
        "cohort_id": CohortFactory(crew=crew).pk,
        "faction_id": faction.pk,
    }


def test_every_step_has_a_post():
    assert {taken for taken, _, _ in step_urls()} == set(POSTED)


@pytest.mark.parametrize("audience", AUDIENCES)
@pytest.mark.parametrize(("taken", "name", "ids"), step_urls())
def test_a_step_is_refused_exactly_when_its_control_is_not_drawn(
    client, crew, sheet, gm, player, audience, taken, name, ids
):
    Crew.objects.filter(pk=crew.pk).update(**AUDIENCES[audience])
    client.force_login(gm if audience == "gm" else player)
    page = {"faction": "faction_list", "screen": "screen"}.get(name.split("_")[0], "crew_detail")
    shown = client.get(reverse(page, args=[crew.table_id])).content.decode()
    url = reverse(name, kwargs={"table_id": crew.table_id} | {i: sheet[i] for i in ids[1:]})
    before = state()
    posted = {key.format(**sheet): value for key, value in POSTED[taken].items()}
    response = client.post(url, posted, headers=HX)
    if f'action="{url}"' in shown or f'hx-post="{url}"' in shown:
        assert response.status_code in (200, 302)
    else:
        assert response.status_code in (403, 422)
        assert state() == before
