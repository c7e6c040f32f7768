"""The group action's edges: its terms once the first die falls, a cancel halfway, a
participant who cannot act, and the ability dice each roller adds to their own roll."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from blades.rules.errors import RuleError
from rolls import actions as flow
from rolls import group as flow_group
from rolls.models import ActionRoll
from tests.helpers import Dice, call, fresh, give_ability

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_group_actions_terms_are_fixed_once_the_first_die_is_rolled(
    client, table, gm, group, gm_m, bo_m
):
    """ "Once the goal, action rating, position, and effect have been established, add any
    bonus dice and roll the dice pool" (004 §6. Roll the Dice): every participant rolls at
    the terms the first one rolled at."""
    flow_group.roll_dice(by=bo_m, roll=group, rng=Dice(4, 4, 4))
    with pytest.raises(RuleError, match="not open"):
        flow.set_terms(by=gm_m, roll=group, position="desperate", effect=3)
    client.force_login(gm)
    url = reverse("flow_step", args=[table.pk, group.pk, "terms"])
    response = client.post(url, {"position": "controlled", "effect": "1"}, **HTMX)
    assert response.status_code == 422
    roll = ActionRoll.objects.get(pk=group.pk)
    assert (roll.position, roll.effect) == ("risky", 2)
    panel = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    assert "Set position and effect" not in panel


def test_cancelling_a_half_rolled_group_action_takes_back_what_its_rolls_cost(
    group, gm_m, ada_m, bo_m, cy_m, bo, cy
):
    """A roll cancelled before its result leaves no cost: the stress of a push is paid
    "for greater performance" (004 §Push yourself) and a desperate roll's xp comes with
    its result; a cancelled group action has no result, so Bo's push, Cy's assist and
    Bo's desperate xp are taken back."""
    flow.set_terms(by=gm_m, roll=group, position="desperate", effect=2)
    flow_group.set_group_bonus(by=bo_m, roll=group, push=True, bargain="")
    flow_group.assist_group(by=cy_m, roll=group, participant=bo)
    flow_group.roll_dice(by=bo_m, roll=group, rng=Dice(1, 3, 2))
    assert (fresh(bo).stress, fresh(cy).stress, fresh(bo).prowess_xp) == (2, 1, 1)
    roll = flow.cancel(by=gm_m, roll=group)
    assert roll.step == "cancelled"
    assert (fresh(bo).stress, fresh(cy).stress, fresh(bo).prowess_xp) == (0, 0, 0)
    assert "taken back" in str(roll.events.last().text)


def test_cancelling_after_rooks_gambit_takes_its_stress_back(ada_m, ada):
    """A cancelled roll leaves no cost: Rook's Gambit's 2 stress buys this roll's action
    ("Take 2 stress to roll your best action in place of the one called for", the app's
    own ability text)."""
    give_ability(ada, "rooks_gambit")
    roll = call(flow.start_roll(by=ada_m, character=ada, goal="talk", action="sway"))
    flow.rooks_gambit(by=ada_m, roll=roll)
    assert fresh(ada).stress == 2
    flow.cancel(by=ada_m, roll=roll)
    assert fresh(ada).stress == 0


def test_a_participant_who_cannot_act_leaves_and_the_roll_goes_on(
    client, table, group, ada_m, bo_m, gm_m, ada, bo, other_player
):
    """ "The group action result covers everyone who rolled. If you don't roll, your
    character doesn't get the effects of the action." (004 §Lead a group action): Bo,
    at level 3 harm with no help and no push, leaves; Ada's roll settles the group."""
    bo.harm = {"3": ["Broken leg"]}
    bo.save()
    with pytest.raises(RuleError):
        flow_group.roll_dice(by=bo_m, roll=group, rng=Dice(6, 6))
    client.force_login(other_player)
    panel = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    assert "Leave the group action" in panel
    url = reverse("flow_step", args=[table.pk, group.pk, "leave"])
    assert client.post(url, {"participant": bo.pk}, **HTMX).status_code == 200
    roll = ActionRoll.objects.get(pk=group.pk)
    assert list(roll.group) == [str(ada.pk)]
    roll = flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 2))
    assert roll.step == "consequences" and roll.outcome == "success"


def test_the_gm_drops_a_participant_and_the_last_roll_settles_the_group(
    group, ada_m, bo_m, gm_m, cy_m, ada, bo, cy
):
    """ "If you don't roll, your character doesn't get the effects of the action" (004
    §Lead a group action): the GM drops Bo, who has not rolled, after Ada has; the group's
    result is Ada's. The leader is not dropped (the GM cancels instead)."""
    flow_group.assist_group(by=cy_m, roll=group, participant=bo)
    flow_group.roll_dice(by=ada_m, roll=group, rng=Dice(1, 5))
    with pytest.raises(PermissionDenied):
        flow_group.leave_group(by=cy_m, roll=group, participant=bo)
    with pytest.raises(RuleError, match="leader"):
        flow_group.leave_group(by=gm_m, roll=group, participant=ada)
    roll = flow_group.leave_group(by=gm_m, roll=group, participant=bo)
    assert roll.step == "consequences" and roll.outcome == "partial"
    assert str(bo.pk) not in roll.group and str(bo.pk) not in roll.group_bonuses
    # Cy's assist went with Bo's roll: no stress for help never given.
    assert fresh(cy).stress == 0 and fresh(ada).stress == 0


def test_the_leader_does_not_leave_their_own_group_action(group, ada_m, gm_m, ada):
    """The leader's roll is the group action (004 §Lead a group action): cancel it."""
    with pytest.raises(RuleError, match="leader"):
        flow_group.leave_group(by=ada_m, roll=group, participant=ada)
    with pytest.raises(RuleError, match="leader"):
        flow_group.leave_group(by=gm_m, roll=group, participant=ada)


def test_a_participant_adds_an_ability_die_to_their_own_roll(
    client, table, group, ada_m, bo_m, other_player, ada, bo
):
    """Ambush, Savage, Trust in Me and Daredevil's "+1d" (the app's ability texts) are
    the roller's: in a group action "Each PC who's involved makes an action roll" (004
    §Lead a group action), so each adds their own ability's die to their own roll."""
    client.force_login(other_player)
    panel = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    assert "Add ability bonus" in panel
    url = reverse("flow_step", args=[table.pk, group.pk, "ability"])
    response = client.post(url, {"bonus": "dice", "reason": "Ambush"}, **HTMX)
    assert response.status_code == 200 and "Ambush: +1d" in response.content.decode()
    roll = ActionRoll.objects.get(pk=group.pk)
    # Bo: prowl 1 + Ambush = 2 dice; Ada's own roll is untouched (prowl 2).
    roll = flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(3, 4))
    assert roll.group[str(bo.pk)] == [2, 3, 4]
    roll = flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(2, 1))
    assert roll.group[str(ada.pk)] == [2, 2, 1]


def test_a_group_participants_ability_gives_dice_not_effect(group, bo_m):
    """The group's effect is one for everyone who rolled (004 §Lead a group action): an
    ability's +1 effect is not one participant's to add."""
    with pytest.raises(RuleError, match="die"):
        flow_group.add_group_ability(by=bo_m, roll=group, bonus="effect", reason="Savage")
