"""Double clicks on a phase step apply it once; concurrent downtime purchases spend the
crew's rep exactly."""

import pytest
from django.apps import apps
from django.urls import reverse

from characters.content import load_standard_content
from crews import actions
from crews.models import Crew
from play import phases
from play.models import DowntimeActivity, Phase
from tests.concurrency import post_at_once
from tests.factories import CharacterFactory, FactionFactory, MembershipFactory, TableFactory

CLICKS = 12


class FixedDice:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, low, high):
        return self.faces.pop(0)


def click_all(posts):
    return post_at_once(posts, headers={"HX-Request": "true"})


@pytest.fixture
def at_payoff():
    # Transactional tests flush what the data migration loaded: load the playbooks again.
    load_standard_content(apps)
    table = TableFactory()
    crew = actions.create_crew(table=table, crew_type="hawkers", name="Racers")
    faction = FactionFactory(table=table, tier=2)
    phases.start_score(table=table, plan="stealth", detail="Roof", target_faction=faction)
    phases.roll_engagement(table=table, roller=table.gm, marks={}, rng=FixedDice(4))
    phases.end_score(table=table)
    return table, crew


@pytest.mark.django_db(transaction=True)
def test_concurrent_payoff_and_heat_clicks_apply_once(at_payoff):
    table, crew = at_payoff
    url = reverse("phase_payoff", args=[table.pk])
    statuses = click_all([(table.gm, url, {"size": "small"})] * CLICKS)
    assert sorted(statuses) == [200] + [422] * (CLICKS - 1)
    assert (Crew.objects.get(pk=crew.pk).rep, Crew.objects.get(pk=crew.pk).coin) == (4, 2 + 4)
    url = reverse("phase_heat", args=[table.pk])
    statuses = click_all([(table.gm, url, {"exposure": "loud"})] * CLICKS)
    assert sorted(statuses) == [200] + [422] * (CLICKS - 1)
    assert Crew.objects.get(pk=crew.pk).heat == 4


@pytest.mark.django_db(transaction=True)
def test_concurrent_extra_activities_spend_crew_rep_exactly(at_payoff):
    table, crew = at_payoff
    phases.payoff(table=table, size="small")  # 4 rep
    phases.take_heat(table=table, exposure="quiet")
    phases.roll_entanglement(table=table, roller=table.gm, rng=FixedDice(2, 5))
    phases.resolve_entanglement(table=table, roller=table.gm, name="Gang Trouble", choice="example")
    players = [MembershipFactory(table=table).user for _ in range(3)]
    pcs = [CharacterFactory(table=table, owner=user) for user in players]
    posts = []
    for user, pc in zip(players, pcs, strict=True):
        url = reverse("downtime_activity", args=[table.pk, pc.pk])
        for track in ("insight", "prowess", "resolve", "playbook"):
            posts.append((user, url, {"kind": "train", "track": track, "pay_with": "rep"}))
    statuses = click_all(posts)
    # 3 PCs × 2 free = 6, then the crew's 4 rep buy 4 more; the other 2 are refused.
    assert statuses.count(200) == 10
    assert DowntimeActivity.objects.count() == 10
    assert Crew.objects.get(pk=crew.pk).rep == 0
    assert Phase.objects.get(table=table).step == "activities"
