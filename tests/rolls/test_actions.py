"""The shared roll, step by step: who may do what, and exactly what each step changes."""

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404

from blades.rules.errors import RuleError
from blades.rules.rolls import Effect, Position
from characters.models import Character
from rolls import actions as flow
from rolls import group as flow_group
from rolls import outcome as flow_outcome
from rolls import queries as flow_queries
from rolls import undo as flow_undo
from rolls.models import ActionRoll, Consequence
from tests.factories import (
    CharacterFactory,
    ClockFactory,
    MembershipFactory,
    TableFactory,
)
from tests.helpers import Dice, call, carry_armor, fresh, member, start


def test_full_roll_desperate_with_assist_and_push(ada_m, bo_m, gm_m, ada, bo):
    roll = flow.start_roll(by=ada_m, character=ada, goal="slip past the guard", action="prowl")
    assert (roll.position, roll.effect) == (Position.RISKY, Effect.STANDARD)
    flow.set_terms(by=gm_m, roll=roll, position=Position.DESPERATE, effect=Effect.GREAT)
    flow.assist(by=bo_m, roll=roll)
    flow.set_push(by=ada_m, roll=roll, dice_=True, effect=False)
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(3, 2, 1, 5))
    assert roll.pool == 4 and roll.dice == [3, 2, 1, 5]
    assert roll.outcome == "partial" and roll.step == "consequences"
    ada, bo = fresh(ada), fresh(bo)
    assert ada.stress == 2 and bo.stress == 1
    assert ada.prowess_xp == 1 and bo.prowess_xp == 0
    events = [str(event.text) for event in roll.events.all()]
    assert len(events) == 5 and "Ada takes 2 stress" in events[-1]


def test_only_the_gm_sets_terms_and_consequences(ada_m, bo_m, gm_m, ada):
    roll = start(ada_m, ada)
    for who in (ada_m, bo_m):
        with pytest.raises(PermissionDenied):
            flow.set_terms(by=who, roll=roll, position=Position.CONTROLLED, effect=Effect.GREAT)
    flow.roll_dice(by=ada_m, roll=roll, rng=Dice(2, 1))
    with pytest.raises(PermissionDenied):
        flow_outcome.add_consequence(by=ada_m, roll=roll, kind="harm", level=1, description="x")


def test_only_the_roller_rolls_pushes_and_takes_bargains(ada_m, bo_m, gm_m, ada):
    roll = start(ada_m, ada)
    for who in (bo_m, gm_m):
        with pytest.raises(PermissionDenied):
            flow.roll_dice(by=who, roll=roll, rng=Dice(6, 6))
        with pytest.raises(PermissionDenied):
            flow.set_push(by=who, roll=roll, dice_=True, effect=False)
        with pytest.raises(PermissionDenied):
            flow.accept_bargain(by=who, roll=roll)


def test_only_another_player_assists_and_only_once(table, ada_m, bo_m, gm_m, ada):
    roll = start(ada_m, ada)
    for who in (ada_m, gm_m):
        with pytest.raises(PermissionDenied):
            flow.assist(by=who, roll=roll)
    flow.assist(by=bo_m, roll=roll)
    third = MembershipFactory(table=table)
    CharacterFactory(table=table, owner=third.user)
    with pytest.raises(RuleError, match="only one"):
        flow.assist(by=third, roll=roll)


def test_nobody_acts_on_a_roll_at_another_table(ada_m, ada):
    roll = start(ada_m, ada)
    elsewhere = TableFactory()
    stranger = MembershipFactory(table=elsewhere)
    CharacterFactory(table=elsewhere, owner=stranger.user)
    other_gm = member(elsewhere, elsewhere.gm)
    with pytest.raises(Http404):
        flow.set_terms(by=other_gm, roll=roll, position=Position.RISKY, effect=Effect.GREAT)
    with pytest.raises(Http404):
        flow.assist(by=stranger, roll=roll)
    with pytest.raises(Http404):
        flow.cancel(by=other_gm, roll=roll)


