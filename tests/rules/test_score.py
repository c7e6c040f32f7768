import pytest

from blades.rules.character import RuleError
from blades.rules.dice import Outcome
from blades.rules.score import (
    HELP_DICE,
    PAST_CRITICAL_COIN,
    RAISE_COIN,
    RAISE_COIN_MAX,
    SESSION_XP_MAX,
    UNTREATED_DICE,
    Cost,
    FlashbackCost,
    HoldLoss,
    Raised,
    engagement_counts,
    entanglement_choices,
    extra_activity_payment,
    flashback_cost,
    flashback_stress,
    fortune_heat,
    job_coin,
    lose_hold,
    plan_detail_label,
    questioning_dice,
    raise_result,
)


@pytest.mark.parametrize(
    "plan,detail",
    [
        ("assault", "Point of attack"),
        ("deception", "Method"),
        ("stealth", "Point of infiltration"),
        ("occult", "Arcane method"),
        ("social", "Connection"),
        ("transport", "Route and means"),
    ],
)
def test_every_plan_names_its_detail(plan, detail):
    assert plan_detail_label(plan) == detail


def test_an_unknown_plan_is_refused():
    with pytest.raises(RuleError):
        plan_detail_label("heist")


def test_engagement_counts_each_line_once():
    marks = {"plan": "advantage", "detail": "disadvantage", "friends": "advantage", "other": ""}
    assert engagement_counts(marks) == (2, 1)
    assert engagement_counts({}) == (0, 0)
    with pytest.raises(RuleError):
        engagement_counts({"luck": "advantage"})
    with pytest.raises(RuleError):
        engagement_counts({"plan": "both"})


@pytest.mark.parametrize("stress", [0, 1, 2, 5, 9])
def test_flashback_costs_zero_to_a_track(stress):
    assert flashback_stress(stress) == stress


@pytest.mark.parametrize("stress", [-1, 10])
def test_flashback_cost_out_of_range(stress):
    with pytest.raises(RuleError):
        flashback_stress(stress)


@pytest.mark.parametrize(
    "size,extra,coin",
    [("minor", 0, 2), ("small", 0, 4), ("standard", 0, 6), ("big", 0, 8), ("major", 0, 10),
     ("major", 3, 13)],
)  # fmt: skip
def test_job_coin_by_size(size, extra, coin):
    assert job_coin(size, extra) == coin


def test_only_a_major_job_pays_extra():
    with pytest.raises(RuleError):
        job_coin("big", 1)
    with pytest.raises(RuleError):
        job_coin("huge")


@pytest.mark.parametrize(
    "hold,tier,result",
    [
        ("strong", 2, HoldLoss("weak", 2, False)),
        ("weak", 2, HoldLoss("weak", 1, False)),
        ("strong", 0, HoldLoss("weak", 0, False)),
        ("weak", 0, HoldLoss("weak", 0, True)),
    ],
)
def test_losing_hold(hold, tier, result):
    assert lose_hold(hold, tier) == result


def _costs(name, **kwargs):
    defaults = {"wanted": 1, "crew_tier": 1, "faction_tier": 2}
    return {c.key: c.cost for c in entanglement_choices(name, **{**defaults, **kwargs})}


def test_arrest_costs_wanted_plus_three_or_a_prisoner():
    assert _costs("Arrest", wanted=2) == {
        "pay": Cost(coin=5),
        "hand_over": Cost(incarcerate=True),
        "resist": Cost(),
    }


def test_costs_that_scale_with_the_faction_or_crew_tier():
    assert _costs("Cooperation", faction_tier=3) == {
        "favour": Cost(), "forfeit": Cost(rep=3), "status": Cost(status=-1)
    }  # fmt: skip
    assert _costs("Gang Trouble", crew_tier=2)["face"] == Cost(rep=3)
    assert _costs("Rivals", faction_tier=2) == {
        "rep": Cost(rep=2), "coin": Cost(coin=2), "stand": Cost(status=-1)
    }  # fmt: skip


@pytest.mark.parametrize(("tier", "price"), [(0, 0), (1, 1), (2, 2), (4, 4), (5, 5)])
def test_reprisals_pay_1_rep_and_1_coin_per_tier_of_the_enemy(tier, price):
    """003 Reprisals: "Pay them (1 rep and 1 coin) per Tier of the enemy as an apology"."""
    assert _costs("Reprisals", faction_tier=tier)["pay"] == Cost(rep=price, coin=price)


def test_cooperation_without_a_plus_3_faction_status_avoids_entanglements():
    """003 Cooperation: "If you don't have a +3 faction status, you avoid entanglements
    right now" (no faction needed then)."""
    choices = entanglement_choices("Cooperation", wanted=1, crew_tier=1, allies=False)
    assert [(c.key, c.cost) for c in choices] == [("avoid", Cost())]


