from functools import reduce

import pytest
from django.urls import reverse

from blades.rules import crew as rules
from crews import actions
from crews.models import Crew
from tests.concurrency import post_at_once

CLICKS = 50


def click_all(user, path, data, clicks=CLICKS):
    return post_at_once([(user, path, data)] * clicks, headers={"HX-Request": "true"})


@pytest.fixture
def fresh_crew(transactional_db):
    from tests.factories import TableFactory

    table = TableFactory()
    return actions.create_crew(table=table, crew_type="hawkers", name="Racers")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("vault,limit", [(0, 4), (2, 16)])
def test_concurrent_coin_adds_stop_exactly_at_the_vault(fresh_crew, vault, limit):
    Crew.objects.filter(pk=fresh_crew.pk).update(upgrades={"vault": vault}, coin=0)
    gm = fresh_crew.table.gm
    statuses = click_all(gm, reverse("crew_coin", args=[fresh_crew.table_id]), {"amount": "1"})
    assert Crew.objects.get(pk=fresh_crew.pk).coin == limit
    assert sorted(statuses) == [200] * limit + [422] * (CLICKS - limit)


@pytest.mark.django_db(transaction=True)
def test_concurrent_heat_marks_roll_over_exactly(fresh_crew):
    gm = fresh_crew.table.gm
    statuses = click_all(gm, reverse("crew_heat", args=[fresh_crew.table_id]), {"amount": "1"})
    start = rules.HeatChange(heat=0, wanted=0, wanted_gained=0)
    expected = reduce(lambda ch, _: rules.add_heat(ch.heat, ch.wanted, 1), range(CLICKS), start)
    crew = Crew.objects.get(pk=fresh_crew.pk)
    assert statuses == [200] * CLICKS
    assert (crew.heat, crew.wanted) == (expected.heat, expected.wanted) == (8, 4)


@pytest.mark.django_db(transaction=True)
def test_concurrent_heat_from_the_middle_counts_every_mark(fresh_crew):
    Crew.objects.filter(pk=fresh_crew.pk).update(heat=3)
    gm = fresh_crew.table.gm
    click_all(gm, reverse("crew_heat", args=[fresh_crew.table_id]), {"amount": "1"}, clicks=20)
    crew = Crew.objects.get(pk=fresh_crew.pk)
    # 3 + 20 = 23 heat = two wanted levels and 5 heat over.
    assert (crew.heat, crew.wanted) == (5, 2)


@pytest.mark.django_db(transaction=True)
def test_concurrent_upgrade_marks_never_spend_more_boxes_than_free(fresh_crew):
    gm = fresh_crew.table.gm
    Crew.objects.filter(pk=fresh_crew.pk).update(boxes_free=3, upgrades={})
    statuses = click_all(
        gm,
        reverse("crew_upgrade", args=[fresh_crew.table_id]),
        {"key": "mastery", "amount": "1"},
        20,
    )
    crew = Crew.objects.get(pk=fresh_crew.pk)
    assert (crew.upgrades["mastery"], crew.boxes_free) == (3, 0)
    assert statuses.count(200) == 3
