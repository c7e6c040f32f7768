"""The group action's bonus dice: each participant's own push or bargain, and one
assister from outside the group per participant."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from blades.rules.errors import RuleError
from rolls import actions as flow
from rolls import group as flow_group
from rolls.models import ActionRoll
from tests.factories import CharacterFactory, MembershipFactory
from tests.helpers import Dice, fresh


def test_each_participant_takes_their_own_dice_and_pays_at_their_roll(
    group, ada_m, bo_m, cy_m, gm_m, ada, bo, cy
):
    flow.set_terms(by=gm_m, roll=group, position="desperate", effect=2)
    flow_group.assist_group(by=cy_m, roll=group, participant=bo)
    flow_group.set_group_bonus(by=bo_m, roll=group, push=True, bargain="")
    flow_group.set_group_bonus(by=ada_m, roll=group, push=False, bargain="Leave a witness")
    # Bo: prowl 1 + assist + push = 3 dice, best 3; stress is paid now, not before.
    assert (fresh(bo).stress, fresh(cy).stress) == (0, 0)
    roll = flow_group.roll_dice(by=bo_m, roll=group, rng=Dice(1, 3, 2))
    assert roll.group[str(bo.pk)] == [3, 1, 3, 2]
    assert (fresh(bo).stress, fresh(cy).stress) == (2, 1)
    # Ada: prowl 2 + the bargain = 3 dice, best 5: the group's result.
    roll = flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(5, 4, 1))
    assert roll.group[str(ada.pk)] == [3, 5, 4, 1]
    assert roll.outcome == "partial" and roll.pool == 3 and roll.step == "consequences"
    ada, bo, cy = fresh(ada), fresh(bo), fresh(cy)
    # The leader pays 1 for Bo's 1-3; no push for her, only the bargain.
    assert (ada.stress, bo.stress, cy.stress) == (1, 2, 1)
    # Every desperate roller marks Prowess xp; the assister did not roll.
    assert (ada.prowess_xp, bo.prowess_xp, cy.prowess_xp) == (1, 1, 0)
    assert "Cy takes 1 stress for assisting" in next(
        str(e.text) for e in roll.events.all() if str(e.text).startswith("Bo rolls")
    )


def test_only_that_participant_sets_their_bonus_dice(group, ada_m, bo_m, cy_m, gm_m, ada, cy):
    for who in (cy_m, gm_m):
        with pytest.raises(PermissionDenied):
            flow_group.set_group_bonus(by=who, roll=group, push=True, bargain="")
    roll = flow_group.set_group_bonus(by=bo_m, roll=group, push=True, bargain="")
    assert str(ada.pk) not in roll.group_bonuses
    with pytest.raises(RuleError, match="not both"):
        flow_group.set_group_bonus(by=ada_m, roll=group, push=True, bargain="A witness")


def test_an_assister_cannot_be_a_participant_and_helps_one_roll(
    table, group, ada_m, bo_m, cy_m, ada, bo, cy
):
    with pytest.raises(RuleError, match="cannot also assist"):
        flow_group.assist_group(by=bo_m, roll=group, participant=ada)
    with pytest.raises(PermissionDenied):
        flow_group.assist_group(by=ada_m, roll=group, participant=bo)
    flow_group.assist_group(by=cy_m, roll=group, participant=bo)
    with pytest.raises(RuleError, match="cannot also join"):
        flow_group.join_group(by=cy_m, roll=group)
    with pytest.raises(RuleError, match="already assist"):
        flow_group.assist_group(by=cy_m, roll=group, participant=ada)
    dee_m = MembershipFactory(table=table)
    CharacterFactory(table=table, owner=dee_m.user)
    with pytest.raises(RuleError, match="only one"):
        flow_group.assist_group(by=dee_m, roll=group, participant=bo)


def test_no_bonus_dice_once_that_participant_has_rolled(group, bo_m, cy_m, bo, cy):
    flow_group.roll_dice(by=bo_m, roll=group, rng=Dice(4))
    with pytest.raises(RuleError, match="already rolled"):
        flow_group.set_group_bonus(by=bo_m, roll=group, push=True, bargain="")
    with pytest.raises(RuleError, match="already rolled"):
        flow_group.assist_group(by=cy_m, roll=group, participant=bo)
    assert fresh(bo).stress == 0


def test_only_a_participant_rolls_in_a_group_action(group, ada_m, cy_m, gm_m, cy):
    for who in (cy_m, gm_m):
        with pytest.raises(PermissionDenied):
            flow_group.roll_dice(by=who, roll=group, rng=Dice(6))
    with pytest.raises(RuleError, match="each participant rolls"):
        flow.roll_dice(by=ada_m, roll=group, rng=Dice(6, 6))


def test_the_panel_offers_each_person_their_own_group_controls(
    client, table, group, player, other_player, cy_m, bo, cy
):
    pk = group.pk
    client.force_login(other_player)
    panel = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    assert f'id="group-push-{pk}"' in panel and f'id="group-assist-{pk}"' not in panel
    client.force_login(cy_m.user)
    panel = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    assert f'id="group-push-{pk}"' not in panel and f'<label for="group-assist-{pk}">' in panel
    response = client.post(
        reverse("flow_step", args=[table.pk, pk, "group-assist"]),
        {"participant": bo.pk},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "assisted by Cy (+1d)" in response.content.decode()
    assert ActionRoll.objects.get(pk=pk).group_bonuses == {str(bo.pk): {"assister": cy.pk}}
    client.force_login(other_player)
    response = client.post(
        reverse("flow_step", args=[table.pk, pk, "group-bonus"]),
        {"push_dice": "1", "bargain": "A witness"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422 and "not both" in response.content.decode()
