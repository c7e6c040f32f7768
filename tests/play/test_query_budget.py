"""Every open phase page fetches its panel again after each signal (issue 13): in
downtime, what one fetch costs must not grow with the characters and their activities."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from crews import actions as crew_actions
from play import downtime
from sessions.models import Table
from tests.factories import CharacterFactory, FactionFactory, MembershipFactory

from .test_phases import FixedDice, to_step


def _downtime_with(table: Table, gm, n: int):
    crew = crew_actions.create_crew(table=table, crew_type="shadows", name="Crows")
    faction = FactionFactory(table=table, name="Bluecoats", tier=2)
    to_step(table, crew, faction, "activities", gm)
    for i in range(n):
        user = MembershipFactory(table=table).user
        character = CharacterFactory(table=table, owner=user, name=f"Rogue {i}", stress=3)
        downtime.indulge_vice(character=character, roller=user, rng=FixedDice(4, 4, 4, 4))
    return user


@pytest.mark.parametrize("viewer", ["gm", "player"])
def test_the_downtime_panel_costs_the_same_with_one_character_or_ten(
    client, db, viewer, django_assert_num_queries
):
    from tests.factories import TableFactory

    small, big = TableFactory(), TableFactory()
    player_small = _downtime_with(small, small.gm, 1)
    player_big = _downtime_with(big, big.gm, 10)

    client.force_login(small.gm if viewer == "gm" else player_small)
    with CaptureQueriesContext(connection) as one:
        assert client.get(reverse("phase_panel", args=[small.pk])).status_code == 200
    client.force_login(big.gm if viewer == "gm" else player_big)
    with django_assert_num_queries(len(one)):
        assert client.get(reverse("phase_panel", args=[big.pk])).status_code == 200
