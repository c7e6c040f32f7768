import pytest

from blades.rules.character import RuleError
from blades.rules.crew import (
    AdvanceSpent,
    UpgradeChange,
    add_crew_coin_within,
    check_edges_and_flaws,
    cohort_cost,
    cohort_harm,
    has_mastery,
    mark_upgrade,
    spend_advance,
    training_xp,
    turf_count,
    vault_coin_limit,
)


@pytest.mark.parametrize("held,turf", [(0, 0), (1, 1), (4, 4), (6, 6), (7, 6), (9, 6)])
def test_turf_count_stops_at_six(held, turf):
    assert turf_count(held) == turf


def test_turf_count_refuses_negative():
    with pytest.raises(RuleError):
        turf_count(-1)


@pytest.mark.parametrize("coin,amount,limit,result", [(0, 4, 4, 4), (3, 1, 4, 4), (8, -8, 8, 0)])
def test_coin_by_hand_within_the_vault(coin, amount, limit, result):
    assert add_crew_coin_within(coin, amount, limit) == result


@pytest.mark.parametrize("coin,amount,limit", [(4, 1, 4), (0, 17, 16), (2, -3, 4)])
def test_coin_by_hand_refused_past_the_vault_or_below_zero(coin, amount, limit):
    with pytest.raises(RuleError):
        add_crew_coin_within(coin, amount, limit)


def test_coin_already_over_the_limit_can_still_be_spent():
    # Payoff may leave excess; spending it down is always allowed.
    assert add_crew_coin_within(10, -1, 4) == 9


@pytest.mark.parametrize(
    "boxes,expected", [({}, False), ({"mastery": 3}, False), ({"mastery": 4}, True)]
)
def test_mastery_needs_all_four_boxes(boxes, expected):
    """Mastery (crew_upgrades.json, 4 boxes): "Action ratings can advance up to 4"; 001:
    "Each action has a rating (from zero to 4)"."""
    assert has_mastery(boxes) is expected


@pytest.mark.parametrize(
    "track,upgrades,xp",
    [
        ("insight", {}, 1),
        ("insight", {"insight": 1}, 2),
        ("prowess", {"insight": 1}, 1),
        ("prowess", {"prowess": 1}, 2),
        ("resolve", {"resolve": 1}, 2),
        ("playbook", {"personal": 1}, 2),
        ("playbook", {}, 1),
    ],
)
def test_training_xp_by_upgrade(track, upgrades, xp):
    """001: "When you train, mark xp in one of your attributes or in your playbook";
    crew_upgrades.json: Insight "Training Insight marks 2 xp instead of 1", and so
    Prowess, Resolve, and Personal (the playbook track)."""
    assert training_xp(track, upgrades) == xp


def test_training_unknown_track_refused():
    with pytest.raises(RuleError):
        training_xp("hunt", {})


@pytest.mark.parametrize("vault,limit", [(0, 4), (1, 8), (2, 16)])
def test_vault_limit(vault, limit):
    """001 §Coin: "A crew can also store 4 coin in their lair, by default. If they upgrade
    to a vault, they can expand their stores to 8 and then 16 coin" (Vault)."""
    assert vault_coin_limit({"vault": vault}) == limit


def test_mark_upgrade_spends_a_free_box_and_unmark_returns_it():
    assert mark_upgrade(0, 2, 2, 1) == UpgradeChange(marked=1, boxes_free=1)
    assert mark_upgrade(1, 2, 1, -1) == UpgradeChange(marked=0, boxes_free=2)


@pytest.mark.parametrize(
    "marked,boxes,free,by",
    [(2, 2, 3, 1), (0, 2, 0, 1), (0, 1, 1, -1), (4, 4, 1, 1)],
)
def test_mark_upgrade_refusals(marked, boxes, free, by):
    with pytest.raises(RuleError):
        mark_upgrade(marked, boxes, free, by)


def test_spend_advance_on_ability_or_two_boxes():
    assert spend_advance(1, "ability", 0) == AdvanceSpent(advances=0, boxes_free=0, ability=True)
    assert spend_advance(2, "upgrades", 1) == AdvanceSpent(advances=1, boxes_free=3, ability=False)


@pytest.mark.parametrize("advances,on", [(0, "ability"), (0, "upgrades"), (1, "coin")])
def test_spend_advance_refusals(advances, on):
    with pytest.raises(RuleError):
        spend_advance(advances, on, 0)


@pytest.mark.parametrize(
    "harm,name", [(0, "Unharmed"), (1, "Weakened"), (2, "Impaired"), (3, "Broken"), (4, "Dead")]
)
def test_cohort_harm_names(harm, name):
    assert cohort_harm(harm) == name


def test_cohort_harm_out_of_range():
    with pytest.raises(RuleError):
        cohort_harm(5)


@pytest.mark.parametrize("edges,flaws", [(1, 1), (2, 2)])
def test_edges_and_flaws_match(edges, flaws):
    check_edges_and_flaws(edges, flaws)


@pytest.mark.parametrize("edges,flaws", [(0, 0), (3, 3), (1, 2), (2, 1)])
def test_edges_and_flaws_refused(edges, flaws):
    with pytest.raises(RuleError):
        check_edges_and_flaws(edges, flaws)


@pytest.mark.parametrize("types,cost", [(1, 2), (2, 4)])
def test_cohort_cost(types, cost):
    """crew_upgrades.json: New cohort, 2 boxes, "Recruit a gang or an expert"; Add cohort
    type, 2 boxes, "Give an existing cohort a second type (max 2 types)"."""
    assert cohort_cost(types) == cost


def test_cohort_with_three_types_refused():
    with pytest.raises(RuleError):
        cohort_cost(3)
