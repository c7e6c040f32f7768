"""Building a roll together: trades, bonuses, set-ups, resisted harm."""

import pytest

from blades.rules.character import RuleError, add_harm
from blades.rules.dice import Outcome, Roll
from blades.rules.flow import (
    ABILITY_BONUS,
    SETUP_BENEFITS,
    SETUP_EFFECT,
    Bonuses,
    RollTerms,
    assist_stress,
    check_group_assist,
    complication_ticks_default,
    flow_effect,
    flow_pool,
    flow_position,
    group_member_bonuses,
    harm_default,
    improve_position,
    remove_harm,
    resisted_harm_level,
    resolve,
    roll_terms,
    roller_stress,
    trade_position_for_effect,
    worsen_position,
)
from blades.rules.rolls import (
    Effect,
    Position,
    action_outcome,
    action_pool,
    effect_ticks,
    group_action,
    resistance_stress,
)


def test_positions_step_along_the_ladder_and_stop_at_the_ends():
    assert worsen_position(Position.CONTROLLED) is Position.RISKY
    assert worsen_position(Position.DESPERATE) is Position.DESPERATE
    assert improve_position(Position.DESPERATE) is Position.RISKY
    assert improve_position(Position.CONTROLLED) is Position.CONTROLLED


def test_trading_position_for_effect_worsens_one_and_raises_the_other():
    assert trade_position_for_effect(Position.RISKY, Effect.STANDARD) == (
        Position.DESPERATE,
        Effect.GREAT,
    )
    with pytest.raises(RuleError, match="already desperate"):
        trade_position_for_effect(Position.DESPERATE, Effect.LIMITED)
    with pytest.raises(RuleError, match="already extreme"):
        trade_position_for_effect(Position.CONTROLLED, Effect.EXTREME)


def test_pool_adds_assist_push_and_ability_and_takes_harm_away():
    assert flow_pool(2, 0, Bonuses()) == 2
    assert flow_pool(2, 0, Bonuses(assist=True, push_dice=True, ability_dice=1)) == 5
    assert flow_pool(2, -1, Bonuses(bargain=True)) == 2


def test_a_zero_rating_with_harm_is_a_zero_pool():
    assert flow_pool(0, -1, Bonuses()) == 0  # 2d, keep the lowest


def test_push_for_a_die_and_a_bargain_exclude_each_other():
    with pytest.raises(RuleError, match="not both"):
        Bonuses(push_dice=True, bargain=True)
    # The engine refuses it too, whoever asks.
    with pytest.raises(RuleError):
        action_pool(1, push=True, bargain=True)


def test_an_ability_adds_one_die_or_one_effect_not_more():
    with pytest.raises(RuleError):
        Bonuses(ability_dice=2)
    with pytest.raises(RuleError):
        Bonuses(ability_effect=-1)
    with pytest.raises(RuleError):
        Bonuses(ability_effect=2)
    assert ABILITY_BONUS == 1


def test_a_set_up_gives_one_level_of_effect():
    """RULES.md: a set up gives the teammate who follows through +1 effect or improved
    position."""
    assert SETUP_EFFECT == 1
    assert SETUP_BENEFITS["effect"] == "+1 effect"
    assert flow_effect(Effect.LIMITED, Bonuses(setup_effect=True)) is Effect.STANDARD


def test_effect_adds_push_ability_and_set_up_and_stops_at_extreme():
    assert flow_effect(Effect.STANDARD, Bonuses(push_effect=True)) is Effect.GREAT
    assert (
        flow_effect(Effect.STANDARD, Bonuses(push_effect=True, ability_effect=1, setup_effect=True))
        is Effect.EXTREME
    )
    assert flow_effect(Effect.ZERO, Bonuses()) is Effect.ZERO


def test_set_up_improves_the_position():
    assert flow_position(Position.DESPERATE, Bonuses(setup_position=True)) is Position.RISKY
    assert flow_position(Position.DESPERATE, Bonuses()) is Position.DESPERATE


def test_roller_pays_two_per_push_plus_the_flashback_and_the_assister_one():
    assert roller_stress(Bonuses()) == 0
    assert roller_stress(Bonuses(push_dice=True, push_effect=True)) == 4
    assert roller_stress(Bonuses(bargain=True, push_effect=True), flashback_cost=1) == 3


def test_pushing_to_act_while_incapacitated_is_a_push_of_its_own():
    """001 §Pushing Yourself: "For each bonus you choose below, take 2 stress (each can be
    chosen once for a given action): Add +1d ... Add +1 level to your effect ... Take
    action when you're incapacitated"."""
    assert roller_stress(Bonuses(push_act=True)) == 2
    assert roller_stress(Bonuses(push_dice=True, push_act=True)) == 4
    assert roller_stress(Bonuses(push_dice=True, push_effect=True, push_act=True)) == 6
    assert group_member_bonuses(push=True, bargain=False, assisted=False, push_act=True) == (
        Bonuses(push_dice=True, push_act=True)
    )
    assert assist_stress(Bonuses(assist=True)) == 1
    assert assist_stress(Bonuses()) == 0
    with pytest.raises(RuleError):
        roller_stress(Bonuses(), flashback_cost=-1)


