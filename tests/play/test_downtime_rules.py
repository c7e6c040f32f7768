"""Downtime, heat and the crew as the texts have them: raising an asset past a
critical, Attract Trouble, incarceration and its prison claims, cohorts."""

import pytest
from django.urls import reverse

from characters.models import Character
from crews.models import Crew
from play import downtime
from play.models import Phase
from tests.factories import CharacterFactory, FactionFactory
from tests.play.test_phases import HX, FixedDice, books, fresh, to_step


@pytest.fixture
def pc(table, player):
    return CharacterFactory(table=table, owner=player, name="Cross")


@pytest.fixture
def in_downtime(table, crew, gm):
    to_step(table, crew, FactionFactory(table=table, tier=2), "activities", gm)
    return Phase.objects.get(table=table).score


def test_an_asset_past_a_critical_costs_2_coin_a_quality_level(
    client, in_downtime, table, crew, pc, player
):
    """RULES.md "Acquire asset": "crit → tier + 2 (beyond that 2 coin per extra level)"."""
    Crew.objects.filter(pk=crew.pk).update(tier=2)
    Character.objects.filter(pk=pc.pk).update(coin=4)
    activity = downtime.acquire_asset(
        character=pc, roller=player, description="A fine carriage", rng=FixedDice(6, 6)
    )
    assert activity.amount == 4  # tier 2, critical: tier + 2
    client.force_login(player)
    page = client.get(reverse("phase_detail", args=[table.pk])).content.decode()
    assert "Spend 2 coin for +1 quality" in page
    url = reverse("activity_raise", args=[table.pk, activity.pk])
    assert client.post(url, {"coin": "2"}, headers=HX).status_code == 200
    activity.refresh_from_db()
    assert (activity.amount, activity.result) == (5, "A fine carriage: quality 5")
    assert fresh(pc).coin == 2
    refused = client.post(url, {"coin": "1"}, headers=HX)
    assert refused.status_code == 422 and "costs 2 coin" in refused.content.decode()
    assert client.post(url, {"coin": "2"}, headers=HX).status_code == 200
    activity.refresh_from_db()
    assert activity.amount == 6 and fresh(pc).coin == 0 and books(crew)["heat"] == 2
