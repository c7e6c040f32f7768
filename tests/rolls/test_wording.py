"""The roll panel's words: counts that agree with their number, and each line for the
person it speaks to (issue 15)."""

import pytest
from django.urls import reverse

from blades.rules.rolls import ticks_text
from rolls import actions as flow
from tests.factories import ClockFactory
from tests.helpers import Dice, start


def _panel(client, user, table) -> str:
    client.force_login(user)
    return client.get(reverse("flow_panel", args=[table.pk])).content.decode()


WAITING = "Waiting for the GM to set position and effect and the flashback's cost."


def test_only_the_player_waits_for_the_flashbacks_cost(client, table, gm, player, ada_m, ada):
    start(ada_m, ada, flashback=True)
    gm_panel = _panel(client, gm, table)
    assert WAITING not in gm_panel
    assert "Flashback stress</label>" in gm_panel  # the GM gets the control instead
    player_panel = _panel(client, player, table)
    assert WAITING in player_panel
    assert "Flashback stress</label>" not in player_panel


@pytest.mark.parametrize(("effect", "button"), [(1, "Mark 1 tick"), (2, "Mark 2 ticks")])
def test_the_target_clock_button_counts_its_ticks(
    client, table, gm, ada_m, gm_m, ada, effect, button
):
    ClockFactory(table=table, segments=8)
    roll = start(ada_m, ada)
    flow.set_terms(by=gm_m, roll=roll, position="risky", effect=effect)
    flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 1))
    assert f">{button}</button>" in _panel(client, gm, table)


@pytest.mark.parametrize(("ticks", "text"), [(1, "1 tick"), (2, "2 ticks")])
def test_ticks_are_counted_in_words(ticks, text):
    assert str(ticks_text(ticks)) == text