def test_push_for_dice_and_bargain_exclude_each_other(ada_m, bo_m, ada):
    roll = start(ada_m, ada)
    flow.offer_bargain(by=bo_m, roll=roll, text="You leave a clue behind")
    flow.set_push(by=ada_m, roll=roll, dice_=True, effect=False)
    with pytest.raises(RuleError):
        flow.accept_bargain(by=ada_m, roll=roll)
    flow.set_push(by=ada_m, roll=roll, dice_=False, effect=True)
    flow.accept_bargain(by=ada_m, roll=roll)
    with pytest.raises(RuleError):
        flow.set_push(by=ada_m, roll=roll, dice_=True, effect=True)
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 1, 1))
    # Rating 2 + bargain; effect pushed: standard -> great; 2 stress for the effect push.
    assert roll.pool == 3 and roll.as_effect is Effect.GREAT
    assert fresh(ada).stress == 2


def test_trade_position_for_effect_needs_the_gm(ada_m, gm_m, ada):
    roll = start(ada_m, ada)
    flow.ask_trade(by=ada_m, roll=roll)
    with pytest.raises(PermissionDenied):
        flow.answer_trade(by=ada_m, roll=roll, accept=True)
    roll = flow.answer_trade(by=gm_m, roll=roll, accept=True)
    assert (roll.position, roll.effect) == (Position.DESPERATE, Effect.GREAT)
    with pytest.raises(RuleError):
        flow.answer_trade(by=gm_m, roll=roll, accept=True)


def test_ability_bonus_and_zero_dice(ada_m, gm_m, ada, table):
    Character.objects.filter(pk=ada.pk).update(harm={"2": ["Cut"]})
    roll = call(flow.start_roll(by=ada_m, character=fresh(ada), goal="pick it", action="hunt"))
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 2))
    # Hunt 0, -1d for level 2 harm: two dice, the lowest counts.
    assert roll.pool == 0 and roll.outcome == "bad"
    roll = start(ada_m, ada)
    flow.add_ability_bonus(by=ada_m, roll=roll, bonus="effect", reason="Ghost")
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6))
    assert roll.pool == 1 and roll.as_effect is Effect.GREAT


def test_harm_consequence_resisted_and_reduced(ada_m, gm_m, ada):
    roll = start(ada_m, ada)
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(2, 3))
    consequence = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=2, description="Stabbed", attribute="prowess"
    )
    assert fresh(ada).harm["2"] == ["Stabbed"]
    with pytest.raises(PermissionDenied):
        flow_outcome.judge_resistance(by=ada_m, consequence=consequence, avoided=False)
    with pytest.raises(RuleError):
        flow_outcome.judge_resistance(by=gm_m, consequence=consequence, avoided=False)
    # Prowess 3 (finesse, prowl, skirmish): best die 4, so 2 stress.
    flow_outcome.resist(by=ada_m, consequence=consequence, rng=Dice(4, 1, 2))
    assert fresh(ada).stress == 2
    with pytest.raises(RuleError, match="already"):
        flow_outcome.resist(by=ada_m, consequence=consequence, rng=Dice(6, 6, 6))
    flow_outcome.judge_resistance(by=gm_m, consequence=consequence, avoided=False)
    ada = fresh(ada)
    assert ada.harm.get("2", []) == [] and ada.harm["1"] == ["Stabbed"]


def test_resistance_critical_clears_stress_and_armor_instead(ada_m, gm_m, ada):
    Character.objects.filter(pk=ada.pk).update(stress=3)
    carry_armor(ada)
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(1, 1))
    first = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=1, description="Bruised", attribute="prowess"
    )
    flow_outcome.resist(by=ada_m, consequence=first, rng=Dice(6, 6, 1))
    assert fresh(ada).stress == 2
    flow_outcome.judge_resistance(by=gm_m, consequence=first, avoided=True)
    assert fresh(ada).harm["1"] == []
    second = flow_outcome.add_consequence(by=gm_m, roll=roll, kind="lost_opportunity")
    flow_outcome.use_armor(by=ada_m, consequence=second)
    assert fresh(ada).armor_used


def test_stress_overflow_is_trauma(ada_m, bo_m, gm_m, ada, bo):
    Character.objects.filter(pk=bo.pk).update(stress=9)
    roll = start(ada_m, ada)
    flow.assist(by=bo_m, roll=roll)
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6, 6))
    bo = fresh(bo)
    assert bo.stress == 0 and bo.trauma_pending == 1
    assert "trauma!" in str(roll.events.last().text)


