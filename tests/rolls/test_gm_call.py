"""The GM's call before the dice, and harm, trauma and armor in the shared roll (issue 28)."""

import pytest
from django.urls import reverse

from blades.rules.errors import RuleError
from characters.models import Character
from rolls import actions as flow
from rolls import group as flow_group
from rolls import outcome as flow_outcome
from rolls.models import ActionRoll
from tests.factories import CharacterItemFactory
from tests.helpers import Dice, call, fresh, start

HTMX = {"HTTP_HX_REQUEST": "true"}
WAITING = "Waiting for the GM to set position and effect."


def propose(ada_m, ada, **kwargs) -> ActionRoll:
    return flow.start_roll(by=ada_m, character=ada, goal="get in", action="prowl", **kwargs)


def panel(client, user, table) -> str:
    client.force_login(user)
    return client.get(reverse("flow_panel", args=[table.pk])).content.decode()


# --- The GM's call ---------------------------------------------------------------------


def test_the_dice_wait_for_the_gms_call(client, table, gm, player, ada_m, gm_m, ada):
    """001 §Action Roll: "The GM sets the position for the roll. The GM sets the effect
    level for the action." ... "Once the goal, action rating, position, and effect have
    been established, add any bonus dice and roll the dice pool"."""
    roll = propose(ada_m, ada)
    with pytest.raises(RuleError, match="Waiting for the GM"):
        flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6))
    assert fresh(ada).stress == 0 and ActionRoll.objects.get(pk=roll.pk).step == "setup"
    page = panel(client, player, table)
    assert WAITING in page and ">Roll the dice</button>" not in page
    assert ">Take the roll as proposed</button>" in panel(client, gm, table)
    flow.set_terms(by=gm_m, roll=roll, position="desperate", effect=3)
    page = panel(client, player, table)
    assert WAITING not in page and ">Roll the dice</button>" in page
    assert flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6)).as_position.value == "desperate"


def test_the_gm_may_call_the_roll_as_proposed_over_http(client, table, gm, player, ada_m, ada):
    """004 §3b: "The GM sets position and effect for an action roll at the same time ...
    Usually, Risky / Standard is the default combination": the GM may take the proposal
    as it stands, and only the GM."""
    roll = propose(ada_m, ada)
    url = reverse("flow_step", args=[table.pk, roll.pk, "roll"])
    client.force_login(player)
    refused = client.post(url, **HTMX).content.decode()
    assert WAITING in refused and ActionRoll.objects.get(pk=roll.pk).step == "setup"
    client.force_login(player)
    as_proposed = reverse("flow_step", args=[table.pk, roll.pk, "as-proposed"])
    assert client.post(as_proposed, **HTMX).status_code == 403  # the GM's alone
    client.force_login(gm)
    client.post(as_proposed, **HTMX)
    roll = ActionRoll.objects.get(pk=roll.pk)
    assert roll.called and (roll.position, roll.effect) == ("risky", 2)
    assert "GM takes the roll as proposed: Risky position, Standard effect" in panel(
        client, gm, table
    )


def test_a_group_action_waits_for_the_gms_call(ada_m, bo_m, gm_m, ada, bo):
    """004 §Lead a group action: "Each PC who's involved makes an action roll (using the
    same action)": an action roll each, so each waits for the GM's position and effect
    (000 §The action roll: "The GM sets the position for the roll")."""
    roll = propose(ada_m, ada, group=True)
    flow_group.join_group(by=bo_m, roll=roll)
    for who in (ada_m, bo_m):
        with pytest.raises(RuleError, match="Waiting for the GM"):
            flow_group.roll_dice(by=who, roll=roll, rng=Dice(6, 6))
    call(roll)
    flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6))
    assert flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(6)).step == "consequences"


def test_a_set_up_and_a_flashback_wait_for_the_gms_call(ada_m, bo_m, gm_m, ada, bo):
    """004 §Set up: "When you perform a setup action" (an action roll, set by the GM like
    any other); 000 §Flashbacks: "The GM sets a stress cost when you activate a flashback
    action ... After the stress cost is paid, a flashback action is handled just like any
    other action"."""
    setup = propose(ada_m, ada, setup_for=bo, setup_benefit="effect")
    with pytest.raises(RuleError, match="Waiting for the GM"):
        flow.roll_dice(by=ada_m, roll=setup, rng=Dice(6, 6))
    flow.cancel(by=ada_m, roll=setup)
    flashback = propose(ada_m, ada, flashback=True)
    with pytest.raises(RuleError, match="stress cost"):
        flow.accept_as_proposed(by=gm_m, roll=flashback)  # a flashback needs its price
    flow.set_terms(by=gm_m, roll=flashback, position="risky", effect=2, flashback_cost=1)
    flow.roll_dice(by=ada_m, roll=flashback, rng=Dice(6, 6))
    assert fresh(ada).stress == 1


