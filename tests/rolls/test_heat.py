"""A complication that gives the crew heat instead of ticking a clock."""

import pytest
from channels.db import database_sync_to_async
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from blades.rules.errors import RuleError
from crews.models import Crew
from rolls import actions as flow
from rolls import outcome as flow_outcome
from rolls import undo as flow_undo
from rolls.models import Consequence
from tests.factories import CharacterFactory, ClockFactory, CrewFactory, MembershipFactory
from tests.helpers import Dice, connect, drain_greeting, start


def bad_roll(ada_m, ada):
    """Risky, 1-3: a complication is on the menu."""
    return flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(2, 1))


def books(crew) -> tuple[int, int]:
    crew = Crew.objects.get(pk=crew.pk)
    return crew.heat, crew.wanted


@pytest.mark.parametrize("heat", [1, 2])
def test_a_complication_gives_the_crew_exactly_that_heat(table, ada_m, gm_m, ada, heat):
    crew = CrewFactory(table=table, heat=3, wanted=1)
    roll = bad_roll(ada_m, ada)
    con = flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", heat=heat)
    assert books(crew) == (3 + heat, 1)
    assert con.heat == heat and con.clock is None
    event = roll.events.last()
    assert event.changes == [
        {"crew": crew.pk, "who": crew.name, "field": "heat", "before": 3, "after": 3 + heat}
    ]
    assert f"+{heat} heat" in str(event.text)


def test_complication_heat_rolls_over_into_the_wanted_level(table, ada_m, gm_m, ada):
    crew = CrewFactory(table=table, heat=8, wanted=1)
    roll = bad_roll(ada_m, ada)
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", heat=2)
    assert books(crew) == (1, 2)


def test_complication_heat_at_the_top_of_the_track_changes_nothing(table, ada_m, gm_m, ada):
    crew = CrewFactory(table=table, heat=8, wanted=4)
    roll = bad_roll(ada_m, ada)
    con = flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", heat=1)
    assert books(crew) == (8, 4) and con.heat == 0


def test_complication_heat_without_a_crew_is_refused(table, ada_m, gm_m, ada):
    roll = bad_roll(ada_m, ada)
    with pytest.raises(RuleError, match="no crew"):
        flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", heat=1)
    assert not Consequence.objects.exists()


def test_complication_is_a_clock_or_heat_and_heat_is_one_or_two(table, ada_m, gm_m, ada):
    crew = CrewFactory(table=table)
    clock = ClockFactory(table=table, segments=4)
    roll = bad_roll(ada_m, ada)
    for kwargs in ({"clock": clock, "ticks": 1, "heat": 1}, {"heat": 3}):
        with pytest.raises(RuleError, match="1 or 2 heat"):
            flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", **kwargs)
    clock.refresh_from_db()
    assert books(crew) == (0, 0) and clock.filled == 0


def test_a_player_cannot_give_heat(table, ada_m, bo_m, gm_m, ada, bo):
    crew = CrewFactory(table=table, heat=2)
    roll = bad_roll(ada_m, ada)
    for who in (ada_m, bo_m):
        with pytest.raises(PermissionDenied):
            flow_outcome.add_consequence(by=who, roll=roll, kind="complication", heat=2)
    assert books(crew) == (2, 0)


@pytest.mark.parametrize("avoided,left", [(False, (0, 2)), (True, (8, 1))])
def test_resisting_heat_takes_back_one_or_all_of_it(table, ada_m, gm_m, ada, avoided, left):
    crew = CrewFactory(table=table, heat=8, wanted=1)
    roll = bad_roll(ada_m, ada)
    con = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="complication", heat=2, attribute="resolve"
    )
    flow_outcome.resist(by=ada_m, consequence=con, rng=Dice(6, 2))
    flow_outcome.judge_resistance(by=gm_m, consequence=con, avoided=avoided)
    assert books(crew) == left


def test_undo_takes_the_heat_and_the_wanted_level_back(table, ada_m, gm_m, ada):
    crew = CrewFactory(table=table, heat=8, wanted=1)
    roll = bad_roll(ada_m, ada)
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", heat=2)
    flow_outcome.finish(by=gm_m, roll=roll)
    assert books(crew) == (1, 2)
    flow_undo.undo_last(by=gm_m, table=table)
    assert books(crew) == (8, 1)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_crew_books_go_out_live_with_the_new_heat():
    table, crew, gm_m, ada_m, ada, player = await database_sync_to_async(_table_with_crew)()
    socket, _ = await connect(player, table.pk)
    await drain_greeting(socket)
    await database_sync_to_async(_heat_complication)(gm_m, ada_m, ada)
    frames = []
    while not await socket.receive_nothing(timeout=0.3):
        frames.append(await socket.receive_from())
    books_frames = [f for f in frames if f'id="crew-{crew.pk}-books"' in f]
    assert books_frames and 'aria-label="Heat 2 of 9"' in books_frames[-1]
    await socket.disconnect()


def _table_with_crew():
    crew = CrewFactory()
    table = crew.table
    membership = MembershipFactory(table=table)
    ada = CharacterFactory(table=table, owner=membership.user, prowl=1)
    return table, crew, table.memberships.get(user=table.gm), membership, ada, membership.user


def _heat_complication(gm_m, ada_m, ada):
    roll = bad_roll(ada_m, ada)
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", heat=2)


def test_the_gm_gives_heat_from_the_consequence_form(client, table, gm, ada_m, ada):
    crew = CrewFactory(table=table, heat=1)
    roll = bad_roll(ada_m, ada)
    client.force_login(gm)
    panel = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    assert f'<label for="heat-{roll.pk}">Or crew heat</label>' in panel
    response = client.post(
        reverse("flow_step", args=[table.pk, roll.pk, "consequence"]),
        {"kind": "complication", "character": ada.pk, "clock": "", "ticks": "1", "heat": "2"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert books(crew) == (3, 0)
    assert "(+2 heat)" in response.content.decode()


def test_the_heat_choice_is_offered_only_with_a_crew(client, table, gm, ada_m, ada):
    roll = bad_roll(ada_m, ada)
    client.force_login(gm)
    panel = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    assert f'id="heat-{roll.pk}"' not in panel