def test_complication_and_success_clock_ticks(table, ada_m, gm_m, ada):
    danger, goal = ClockFactory(table=table, segments=8), ClockFactory(table=table, segments=8)
    flow.set_terms(by=gm_m, roll=(roll := start(ada_m, ada)), position="risky", effect=3)
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(5, 1))
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", clock=danger, ticks=2)
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="reduced_effect")
    flow_outcome.tick_target(by=gm_m, roll=roll, clock=goal)
    danger.refresh_from_db(), goal.refresh_from_db()
    assert (danger.filled, goal.filled) == (2, 2)
    with pytest.raises(RuleError, match="already ticked"):
        flow_outcome.tick_target(by=gm_m, roll=roll, clock=goal)
    with pytest.raises(RuleError, match="not on this roll's menu"):
        flow_outcome.add_consequence(by=gm_m, roll=roll, kind="lost_opportunity")


def test_critical_ticks_one_level_more(table, ada_m, gm_m, ada):
    clock = ClockFactory(table=table, segments=8)
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(6, 6))
    flow_outcome.tick_target(by=gm_m, roll=roll, clock=clock)
    clock.refresh_from_db()
    assert clock.filled == 3


def test_undo_restores_the_exact_previous_state(table, ada_m, bo_m, gm_m, ada, bo):
    Character.objects.filter(pk=ada.pk).update(stress=8, prowess_xp=5, harm={"1": ["Tired"]})
    clock = ClockFactory(table=table, segments=4, filled=1)
    fields = ["stress", "trauma_pending", "harm", "healing", "prowess_xp", "prowess_advances"]
    before = {c.pk: {f: getattr(c, f) for f in fields} for c in (fresh(ada), fresh(bo))}
    roll = start(ada_m, ada)
    flow.set_terms(by=gm_m, roll=roll, position="desperate", effect=2)
    flow.assist(by=bo_m, roll=roll)
    flow.set_push(by=ada_m, roll=roll, dice_=True, effect=False)
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(4, 1, 1, 1))
    con = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=1, description="Tired", attribute="resolve"
    )
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="complication", clock=clock, ticks=3)
    flow_outcome.protect(by=bo_m, consequence=con)
    flow_outcome.resist(by=bo_m, consequence=con, rng=Dice(3))
    flow_outcome.tick_target(by=gm_m, roll=roll, clock=clock)
    flow_outcome.finish(by=gm_m, roll=roll)
    ada, bo = fresh(ada), fresh(bo)
    assert ada.trauma_pending == 1 and ada.prowess_advances == 1 and bo.harm["1"] == ["Tired"]
    undone = flow_undo.undo_last(by=gm_m, table=table)
    assert undone.step == "undone"
    after = {c.pk: {f: getattr(c, f) for f in fields} for c in (fresh(ada), fresh(bo))}
    assert after == before
    clock.refresh_from_db()
    assert clock.filled == 1
    with pytest.raises(RuleError):
        flow_undo.undo_last(by=gm_m, table=table)


def test_only_the_gm_undoes(table, ada_m, gm_m, ada):
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(6, 6))
    flow_outcome.finish(by=gm_m, roll=roll)
    with pytest.raises(PermissionDenied):
        flow_undo.undo_last(by=ada_m, table=table)


def test_cancel_before_the_dice_and_a_stale_proposal_is_replaced(ada_m, bo_m, gm_m, ada):
    first = start(ada_m, ada)
    second = start(ada_m, ada)
    first.refresh_from_db()
    assert first.step == "cancelled" and second.step == "setup"
    with pytest.raises(PermissionDenied):
        flow.cancel(by=bo_m, roll=second)
    flow.cancel(by=gm_m, roll=second)
    third = start(ada_m, ada)
    flow.roll_dice(by=ada_m, roll=third, rng=Dice(3, 3))
    with pytest.raises(RuleError, match="already rolled"):
        flow.cancel(by=ada_m, roll=third)


def test_group_action_best_counts_and_leader_pays(table, ada_m, bo_m, gm_m, ada, bo):
    third = MembershipFactory(table=table)
    cy = CharacterFactory(table=table, owner=third.user, prowl=1)
    roll = start(ada_m, ada, group=True)
    flow_group.join_group(by=bo_m, roll=roll)
    flow_group.join_group(by=third, roll=roll)
    with pytest.raises(RuleError):
        flow.assist(by=bo_m, roll=roll)
    flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(2))
    with pytest.raises(RuleError):
        flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(2))
    flow_group.roll_dice(by=third, roll=roll, rng=Dice(1))
    roll = flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(5, 4))
    assert roll.outcome == "partial" and roll.step == "consequences"
    assert fresh(ada).stress == 2 and fresh(bo).stress == 0 and fresh(cy).stress == 0


