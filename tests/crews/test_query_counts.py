import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from crews import actions
from tests.factories import ClaimFactory, CohortFactory, FactionFactory, TableFactory


def build_table(n: int):
    table = TableFactory()
    crew = actions.create_crew(table=table, crew_type="bravos", name="Crew")
    for index in range(n):
        CohortFactory(crew=crew)
        ClaimFactory(crew=crew, turf=index % 2 == 0, held=True)
        faction = FactionFactory(table=table, tier=index % 5, notes="notes")
        actions.add_goal_clock(faction=faction, name=f"Goal {index}", segments=4)
    return table


def count_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("name", ["crew_detail", "faction_list", "table_detail"])
@pytest.mark.parametrize("as_gm", [True, False])
def test_pages_ask_the_same_queries_for_1_and_10(client, db, name, as_gm):
    from tests.factories import MembershipFactory

    counts = []
    for n in (1, 10):
        table = build_table(n)
        user = table.gm if as_gm else MembershipFactory(table=table).user
        client.force_login(user)
        counts.append(count_queries(client, reverse(name, args=[table.pk])))
    assert counts[0] == counts[1]


def test_crew_sheet_query_budget(client, db, django_assert_max_num_queries):
    table = build_table(10)
    client.force_login(table.gm)
    with django_assert_max_num_queries(12):
        client.get(reverse("crew_detail", args=[table.pk]))
