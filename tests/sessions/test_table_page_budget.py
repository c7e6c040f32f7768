"""The table page is what every person at a table loads first and again on each return:
its queries must not grow with the evening played at it (issue 36: 19-20 queries for the
GM of the demo table)."""

import pytest
from django.db import connection
from django.urls import reverse

from rolls import actions as flow
from rolls import outcome as flow_outcome
from sessions.models import Membership
from tests.backup.full_table import full_table
from tests.factories import RollFactory
from tests.helpers import Dice

# As measured when the budget was set (issue 36), and once the group action's and armor's
# steps of issue 39 joined the player's flow panel (26 and 30); then the finished rolls'
# stories left the page for their folds and the party card its second look at the
# reader's character: a page that needs more has grown.
GM_BUDGET = 22
PLAYER_BUDGET = 27
# PostgreSQL's page takes one query more than SQLite's, on both pages (measured, its
# source not yet found: issue 36 keeps the budget work open).
ON_POSTGRESQL = 1


def an_evening(table) -> None:
    """Ten finished action rolls and twenty quick rolls on top of one of everything."""
    gm = Membership.objects.get(table=table, role="gm")
    player = Membership.objects.filter(table=table, role="player").first()
    character = table.characters.filter(owner=player.user, state="active").first()
    for n in range(10):
        roll = flow.start_roll(by=player, character=character, goal=f"goal {n}", action="prowl")
        flow.set_terms(by=gm, roll=roll, position="risky", effect=2)
        roll = flow.roll_dice(by=player, roll=roll, rng=Dice(4, 2))
        flow_outcome.finish(by=gm, roll=roll)
    RollFactory.create_batch(20, table=table, roller=player.user)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["gm", "player"])
def test_the_table_page_keeps_its_query_budget_after_an_evening(
    client, role, django_assert_max_num_queries
):
    table = full_table()
    an_evening(table)
    member = Membership.objects.filter(table=table, role=role).first()
    client.force_login(member.user)
    budget = GM_BUDGET if role == "gm" else PLAYER_BUDGET
    budget += ON_POSTGRESQL if connection.vendor == "postgresql" else 0
    with django_assert_max_num_queries(budget):
        response = client.get(reverse("table_detail", args=[table.pk]))
    assert response.status_code == 200
