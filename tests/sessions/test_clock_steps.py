"""The table page and its steps ask the same questions (sessions/access.py): every clock
control the page hides from a member is a step refused (403, or 404 for a clock they
cannot see), and every one it shows is not refused for who they are."""

import pytest
from django.urls import reverse

from sessions.models import Clock
from tests.factories import ClockFactory, MembershipFactory

HX = {"HX-Request": "true"}


def clocks(table, player) -> list[Clock]:
    """A clock of every kind a member may meet."""
    made = [
        {"visibility": "everyone"},
        {"visibility": "everyone", "players_tick": True},
        {"visibility": "everyone", "players_tick": True, "kind": "faction"},
        {"visibility": "known", "players_tick": True},
        {"visibility": "gm"},
        {"visibility": "owner", "owner": player},
        {"visibility": "everyone", "owner": player},
        {"visibility": "everyone", "kind": "project", "players_tick": True, "filled": 1},
    ]
    return [ClockFactory(table=table, name=f"Clock {n}", **fields) for n, fields in enumerate(made)]


@pytest.mark.parametrize("who", ["gm", "owner", "other"])
def test_a_hidden_control_is_a_refused_step_and_a_shown_one_is_not(client, table, player, who):
    other = MembershipFactory(table=table).user
    client.force_login({"gm": table.gm, "owner": player, "other": other}[who])
    for clock in clocks(table, player):
        page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
        seen = f'id="clock-{clock.pk}"' in page
        shown = {
            "clock_tick": f'aria-label="Tick {clock.name}"' in page,
            "clock_update": f'Edit<span class="visually-hidden"> {clock.name}' in page,
            "clock_delete": f'aria-label="Delete {clock.name}"' in page,
        }
        for step, on_page in shown.items():
            url = reverse(step, args=[table.pk, clock.pk])
            # Nothing parses in an edit without its fields: refused for that, if at all.
            status = client.post(url, {"ticks": "1"}, headers=HX).status_code
            refused = 404 if not seen else 403
            assert (status == refused) != on_page, (clock.name, step, status)
            if status != refused:
                assert status in {200, 422}, (clock.name, step, status)
        if not seen:
            assert not any(shown.values())