def test_a_flashback_waits_for_its_call_and_its_cost(client, table, player, ada_m, ada):
    """000 §Flashbacks: "The GM sets a stress cost when you activate a flashback action":
    the player's page says it waits for that too."""
    propose(ada_m, ada, flashback=True)
    page = panel(client, player, table)
    assert "Waiting for the GM to set position and effect and the flashback's cost." in page


# --- Consequences ----------------------------------------------------------------------


def test_a_purely_narrative_complication(ada_m, gm_m, ada):
    """001 §Complication: "The GM might introduce an immediate problem that results from
    the action right now: the room catches fire, you're disarmed, ... the target evades
    you and now it's a chase": no clock, no heat."""
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(2, 1))
    complication = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="complication", description="Your lockpicks snap", ticks=1
    )
    assert (complication.clock, complication.ticks, complication.heat) == (None, 0, 0)
    assert "GM: Complication (Your lockpicks snap)" in str(roll.events.last().text)
    with pytest.raises(RuleError, match="Describe the complication"):
        flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication")


# --- Harm ------------------------------------------------------------------------------


def test_each_participant_of_a_group_action_acts_through_their_own_harm(ada_m, bo_m, gm_m, ada, bo):
    """001 §Harm: severe harm, "your character is incapacitated and can't do anything
    unless you have help from someone else or push yourself to perform the action"."""
    Character.objects.filter(pk=bo.pk).update(harm={"3": ["Broken leg"]})
    roll = start(ada_m, ada, group=True)
    flow_group.join_group(by=bo_m, roll=roll)
    with pytest.raises(RuleError, match="incapacitated"):
        flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(6))
    flow_group.set_group_bonus(by=bo_m, roll=roll, push=False, bargain="", act=True)
    flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(6))
    assert fresh(bo).stress == 2
    Character.objects.filter(pk=ada.pk).update(harm={"4": ["Dead"]})
    with pytest.raises(RuleError, match="fatal"):
        flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6))


def test_pushing_to_act_while_incapacitated_is_a_push_of_its_own(ada_m, ada):
    """001 §Pushing Yourself: "For each bonus you choose below, take 2 stress (each can be
    chosen once for a given action): Add +1d ... Take action when you're incapacitated"."""
    Character.objects.filter(pk=ada.pk).update(harm={"3": ["Punctured lung"]})
    roll = start(ada_m, ada)
    flow.set_push(by=ada_m, roll=roll, dice_=True, effect=False)
    with pytest.raises(RuleError, match="incapacitated"):  # +1d alone is not acting
        flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6, 6))
    flow.set_push(by=ada_m, roll=roll, dice_=True, effect=False, act=True)
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6, 6))
    assert roll.pool == 3 and fresh(ada).stress == 4


def test_heavy_armor_alone_gives_no_armor_box(ada_m, gm_m, ada):
    """000 §Armor: "If Silas was wearing heavy armor, he could mark a second armor box and
    reduce the harm again": heavy armor is a second box after the armor's; SRD_FACTS
    4.1/4.2: "Armor = 2; +Heavy = 3 more (5 in total for heavy armor)"."""
    Character.objects.filter(pk=ada.pk).update(load="heavy")
    CharacterItemFactory(character=ada, name="+Heavy", load=3, armor="heavy", checked=True)
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(2, 1))
    harm = flow_outcome.add_consequence(by=gm_m, roll=roll, kind="harm", level=2, description="Cut")
    with pytest.raises(RuleError, match="No armor is carried"):
        flow_outcome.use_armor(by=ada_m, consequence=harm)


# --- Trauma ----------------------------------------------------------------------------


def test_a_character_with_a_fourth_trauma_neither_rolls_nor_is_chosen(ada_m, bo_m, gm_m, ada, bo):
    """001 §Trauma: "When you mark your fourth trauma condition, your character cannot
    continue as a daring scoundrel. You must retire them"."""
    roll = start(ada_m, ada)
    Character.objects.filter(pk=bo.pk).update(traumas=["cold", "soft", "vicious", "reckless"])
    with pytest.raises(RuleError, match="Bo has 4 trauma and must retire"):
        flow.assist(by=bo_m, roll=roll)
    with pytest.raises(RuleError, match="must retire"):
        flow.start_roll(by=bo_m, character=fresh(bo), goal="go", action="hunt")
    with pytest.raises(RuleError, match="must retire"):
        propose(ada_m, ada, setup_for=fresh(bo), setup_benefit="effect")
    group = start(ada_m, ada, group=True)
    with pytest.raises(RuleError, match="must retire"):
        flow_group.join_group(by=bo_m, roll=group)
    Character.objects.filter(pk=ada.pk).update(traumas=["cold", "soft", "vicious", "reckless"])
    with pytest.raises(RuleError, match="Ada has 4 trauma"):
        flow_group.roll_dice(by=ada_m, roll=group, rng=Dice(6, 6))
    Character.objects.filter(pk=ada.pk).update(state="retired")
    with pytest.raises(RuleError, match="Ada is retired"):
        flow.start_roll(by=ada_m, character=fresh(ada), goal="go", action="prowl")