def test_interrogation_talking_is_level_2_harm_and_3_heat():
    """003 Interrogation: "they beat you up (level 2 harm) and you tell them what they want
    to know (+3 heat)"."""
    assert _costs("Interrogation")["talk"] == Cost(heat=3, harm=2)


def test_interrogation_harm_and_heat_are_resisted_separately():
    """003 Interrogation: "they beat you up (level 2 harm) and you tell them what they want
    to know (+3 heat). You can resist each of those consequences separately": the beating
    reduced a level or avoided, the talking avoided, each whatever became of the other."""
    costs = {(c.harm, c.heat) for key, c in _costs("Interrogation").items() if key != "pay"}
    assert costs == {(h, x) for h in (2, 1, 0) for x in (3, 0)}


def test_at_wanted_level_0_an_arrest_may_end_in_a_beating():
    """003 Incarceration: "Wanted Level 0: A few weeks. Or, the constables give you a beating
    to teach you a lesson (suffer level 3 harm, no resistance roll allowed—they keep going
    until you're injured)"."""
    assert _costs("Arrest", wanted=0)["beating"] == Cost(harm=3, clear_heat=True)
    assert "beating" not in _costs("Arrest", wanted=1)


@pytest.mark.parametrize("dice", [0, 1, 2, 3, 4])
def test_questioning_dice_run_0_to_4(dice):
    """003 Questioning: "Roll 2d for a normal person ... give them 3d or 4d instead ...
    give them 1d or 0d"."""
    assert questioning_dice(dice) == dice


@pytest.mark.parametrize("dice", [-1, 5])
def test_questioning_dice_outside_0_to_4_are_refused(dice):
    with pytest.raises(RuleError, match="between 0 and 4"):
        questioning_dice(dice)


def test_fixed_costs():
    assert _costs("Demonic Notice")["hide"] == Cost(rep=3)
    assert _costs("Interrogation")["pay"] == Cost(coin=3)
    assert _costs("Questioning") == {"fortune": Cost(fortune=True), "pay": Cost(coin=2)}
    assert _costs("The Usual Suspects") == {"fortune": Cost(fortune=True), "pay": Cost(coin=1)}
    assert set(_costs("Flipped")) == {"flipped"}
    assert set(_costs("Unquiet Dead")) == {"occultist", "deal"}


def test_show_of_force_takes_a_claim_or_war_and_hold_without_claims():
    assert _costs("Show of Force") == {"claim": Cost(claim=True), "war": Cost(war=True)}
    assert _costs("Show of Force", claims=0) == {"hold": Cost(hold=1)}


def test_faction_entanglements_are_offered_per_tier_until_the_faction_is_named():
    """003 Rivals: "Forfeit 1 rep or 1 coin per Tier of the rival": before the GM names the
    rival, the menu says it in those words, and each such choice waits for the faction."""
    choices = entanglement_choices("Rivals", wanted=0, crew_tier=0)
    assert [str(c.label) for c in choices[:2]] == [
        "Forfeit 1 rep per tier of the faction",
        "Forfeit 1 coin per tier of the faction",
    ]
    assert all(c.needs_faction for c in choices)
    assert [
        str(c.label) for c in entanglement_choices("Rivals", wanted=0, crew_tier=0, faction_tier=1)
    ][:2] == ["Forfeit 1 rep", "Forfeit 1 coin"]
    show_of_force = entanglement_choices("Show of Force", wanted=0, crew_tier=0)
    assert [c.needs_faction for c in show_of_force] == [False, True]


def test_an_unknown_entanglement_is_refused():
    with pytest.raises(RuleError):
        entanglement_choices("Bad Luck", wanted=0, crew_tier=0)


@pytest.mark.parametrize(
    "name,outcome,heat",
    [
        ("Questioning", Outcome.BAD, 2),
        ("Questioning", Outcome.PARTIAL, 1),
        ("Questioning", Outcome.SUCCESS, 0),
        ("Questioning", Outcome.CRITICAL, 0),
        ("The Usual Suspects", Outcome.BAD, 2),
        ("The Usual Suspects", Outcome.PARTIAL, 0),
        ("The Usual Suspects", Outcome.SUCCESS, 0),
    ],
)
def test_fortune_heat(name, outcome, heat):
    assert fortune_heat(name, outcome)[0] == heat


def test_usual_suspects_partial_is_harm():
    assert "level 2 harm" in str(fortune_heat("The Usual Suspects", Outcome.PARTIAL)[1])


def test_extra_activity_is_paid_in_coin_or_rep():
    assert extra_activity_payment("coin") == "coin"
    assert extra_activity_payment("rep") == "rep"
    with pytest.raises(RuleError):
        extra_activity_payment("stress")


