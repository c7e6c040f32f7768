"""Every open phase page fetches its panel again after each signal (issue 13): in
downtime, what one fetch costs must not grow with the characters and their activities."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from crews import actions as crew_actions
from play import downtime, phases
from play.models import Phase
from sessions.models import Table
from tests.factories import CharacterFactory, FactionFactory, MembershipFactory, TableFactory
from tests.helpers import Dice, to_downtime


def _downtime_with(table: Table, gm, n: int):
    crew_actions.create_crew(table=table, crew_type="shadows", name="Crows")
    faction = FactionFactory(table=table, name="Bluecoats", tier=2)
    to_downtime(table, gm, target_faction=faction)
    for i in range(n):
        user = MembershipFactory(table=table).user
        character = CharacterFactory(table=table, owner=user, name=f"Rogue {i}", stress=3)
        downtime.indulge_vice(character=character, roller=user, rng=Dice(4, 4, 4, 4))
    return user


@pytest.mark.parametrize("viewer", ["gm", "player"])
def test_the_downtime_panel_costs_the_same_with_one_character_or_ten(
    client, db, viewer, django_assert_num_queries
):
    small, big = TableFactory(), TableFactory()
    player_small = _downtime_with(small, small.gm, 1)
    player_big = _downtime_with(big, big.gm, 10)

    client.force_login(small.gm if viewer == "gm" else player_small)
    with CaptureQueriesContext(connection) as one:
        assert client.get(reverse("phase_panel", args=[small.pk])).status_code == 200
    client.force_login(big.gm if viewer == "gm" else player_big)
    with django_assert_num_queries(len(one)):
        assert client.get(reverse("phase_panel", args=[big.pk])).status_code == 200


@pytest.mark.parametrize("step", ["entanglement", "xp_review"])
def test_the_entanglement_and_xp_review_panels_cost_the_same_with_one_character_or_ten(
    client, db, step, django_assert_num_queries
):
    """Each PC's xp lines come from their playbook, and the entanglement's ways out from
    the crew's claims and allies: neither may cost a query per character."""
    tables = []
    for n in (1, 10):
        table = TableFactory()
        crew_actions.create_crew(table=table, crew_type="shadows", name="Crows")
        phases.start_score(table=table, plan="stealth", detail="Roof", target_name="A vault")
        phases.roll_engagement(table=table, roller=table.gm, marks={}, rng=Dice(4))
        phases.end_score(table=table, gave_up=True)
        phases.take_heat(table=table, exposure="loud")
        phases.roll_entanglement(table=table, roller=table.gm, rng=Dice(4, 4))
        for i in range(n):
            user = MembershipFactory(table=table).user
            CharacterFactory(table=table, owner=user, name=f"Rogue {i}")
        if step == "xp_review":
            Phase.objects.filter(table=table).update(step=step)
        tables.append(table)
    small, big = tables
    client.force_login(small.gm)
    with CaptureQueriesContext(connection) as one:
        assert client.get(reverse("phase_panel", args=[small.pk])).status_code == 200
    client.force_login(big.gm)
    with django_assert_num_queries(len(one)):
        assert client.get(reverse("phase_panel", args=[big.pk])).status_code == 200
