"""Undo takes back the roll's own changes, and leaves what the table did since."""

from functools import partial

import pytest

from blades.rules.errors import RuleError
from characters import actions as sheet
from characters.models import Character
from rolls import actions as flow
from rolls import outcome as flow_outcome
from rolls import undo as flow_undo
from rolls.models import ActionRoll
from sessions import actions
from sessions.models import Membership
from tests.concurrency import at_once
from tests.factories import CharacterFactory, ClockFactory, MembershipFactory
from tests.helpers import Dice, fresh, start


def pushed_roll(ada_m, gm_m, ada) -> ActionRoll:
    """Ada pushes for a die (2 stress) and rolls a 4-5; the GM has not closed it yet."""
    roll = start(ada_m, ada)
    flow.set_push(by=ada_m, roll=roll, dice_=True, effect=False)
    return flow.roll_dice(by=ada_m, roll=roll, rng=Dice(4, 2, 1))


def test_a_stress_mark_after_the_roll_survives_undo(table, ada_m, gm_m, ada):
    Character.objects.filter(pk=ada.pk).update(stress=2)
    roll = pushed_roll(ada_m, gm_m, ada)
    flow_outcome.finish(by=gm_m, roll=roll)
    assert fresh(ada).stress == 4
    sheet.mark_stress(character=fresh(ada), amount=1)
    undone = flow_undo.undo_last(by=gm_m, table=table)
    assert fresh(ada).stress == 3
    assert str(undone.events.last().text) == "GM undoes the roll: its changes are taken back"


def test_a_clock_tick_after_the_roll_survives_undo(table, ada_m, gm_m, ada):
    clock = ClockFactory(table=table, segments=8, filled=1)
    roll = pushed_roll(ada_m, gm_m, ada)
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", clock=clock, ticks=2)
    flow_outcome.finish(by=gm_m, roll=roll)
    actions.tick_clock(clock=clock, by=1)
    flow_undo.undo_last(by=gm_m, table=table)
    clock.refresh_from_db()
    assert clock.filled == 2


def test_harm_written_after_the_roll_survives_undo(table, ada_m, gm_m, ada):
    roll = pushed_roll(ada_m, gm_m, ada)
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="harm", level=2, description="Cut")
    flow_outcome.finish(by=gm_m, roll=roll)
    sheet.add_harm(character=fresh(ada), level=2, description="Shot")
    assert fresh(ada).harm["2"] == ["Cut", "Shot"]
    flow_undo.undo_last(by=gm_m, table=table)
    assert fresh(ada).harm["2"] == ["Shot"]


def test_undo_clamps_at_the_track_and_names_what_it_left(table, ada_m, gm_m, ada):
    # Stress 8 + 2 for the push: trauma, stress resets to 0. Since then the player chose
    # the trauma and cleared the armor box the roll did not touch.
    Character.objects.filter(pk=ada.pk).update(stress=8)
    roll = pushed_roll(ada_m, gm_m, ada)
    flow_outcome.finish(by=gm_m, roll=roll)
    assert (fresh(ada).stress, fresh(ada).trauma_pending) == (0, 1)
    sheet.choose_trauma(character=fresh(ada), condition="cold")
    sheet.mark_stress(character=fresh(ada), amount=3)
    undone = flow_undo.undo_last(by=gm_m, table=table)
    ada = fresh(ada)
    assert (ada.stress, ada.trauma_pending, ada.traumas) == (9, 0, ["cold"])
    text = str(undone.events.last().text)
    assert "Ada's stress stops at 9" in text
    assert "Ada: Trauma pending changed since, left as it is" in text


def test_undo_after_the_harm_was_cleared_says_so(table, ada_m, gm_m, ada):
    roll = pushed_roll(ada_m, gm_m, ada)
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="harm", level=1, description="Bruised")
    flow_outcome.finish(by=gm_m, roll=roll)
    sheet.clear_harm(character=fresh(ada), level=1, index=0)
    undone = flow_undo.undo_last(by=gm_m, table=table)
    assert fresh(ada).harm.get("1", []) == []
    assert "Ada no longer had Bruised" in str(undone.events.last().text)


def test_undo_refuses_a_roll_that_is_no_longer_the_last(table, ada_m, gm_m, ada):
    first = pushed_roll(ada_m, gm_m, ada)
    flow_outcome.finish(by=gm_m, roll=first)
    second = pushed_roll(ada_m, gm_m, ada)
    flow_outcome.finish(by=gm_m, roll=second)
    with pytest.raises(RuleError, match="another roll finished"):
        flow_undo.undo_last(by=gm_m, table=table, roll_id=first.pk)
    flow_undo.undo_last(by=gm_m, table=table, roll_id=second.pk)
    with pytest.raises(RuleError, match="already undone"):
        flow_undo.undo_last(by=gm_m, table=table, roll_id=second.pk)


@pytest.mark.django_db(transaction=True)
def test_concurrent_undo_clicks_undo_once():
    from tests.factories import TableFactory

    table = TableFactory()
    player = MembershipFactory(table=table)
    ada = CharacterFactory(table=table, owner=player.user, prowl=2)
    gm_m = Membership.objects.get(table=table, user=table.gm)
    rolls = []
    for _ in range(2):
        roll = pushed_roll(player, gm_m, ada)
        flow_outcome.finish(by=gm_m, roll=roll)
        rolls.append(roll)
    assert fresh(ada).stress == 4
    clicks = 6
    undo = partial(flow_undo.undo_last, by=gm_m, table=table, roll_id=rolls[-1].pk)
    outcomes = at_once([undo] * clicks, refused=(RuleError,))
    results = ["refused" if isinstance(o, RuleError) else "undone" for o in outcomes]
    assert sorted(results) == ["refused"] * (clicks - 1) + ["undone"]
    assert fresh(ada).stress == 2
    steps = [ActionRoll.objects.get(pk=r.pk).step for r in rolls]
    assert steps == ["done", "undone"]