@pytest.mark.parametrize(
    ("stress", "downtime", "pay_with", "cost"),
    [
        (2, False, "", FlashbackCost(stress=2)),
        (0, False, "coin", FlashbackCost()),
        (2, True, "coin", FlashbackCost(coin=1)),
        (2, True, "rep", FlashbackCost(rep=1)),
    ],
)
def test_flashback_to_a_downtime_activity_costs_1_coin_or_1_rep(stress, downtime, pay_with, cost):
    """000 §Flashbacks: "If a flashback involves a downtime activity, pay 1 coin or 1 rep
    for it, instead of stress"."""
    assert flashback_cost(stress, downtime=downtime, pay_with=pay_with) == cost


def test_flashback_to_downtime_needs_coin_or_rep_chosen():
    with pytest.raises(RuleError, match="1 coin or 1 rep"):
        flashback_cost(1, downtime=True)


def test_each_coin_raises_a_downtime_result_one_level():
    """001 §Coin Use: "Spend 1 coin to increase the result level of a downtime activity
    roll"; coin past a critical buys nothing (but an asset's quality)."""
    assert RAISE_COIN == 1
    assert raise_result("reduce_heat", Outcome.BAD, 1) == Raised(Outcome.PARTIAL, 0, 1)
    assert raise_result("project", Outcome.BAD, 2) == Raised(Outcome.SUCCESS, 0, 2)
    assert raise_result("recover", Outcome.BAD, RAISE_COIN_MAX) == Raised(Outcome.CRITICAL, 0, 3)
    with pytest.raises(RuleError, match="at least 1 coin"):
        raise_result("project", Outcome.BAD, 0)
    with pytest.raises(RuleError, match="already a critical"):
        raise_result("project", Outcome.CRITICAL, 2)
    with pytest.raises(RuleError, match="not this"):
        raise_result("train", Outcome.BAD, 1)


def test_an_asset_goes_past_a_critical_at_2_coin_a_quality_level():
    """RULES.md "Acquire asset": "crit → tier + 2 (beyond that 2 coin per extra level)";
    SRD_FACTS 1.2: "You can go past critical by paying 2 coin per extra +1 Tier"."""
    assert PAST_CRITICAL_COIN == 2
    assert raise_result("acquire_asset", Outcome.CRITICAL, 2) == Raised(Outcome.CRITICAL, 1, 2)
    assert raise_result("acquire_asset", Outcome.CRITICAL, 4) == Raised(Outcome.CRITICAL, 2, 4)
    assert raise_result("acquire_asset", Outcome.CRITICAL, 3) == Raised(Outcome.CRITICAL, 1, 2)
    assert raise_result("acquire_asset", Outcome.SUCCESS, 3) == Raised(Outcome.CRITICAL, 1, 3)
    with pytest.raises(RuleError, match="costs 2 coin"):
        raise_result("acquire_asset", Outcome.CRITICAL, 1)


def test_a_friends_help_is_a_die_and_no_healer_rolls_none():
    """RULES.md "Downtime activities": +1d when a friend or contact helps; no healer,
    roll 0d."""
    assert HELP_DICE == 1
    assert UNTREATED_DICE == 0


def test_a_pcs_review_gives_at_most_two_xp_for_each_of_its_three_lines():
    assert SESSION_XP_MAX == 6


def test_each_way_out_asks_only_what_it_needs():
    """003 Arrest: "hand someone over" names who goes inside (and the PC, if one does),
    and the faction helped inside that their time may earn status with;
    Questioning is "a fortune roll" on the one questioned; Reprisals are paid "per Tier
    of the enemy", so the faction is named; Show of Force's "give them a claim" names it;
    Interrogation's beating names the PC beaten; paying off the squad asks nothing more."""
    arrest = {c.key: c.needs for c in entanglement_choices("Arrest", wanted=1, crew_tier=0)}
    assert arrest["pay"] == ()
    assert arrest["hand_over"] == ("faction", "character", "prisoner", "prison_claim")
    questioning = entanglement_choices("Questioning", wanted=0, crew_tier=0)
    assert [c.needs for c in questioning] == [("dice",), ()]
    assert entanglement_choices("Reprisals", wanted=0, crew_tier=0)[0].needs == ("faction",)
    show_of_force = entanglement_choices("Show of Force", wanted=0, crew_tier=0)
    assert [c.needs for c in show_of_force] == [("claim",), ("faction",)]
    beaten = {c.key: c.needs for c in entanglement_choices("Interrogation", wanted=0, crew_tier=0)}
    assert beaten["talk"] == ("character",) and beaten["resisted-harm0-heat3"] == ()