@pytest.mark.parametrize(
    ("position", "outcome", "kinds"),
    [
        (Position.DESPERATE, Outcome.BAD, ("harm", "complication", "lost_opportunity")),
        (
            Position.RISKY,
            Outcome.PARTIAL,
            ("harm", "complication", "reduced_effect", "worse_position"),
        ),
        (Position.CONTROLLED, Outcome.BAD, ("worse_position",)),
        (Position.DESPERATE, Outcome.SUCCESS, ()),
    ],
)
def test_consequence_menu_by_position_and_result(position, outcome, kinds):
    assert action_outcome(position, outcome).consequences == kinds


def test_effect_ticks_with_a_critical_one_level_more():
    assert effect_ticks(Effect.GREAT) == 3
    assert effect_ticks(Effect.GREAT, critical=True) == 4
    assert effect_ticks(Effect.LIMITED, critical=True) == 2


def test_resistance_costs_six_minus_the_best_die():
    assert resistance_stress(Roll(2, (4, 2))) == 2
    assert resistance_stress(Roll(2, (6, 6))) == -1
    assert resistance_stress(Roll(0, (6, 3))) == 3


def test_group_action_leader_pays_one_per_bad_result():
    rolls = [Roll(1, (6,)), Roll(2, (2, 3)), Roll(1, (1,))]
    result = group_action(rolls)
    assert result.outcome is Outcome.SUCCESS
    assert result.leader_stress == 2
    assert result.best_index == 0


def test_resisted_harm_drops_a_level_or_goes():
    assert resisted_harm_level(2, avoided=False) == 1
    assert resisted_harm_level(1, avoided=False) == 0
    assert resisted_harm_level(3, avoided=True) == 0


def test_remove_harm_takes_the_last_matching_entry_only():
    harm = add_harm(add_harm({}, 1, "Bruised").harm, 1, "Bruised").harm
    rows = remove_harm(harm, 1, "Bruised")
    assert rows[1] == ("Bruised",)
    with pytest.raises(RuleError):
        remove_harm(rows, 2, "Bruised")


def test_a_group_participant_pushes_or_bargains_and_may_be_assisted():
    assert flow_pool(1, 0, group_member_bonuses(push=False, bargain=False, assisted=False)) == 1
    assert flow_pool(1, 0, group_member_bonuses(push=True, bargain=False, assisted=True)) == 3
    assert flow_pool(0, -1, group_member_bonuses(push=False, bargain=True, assisted=False)) == 0
    bonuses = group_member_bonuses(push=True, bargain=False, assisted=True)
    assert (roller_stress(bonuses), assist_stress(bonuses)) == (2, 1)
    with pytest.raises(RuleError, match="not both"):
        group_member_bonuses(push=True, bargain=True, assisted=False)


def test_a_group_participant_adds_an_ability_die_to_their_own_roll():
    """ "Each PC who's involved makes an action roll" (004 §Lead a group action): Ambush's
    "+1d" (the app's ability text) is its roller's, one die on their own pool."""
    bonuses = group_member_bonuses(push=True, bargain=False, assisted=False, ability_dice=1)
    assert flow_pool(1, 0, bonuses) == 3
    assert roller_stress(bonuses) == 2
    with pytest.raises(RuleError, match="one die"):
        group_member_bonuses(push=False, bargain=False, assisted=False, ability_dice=2)


def test_group_assist_one_outsider_per_participant_and_one_participant_per_assister():
    check_group_assist({1, 2}, {}, participant=1, assister=3)
    with pytest.raises(RuleError, match="cannot also assist"):
        check_group_assist({1, 2}, {}, participant=1, assister=2)
    with pytest.raises(RuleError, match="taking part"):
        check_group_assist({1, 2}, {}, participant=4, assister=3)
    with pytest.raises(RuleError, match="only one"):
        check_group_assist({1, 2}, {1: 3}, participant=1, assister=4)
    with pytest.raises(RuleError, match="already assist"):
        check_group_assist({1, 2}, {1: 3}, participant=2, assister=3)


@pytest.mark.parametrize(
    ("position", "effect", "direction", "after"),
    [
        (Position.RISKY, Effect.STANDARD, "effect", (Position.DESPERATE, Effect.GREAT)),
        (Position.RISKY, Effect.STANDARD, "position", (Position.CONTROLLED, Effect.LIMITED)),
        (Position.DESPERATE, Effect.GREAT, "position", (Position.RISKY, Effect.STANDARD)),
    ],
)
def test_trade_position_for_effect_or_vice_versa(position, effect, direction, after):
    """000 §Effect: "trade position for effect, or vice versa"."""
    from blades.rules.flow import trade

    assert trade(position, effect, direction) == after


def test_trading_effect_for_position_stops_at_controlled_and_zero():
    from blades.rules.flow import trade

    with pytest.raises(RuleError, match="already controlled"):
        trade(Position.CONTROLLED, Effect.GREAT, "position")
    with pytest.raises(RuleError, match="already zero"):
        trade(Position.RISKY, Effect.ZERO, "position")


