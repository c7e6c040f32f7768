"""Every open page fetches its flow panel again after each signal: what one fetch costs
must not grow with the rolls on it (issue 13: 13 queries with one finished roll, 22 with
ten)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rolls import actions as flow
from rolls import group as flow_group
from rolls import outcome as flow_outcome
from tests.factories import CharacterFactory, CohortFactory, CrewFactory, MembershipFactory
from tests.helpers import Dice, member


def _cast(table, n):
    """n players with a character each: the rolls on a panel involve different people."""
    cast = []
    for i in range(n):
        user = MembershipFactory(table=table).user
        character = CharacterFactory(table=table, owner=user, name=f"Rogue {i}", prowl=2)
        cast.append((member(table, user), character))
    return cast


def _finished(table, gm_m, cast):
    for by, character in cast:
        roll = flow.start_roll(by=by, character=character, goal="a goal", action="prowl")
        flow.set_terms(by=gm_m, roll=roll, position="risky", effect=2)
        roll = flow.roll_dice(by=by, roll=roll, rng=Dice(4, 2))
        flow_outcome.add_consequence(
            by=gm_m, roll=roll, kind="harm", level=1, description="Bruised", character=character
        )
        flow_outcome.finish(by=gm_m, roll=roll)


def _led(table, gm_m, cast):
    """Group actions, each leading a cohort of its own: their names are read for the log."""
    crew = CrewFactory(table=table)
    for n, (by, character) in enumerate(cast):
        cohort = CohortFactory(crew=crew, name=f"Gang {n}")
        roll = flow.start_roll(
            by=by, character=character, goal="a goal", action="prowl", group=True
        )
        flow.set_terms(by=gm_m, roll=roll, position="risky", effect=2)
        roll = flow_group.roll_cohort(by=by, roll=roll, cohort=cohort, rng=Dice(5, 5))
        roll = flow_group.roll_dice(by=by, roll=roll, rng=Dice(4, 2))
        flow_outcome.finish(by=gm_m, roll=roll)


def _open(table, gm_m, cast):
    for by, character in cast:
        roll = flow.start_roll(by=by, character=character, goal="a goal", action="prowl")
        flow.set_terms(by=gm_m, roll=roll, position="risky", effect=2)


def _queries(client, table) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("flow_panel", args=[table.pk])).status_code == 200
    return len(queries)


@pytest.mark.parametrize("fill", [_finished, _led, _open], ids=["finished", "cohorts", "open"])
@pytest.mark.parametrize("viewer", ["gm", "player"])
def test_the_flow_panel_costs_the_same_with_one_roll_or_ten(
    client, table, gm, gm_m, fill, viewer, django_assert_num_queries
):
    from sessions.models import Table

    other = Table.objects.create(name="Other", gm=gm)
    MembershipFactory(table=other, user=gm, role="gm")
    gm_other = member(other, gm)
    small, big = _cast(table, 1), _cast(other, 10)
    fill(table, gm_m, small)
    fill(other, gm_other, big)

    client.force_login(gm if viewer == "gm" else small[0][0].user)
    one = _queries(client, table)
    client.force_login(gm if viewer == "gm" else big[0][0].user)
    with django_assert_num_queries(one):
        client.get(reverse("flow_panel", args=[other.pk]))