def test_set_up_carries_into_the_followers_next_roll(ada_m, bo_m, gm_m, ada, bo):
    setup = start(ada_m, ada, setup_for=bo, setup_benefit="effect")
    setup = flow.roll_dice(by=ada_m, roll=setup, rng=Dice(6, 2))
    flow_outcome.finish(by=gm_m, roll=setup)
    follow = call(flow.start_roll(by=bo_m, character=bo, goal="shoot", action="hunt"))
    assert follow.setup_from == setup
    follow = flow.roll_dice(by=bo_m, roll=follow, rng=Dice(4))
    assert follow.as_effect is Effect.GREAT
    again = flow.start_roll(by=bo_m, character=bo, goal="again", action="hunt")
    assert again.setup_from is None


def test_flashback_cost_is_set_by_the_gm_and_paid_on_the_roll(ada_m, gm_m, ada):
    roll = start(ada_m, ada, flashback=True)
    with pytest.raises(RuleError, match="cost"):
        flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6))
    flow.set_terms(by=gm_m, roll=roll, position="risky", effect=2, flashback_cost=1)
    flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6))
    assert fresh(ada).stress == 1


def test_fortune_roll_only_by_the_gm(table, gm_m, ada_m):
    with pytest.raises(PermissionDenied):
        flow_outcome.fortune_roll(by=ada_m, table=table, goal="x", trait=2)
    roll = flow_outcome.fortune_roll(
        by=gm_m, table=table, goal="Do they notice?", trait=1, advantages=1, rng=Dice(4, 6)
    )
    assert roll.pool == 2 and roll.outcome == "success" and roll.step == "done"


def test_protect_moves_the_harm_to_the_protector(ada_m, bo_m, gm_m, ada, bo):
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(1, 1))
    con = flow_outcome.add_consequence(by=gm_m, roll=roll, kind="harm", level=3, description="Shot")
    with pytest.raises(PermissionDenied):
        flow_outcome.protect(by=ada_m, consequence=con)
    flow_outcome.protect(by=bo_m, consequence=con)
    assert fresh(ada).harm.get("3", []) == [] and fresh(bo).harm["3"] == ["Shot"]
    with pytest.raises(PermissionDenied):
        flow_outcome.resist(by=ada_m, consequence=Consequence.objects.get(pk=con.pk))


def test_each_step_is_pushed_to_the_table_after_commit(
    ada_m, ada, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        start(ada_m, ada)
    assert callbacks
    assert ActionRoll.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_double_clicks_roll_once_and_charge_once():
    """Eight clicks on "Roll the dice" at once: one roll, one push paid, one assist."""
    from functools import partial

    from django.apps import apps

    from characters.content import load_standard_content
    from tests.concurrency import at_once

    # A transactional test may run after another one flushed the migrated content.
    load_standard_content(apps)
    table = TableFactory()
    ada_user, bo_user = MembershipFactory(table=table).user, MembershipFactory(table=table).user
    ada = CharacterFactory(table=table, owner=ada_user, prowl=2)
    CharacterFactory(table=table, owner=bo_user)
    ada_m, bo_m = member(table, ada_user), member(table, bo_user)
    roll = start(ada_m, ada)
    flow.set_push(by=ada_m, roll=roll, dice_=True, effect=False)
    clicks = 8
    assist = partial(flow.assist, by=bo_m, roll=roll)
    roll_dice = partial(flow.roll_dice, by=ada_m, roll=roll)
    outcomes = at_once([assist] + [roll_dice] * (clicks - 1), refused=(RuleError,))
    results = ["refused" if isinstance(o, RuleError) else "ok" for o in outcomes]
    assert results.count("ok") in (1, 2)
    roll.refresh_from_db()
    assert roll.step == "consequences"
    assert fresh(ada).stress == 2
    assert [str(e.text).startswith("Rolls ") for e in roll.events.all()].count(True) == 1


def test_heavy_armor_marks_a_second_box_and_reduces_the_harm_again(ada_m, gm_m, ada):
    """001 §Armor: "He marks the armor box and the harm becomes level 1 ... If Silas was
    wearing heavy armor, he could mark a second armor box and reduce the harm again, to
    zero"."""
    carry_armor(ada, heavy=True)
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(1, 1))
    cut = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=2, description="Cut to the Ribs"
    )
    flow_outcome.use_armor(by=ada_m, consequence=cut)
    flow_outcome.judge_resistance(by=gm_m, consequence=cut, avoided=False)
    assert fresh(ada).harm["1"] == ["Cut to the Ribs"]
    view = flow_queries.panel_context(ada.table, ada_m)["open_rolls"][0]
    assert view.consequences[0].can_heavy
    flow_outcome.use_armor(by=ada_m, consequence=cut, box="heavy")
    ada = fresh(ada)
    assert ada.harm["1"] == [] and ada.harm.get("2", []) == []
    assert ada.armor_used and ada.heavy_used
    assert Consequence.objects.get(pk=cut.pk).result == "avoided"