def test_the_shared_roll_offers_every_flashback_cost_the_phase_does():
    """000 §Flashbacks: "2 (or more) Stress": one bound for every path."""
    from blades.rules.flow import FLASHBACK_COSTS
    from blades.rules.score import FLASHBACK_STRESS_MAX, flashback_stress

    assert tuple(range(FLASHBACK_STRESS_MAX + 1)) == FLASHBACK_COSTS
    assert [flashback_stress(cost) for cost in FLASHBACK_COSTS] == list(FLASHBACK_COSTS)


# --- The roll as its dice are cast: one function for pool, terms and costs -------------


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        # rating 2, nothing added: risky standard, no cost
        ({}, RollTerms(2, Position.RISKY, Effect.STANDARD, 0, 0, "prowess", 0)),
        # assist +1d (1 stress to the helper), push for +1d and +1 effect (4 stress)
        (
            {"bonuses": Bonuses(assist=True, push_dice=True, push_effect=True)},
            RollTerms(4, Position.RISKY, Effect.GREAT, 4, 1, "prowess", 0),
        ),
        # a devil's bargain and an ability die; a flashback's 2 stress
        (
            {"bonuses": Bonuses(bargain=True, ability_dice=1), "flashback_cost": 2},
            RollTerms(4, Position.RISKY, Effect.STANDARD, 2, 0, "prowess", 0),
        ),
        # desperate: xp in the action's attribute
        (
            {"position": Position.DESPERATE, "action": "study"},
            RollTerms(2, Position.DESPERATE, Effect.STANDARD, 0, 0, "insight", 1),
        ),
        # a set up for position lifts desperate to risky: no xp
        (
            {"position": Position.DESPERATE, "bonuses": Bonuses(setup_position=True)},
            RollTerms(2, Position.RISKY, Effect.STANDARD, 0, 0, "prowess", 0),
        ),
        # set up for effect; lesser harm takes a level of effect, moderate harm a die
        (
            {"bonuses": Bonuses(setup_effect=True), "harm": {1: ["bruised"], 2: ["cut"]}},
            RollTerms(1, Position.RISKY, Effect.STANDARD, 0, 0, "prowess", 0),
        ),
        # severe harm, pushing to act: 2 stress, and the roll goes on
        (
            {"harm": {3: ["broken leg"]}, "bonuses": Bonuses(push_act=True)},
            RollTerms(2, Position.RISKY, Effect.STANDARD, 2, 0, "prowess", 0),
        ),
        # a zero rating with moderate harm is a zero pool
        (
            {"rating": 0, "harm": {2: ["cut"]}},
            RollTerms(0, Position.RISKY, Effect.STANDARD, 0, 0, "prowess", 0),
        ),
    ],
)
def test_resolve_works_out_the_whole_roll(kwargs, expected):
    given = {
        "action": "skirmish",
        "rating": 2,
        "harm": {},
        "position": Position.RISKY,
        "effect": Effect.STANDARD,
        "bonuses": Bonuses(),
        **kwargs,
    }
    assert resolve(**given) == expected
    assert roll_terms(**given) == expected


@pytest.mark.parametrize(
    ("harm", "bonuses", "message"),
    [
        ({3: ["broken leg"]}, Bonuses(), "incapacitated"),
        ({3: ["broken leg"]}, Bonuses(push_dice=True), "incapacitated"),
        ({4: ["dead"]}, Bonuses(assist=True), "fatal"),
    ],
)
def test_resolve_refuses_a_character_who_cannot_act_but_the_terms_still_show(
    harm, bonuses, message
):
    given = {
        "action": "skirmish",
        "rating": 1,
        "harm": harm,
        "position": Position.RISKY,
        "effect": Effect.STANDARD,
        "bonuses": bonuses,
    }
    with pytest.raises(RuleError, match=message):
        resolve(**given)
    assert roll_terms(**given).pool == 1 + bonuses.push_dice + bonuses.assist


@pytest.mark.parametrize(
    ("position", "level"),
    [(Position.CONTROLLED, 1), (Position.RISKY, 2), (Position.DESPERATE, 3)],
)
def test_the_harm_menu_opens_on_the_level_the_position_calls_for(position, level):
    """Controlled: "you suffer lesser harm" (000 §Controlled); desperate: "Since the
    position was desperate, the GM inflicts severe harm" (001 §Resistance)."""
    assert harm_default(position) == level


@pytest.mark.parametrize(
    ("position", "outcome", "ticks"),
    [
        (Position.CONTROLLED, Outcome.PARTIAL, 1),
        (Position.RISKY, Outcome.PARTIAL, 2),
        (Position.RISKY, Outcome.BAD, 2),
        (Position.DESPERATE, Outcome.BAD, 3),
    ],
)
def test_the_complication_card_opens_on_the_ticks_its_severity_calls_for(position, outcome, ticks):
    """ "one tick on a clock for a minor complication or two ticks for a standard
    complication ... three ticks on a clock for a serious complication" (000)."""
    severity = action_outcome(position, outcome).severity
    assert complication_ticks_default(severity) == ticks