def test_armor_needs_armor_carried_on_the_score(ada_m, gm_m, ada):
    """Armor is an item: with none checked on the load, there is no armor box to mark."""
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(1, 1))
    cut = flow_outcome.add_consequence(by=gm_m, roll=roll, kind="harm", level=2, description="Cut")
    with pytest.raises(RuleError, match="No armor is carried"):
        flow_outcome.use_armor(by=ada_m, consequence=cut)


def test_lesser_harm_reduces_the_shared_rolls_effect_shown_and_rolled(ada_m, gm_m, ada):
    """Issue 13: "Standard + push for effect reads Great" with level 1 harm; 001 §Harm:
    lesser harm is reduced effect."""
    Character.objects.filter(pk=ada.pk).update(harm={"1": ["Tired"]})
    roll = start(ada_m, ada)
    flow.set_push(by=ada_m, roll=roll, dice_=False, effect=True)
    view = flow_queries.panel_context(ada.table, ada_m)["open_rolls"][0]
    assert view.effect == Effect.STANDARD
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6))
    assert roll.effect == Effect.STANDARD


def test_severe_harm_needs_an_assist_or_a_push_in_the_shared_roll(ada_m, bo_m, ada):
    """001 §Harm: incapacitated "unless you have help from someone else or push yourself"."""
    Character.objects.filter(pk=ada.pk).update(harm={"3": ["Punctured lung"]})
    roll = start(ada_m, ada)
    with pytest.raises(RuleError, match="incapacitated"):
        flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6))
    flow.assist(by=bo_m, roll=roll)
    assert flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6, 6)).outcome


def test_trade_effect_for_position_the_other_way(client, table, ada_m, gm_m, ada, player):
    """000 §Effect: "trade position for effect, or vice versa"."""
    from django.urls import reverse

    roll = start(ada_m, ada)
    client.force_login(player)
    url = reverse("flow_step", args=[table.pk, roll.pk, "ask-trade"])
    client.post(url, {"for": "position"}, headers={"HX-Request": "true"})
    roll = flow.answer_trade(by=gm_m, roll=ActionRoll.objects.get(pk=roll.pk), accept=True)
    assert (roll.position, roll.effect) == (Position.CONTROLLED, Effect.LIMITED)


def test_a_set_up_serves_any_teammate_and_several_follow_ups_and_a_group_leader(
    ada_m, bo_m, gm_m, ada, bo, table, outsider
):
    """004 §Set up: "any member of the team who follows through ... multiple follow-up
    actions ... including someone leading a group action"."""
    setup = start(ada_m, ada, setup_for=bo, setup_benefit="position")
    setup = flow.roll_dice(by=ada_m, roll=setup, rng=Dice(6, 2))
    flow_outcome.finish(by=gm_m, roll=setup)
    cy = CharacterFactory(table=table, owner=MembershipFactory(table=table).user, name="Cy")
    cy_m = member(table, cy.owner)
    # Cy was not the one named, and follows through anyway.
    follow = call(flow.start_roll(by=cy_m, character=cy, goal="climb", action="prowl"))
    assert follow.setup_from == setup
    follow = flow.roll_dice(by=cy_m, roll=follow, rng=Dice(4, 4))  # prowl 0: 2d, lowest
    assert follow.as_position is Position.CONTROLLED
    # Bo leads a group action on the same set up.
    group = call(flow.start_roll(by=bo_m, character=bo, goal="rush", action="prowl", group=True))
    assert group.setup_from == setup
    group = flow_group.roll_dice(by=bo_m, roll=group, rng=Dice(5))
    assert group.as_position is Position.CONTROLLED
    # Each member draws on it once; the setter never does.
    assert flow.start_roll(by=cy_m, character=cy, goal="again", action="prowl").setup_from is None
    assert flow.start_roll(by=ada_m, character=ada, goal="own", action="prowl").setup_from is None
