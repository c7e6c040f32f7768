import pytest

from blades.rules.character import RuleError, XpChange
from blades.rules.crew import (
    CREW_XP_DEFAULT,
    EXPOSURE,
    FACTION_TIER_MAX,
    GANG_SCALE,
    HEAT_MAX,
    JOB_COIN,
    STATUS_LABELS,
    TIER_MAX,
    TURF_MAX,
    WANTED_MAX,
    CoinChange,
    Development,
    HeatChange,
    RepChange,
    WarEffects,
    add_crew_coin,
    add_heat,
    add_rep,
    advance_stash_gain,
    cohort_dice,
    cohort_quality,
    crew_coin_limit,
    develop,
    downtime_activities,
    effective_hold,
    gang_scale,
    heal_cohort,
    heat_steps,
    incarcerate,
    mark_crew_xp,
    rep_track,
    score_heat,
    score_rep,
    set_status,
    tier_up_cost,
    tithe,
    unwind_heat,
    war_effects,
)


def test_constants():
    assert (TIER_MAX, FACTION_TIER_MAX, TURF_MAX, HEAT_MAX, WANTED_MAX) == (4, 5, 6, 9, 4)
    assert CREW_XP_DEFAULT == 8


# --- Rep, turf and development -------------------------------------------------------


@pytest.mark.parametrize(("turf", "track"), [(0, 12), (1, 11), (2, 10), (4, 8), (6, 6)])
def test_rep_track(turf, track):
    assert rep_track(turf) == track


@pytest.mark.parametrize("turf", [-1, 7])
def test_rep_track_turf_limits(turf):
    with pytest.raises(RuleError, match="Turf must be between 0 and 6"):
        rep_track(turf)


@pytest.mark.parametrize(
    ("rep", "turf", "amount", "expected"),
    [
        (0, 0, 2, RepChange(2, False)),
        (9, 0, 2, RepChange(11, False)),
        (10, 0, 2, RepChange(12, True)),
        (11, 0, 3, RepChange(12, True)),  # capped at the track
        (12, 0, 2, RepChange(12, True)),  # no rep earned while full
        (7, 2, 2, RepChange(9, False)),
        (9, 2, 1, RepChange(10, True)),
        (5, 6, 4, RepChange(6, True)),
        (11, 2, 0, RepChange(10, True)),  # new turf shortened the track under the rep
        (5, 0, -2, RepChange(3, False)),  # forfeiting rep
        (12, 0, -1, RepChange(11, False)),
        (3, 0, -3, RepChange(0, False)),
    ],
)
def test_add_rep(rep, turf, amount, expected):
    assert add_rep(rep, turf, amount) == expected


@pytest.mark.parametrize(
    ("rep", "turf", "amount", "message"),
    [
        (2, 0, -3, "The crew has only 2 rep"),
        (13, 0, 1, "Rep must be between 0 and 12"),
        (-1, 0, 1, "Rep must be between"),
        (0, 7, 1, "Turf must be"),
    ],
)
def test_add_rep_errors(rep, turf, amount, message):
    with pytest.raises(RuleError, match=message):
        add_rep(rep, turf, amount)


@pytest.mark.parametrize(
    ("crew", "target", "quiet", "rep"),
    [
        (0, 0, False, 2),
        (1, 1, False, 2),
        (0, 1, False, 3),
        (0, 3, False, 5),
        (2, 5, False, 5),
        (1, 0, False, 1),
        (2, 0, False, 0),
        (4, 0, False, 0),  # minimum 0, never negative
        (0, 3, True, 0),  # completely quiet
        (2, 2, True, 0),
    ],
)
def test_score_rep(crew, target, quiet, rep):
    assert score_rep(crew, target, quiet=quiet) == rep


def test_score_rep_defaults_to_not_quiet():
    assert score_rep(1, 2) == 3


@pytest.mark.parametrize(("tier", "cost"), [(0, 8), (1, 16), (2, 24), (3, 32)])
def test_tier_up_cost(tier, cost):
    assert tier_up_cost(tier) == cost


@pytest.mark.parametrize("tier", [-1, 4])
def test_tier_up_cost_limits(tier):
    with pytest.raises(RuleError, match="Tier must be between 0 and 3"):
        tier_up_cost(tier)


@pytest.mark.parametrize(
    ("tier", "hold", "rep", "turf", "coin", "expected"),
    [
        # Weak hold: becomes strong, rep resets, tier and coin unchanged.
        (1, "weak", 12, 0, 0, Development(1, "strong", 0, 0, "strong_hold")),
        (2, "weak", 9, 3, 5, Development(2, "strong", 0, 5, "strong_hold")),
        # Strong hold: pay new tier x 8, rise a tier, hold weak, rep 0.
        (0, "strong", 12, 0, 8, Development(1, "weak", 0, 0, "tier_up")),
        (0, "strong", 12, 0, 11, Development(1, "weak", 0, 3, "tier_up")),
        (1, "strong", 10, 2, 16, Development(2, "weak", 0, 0, "tier_up")),
        (3, "strong", 6, 6, 40, Development(4, "weak", 0, 8, "tier_up")),
        # Weak hold at the top tier can still firm up.
        (4, "weak", 12, 0, 0, Development(4, "strong", 0, 0, "strong_hold")),
    ],
)
def test_develop(tier, hold, rep, turf, coin, expected):
    assert develop(tier, hold, rep, turf, coin) == expected


@pytest.mark.parametrize(
    ("tier", "hold", "rep", "turf", "coin", "message"),
    [
        (0, "strong", 11, 0, 8, r"needs 12 rep to develop \(it has 11\)"),
        (0, "weak", 9, 2, 8, r"needs 10 rep"),
        (0, "strong", 12, 0, 7, "Rising to tier 1 costs 8 coin; the crew has 7"),
        (2, "strong", 12, 0, 23, "tier 3 costs 24 coin"),
        (4, "strong", 12, 0, 99, "already at the highest tier"),
        (0, "firm", 12, 0, 8, "not a hold"),
        (5, "weak", 12, 0, 8, "Tier must be between 0 and 4"),
        (0, "strong", 12, 0, -1, "Coin cannot be negative"),
    ],
)
def test_develop_errors(tier, hold, rep, turf, coin, message):
    with pytest.raises(RuleError, match=message):
        develop(tier, hold, rep, turf, coin)


# --- Heat and wanted level -----------------------------------------------------------


@pytest.mark.parametrize(
    ("heat", "wanted", "amount", "expected"),
    [
        (0, 0, 2, HeatChange(2, 0, 0)),
        (3, 1, 5, HeatChange(8, 1, 0)),
        (8, 0, 1, HeatChange(0, 1, 1)),  # reaching 9 exactly
        (7, 0, 4, HeatChange(2, 1, 1)),  # the rulebook example
        (7, 2, 4, HeatChange(2, 3, 1)),
        (5, 0, 13, HeatChange(0, 2, 2)),  # wraps twice
        (8, 1, 20, HeatChange(1, 4, 3)),  # wraps three times
        (8, 0, 40, HeatChange(8, 4, 4)),  # stops at wanted 4
        (6, 3, 10, HeatChange(7, 4, 1)),
        (5, 4, 6, HeatChange(8, 4, 0)),  # wanted already 4: heat holds at 8
        (8, 4, 1, HeatChange(8, 4, 0)),
        (6, 2, -2, HeatChange(4, 2, 0)),
        (2, 2, -5, HeatChange(0, 2, 0)),  # never below 0
        (0, 0, 0, HeatChange(0, 0, 0)),
    ],
)
def test_add_heat(heat, wanted, amount, expected):
    assert add_heat(heat, wanted, amount) == expected


@pytest.mark.parametrize(
    ("heat", "wanted", "message"),
    [
        (9, 0, "Heat must be between 0 and 8"),
        (-1, 0, "Heat must be between"),
        (0, 5, "Wanted level must be between 0 and 4"),
        (0, -1, "Wanted level must be between"),
    ],
)
def test_add_heat_errors(heat, wanted, message):
    with pytest.raises(RuleError, match=message):
        add_heat(heat, wanted, 1)


@pytest.mark.parametrize(
    ("heat", "wanted", "amount"),
    [(0, 0, 2), (7, 0, 2), (8, 0, 1), (8, 1, 2), (7, 3, 2), (3, 2, 1)],
)
def test_unwinding_the_heat_a_gain_gave_restores_heat_and_wanted(heat, wanted, amount):
    gained = add_heat(heat, wanted, amount)
    steps = heat_steps(gained.heat - heat, gained.wanted - wanted)
    assert steps == amount
    back = unwind_heat(gained.heat, gained.wanted, steps)
    assert back == HeatChange(heat, wanted, -gained.wanted_gained)


def test_unwinding_heat_stops_at_the_ends_of_the_track():
    assert unwind_heat(1, 0, 2) == HeatChange(0, 0, 0)
    assert unwind_heat(0, 1, 1) == HeatChange(8, 0, -1)
    assert unwind_heat(8, 4, -2) == HeatChange(8, 4, 0)
    assert heat_steps(0, 0) == 0  # wanted 4, heat 8: a gain that changed nothing


def test_exposure_table():
    assert EXPOSURE == {"quiet": 0, "contained": 2, "loud": 4, "wild": 6}


@pytest.mark.parametrize(
    ("exposure", "flags", "heat"),
    [
        ("quiet", {}, 0),
        ("contained", {}, 2),
        ("loud", {}, 4),
        ("wild", {}, 6),
        ("quiet", {"high_profile": True}, 1),
        ("contained", {"hostile_turf": True}, 3),
        ("loud", {"at_war": True}, 5),
        ("quiet", {"killing": True}, 2),
        ("contained", {"high_profile": True, "killing": True}, 5),
        (
            "wild",
            {"high_profile": True, "hostile_turf": True, "at_war": True, "killing": True},
            11,
        ),
    ],
)
def test_score_heat(exposure, flags, heat):
    options = {"high_profile": False, "hostile_turf": False, "at_war": False, "killing": False}
    assert score_heat(exposure, **{**options, **flags}) == heat


def test_score_heat_unknown_exposure():
    with pytest.raises(RuleError, match="not an exposure"):
        score_heat("noisy", high_profile=False, hostile_turf=False, at_war=False, killing=False)


@pytest.mark.parametrize(
    ("heat", "wanted", "after"),
    [(5, 2, (0, 1)), (8, 4, (0, 3)), (0, 1, (0, 0)), (3, 0, (0, 0))],
)
def test_incarcerate(heat, wanted, after):
    assert incarcerate(heat, wanted) == after


# --- Payoff and crew coin ------------------------------------------------------------


def test_job_coin():
    assert JOB_COIN == {"minor": 2, "small": 4, "standard": 6, "big": 8, "major": 10}


@pytest.mark.parametrize(("tier", "coin"), [(0, 1), (1, 2), (2, 3), (4, 5), (5, 6)])
def test_tithe(tier, coin):
    assert tithe(tier) == coin


@pytest.mark.parametrize(("boxes", "limit"), [(0, 4), (1, 8), (2, 16)])
def test_crew_coin_limit(boxes, limit):
    assert crew_coin_limit(boxes) == limit


@pytest.mark.parametrize("boxes", [-1, 3])
def test_crew_coin_limit_errors(boxes):
    with pytest.raises(RuleError, match="Vault boxes must be between 0 and 2"):
        crew_coin_limit(boxes)


@pytest.mark.parametrize(
    ("coin", "amount", "limit", "expected"),
    [
        (0, 2, 4, CoinChange(2, 0)),
        (2, 2, 4, CoinChange(4, 0)),
        (2, 6, 4, CoinChange(8, 4)),  # kept but flagged
        (6, 0, 8, CoinChange(6, 0)),
        (10, 10, 16, CoinChange(20, 4)),
        (8, -3, 4, CoinChange(5, 1)),
        (3, -3, 4, CoinChange(0, 0)),
    ],
)
def test_add_crew_coin(coin, amount, limit, expected):
    assert add_crew_coin(coin, amount, limit) == expected


@pytest.mark.parametrize(
    ("coin", "amount", "message"),
    [(2, -3, "The crew has only 2 coin"), (-1, 1, "cannot be negative")],
)
def test_add_crew_coin_errors(coin, amount, message):
    with pytest.raises(RuleError, match=message):
        add_crew_coin(coin, amount, 4)


# --- Crew advancement ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("xp", "amount", "length", "expected"),
    [
        (0, 3, 8, XpChange(3, 0)),
        (6, 2, 8, XpChange(0, 1)),
        (7, 4, 8, XpChange(3, 1)),
        (7, 4, 10, XpChange(1, 1)),
        (8, 1, 10, XpChange(9, 0)),
        (5, 11, 8, XpChange(0, 2)),
    ],
)
def test_mark_crew_xp(xp, amount, length, expected):
    assert mark_crew_xp(xp, amount, length) == expected


def test_mark_crew_xp_default_track():
    assert mark_crew_xp(7, 1) == XpChange(0, 1)


def test_mark_crew_xp_rejects_a_full_track():
    with pytest.raises(RuleError, match="Xp must be between 0 and 7"):
        mark_crew_xp(8, 1)


@pytest.mark.parametrize(("tier", "stash"), [(0, 2), (1, 3), (2, 4), (4, 6)])
def test_advance_stash_gain(tier, stash):
    assert advance_stash_gain(tier) == stash


# --- Factions and war ----------------------------------------------------------------


def test_status_labels():
    assert STATUS_LABELS == {
        3: "Allies",
        2: "Friendly",
        1: "Helpful",
        0: "Neutral",
        -1: "Interfering",
        -2: "Hostile",
        -3: "War",
    }


@pytest.mark.parametrize(
    ("status", "delta", "after"),
    [
        (0, 1, 1),
        (0, -2, -2),
        (2, 1, 3),
        (3, 1, 3),  # clamped at allies
        (2, 3, 3),
        (-2, -1, -3),
        (-3, -2, -3),  # clamped at war
        (-1, -5, -3),
        (-3, 3, 0),
        (1, 0, 1),
    ],
)
def test_set_status(status, delta, after):
    assert set_status(status, delta) == after


@pytest.mark.parametrize(
    ("at_war", "effects"),
    [(True, WarEffects(1, -1, 1)), (False, WarEffects(0, 0, 2))],
)
def test_war_effects(at_war, effects):
    assert war_effects(at_war) == effects


@pytest.mark.parametrize(
    ("hold", "tier", "at_war", "after"),
    [
        ("strong", 2, False, ("strong", 2)),
        ("weak", 2, False, ("weak", 2)),
        ("strong", 2, True, ("weak", 2)),
        ("weak", 2, True, ("weak", 1)),  # weak hold at war loses a tier
        ("weak", 0, True, ("weak", 0)),
        ("strong", 0, True, ("weak", 0)),
    ],
)
def test_effective_hold(hold, tier, at_war, after):
    assert effective_hold(hold, tier, at_war) == after


def test_effective_hold_unknown():
    with pytest.raises(RuleError, match="not a hold"):
        effective_hold("shaky", 1, True)


# --- Cohorts -------------------------------------------------------------------------


def test_gang_scale_table():
    assert GANG_SCALE == {0: "1-2", 1: "3-6", 2: "12", 3: "20", 4: "40", 5: "80"}


@pytest.mark.parametrize(("tier", "scale"), [(0, "1-2"), (1, "3-6"), (3, "20"), (5, "80")])
def test_gang_scale(tier, scale):
    assert gang_scale(tier) == scale


def test_gang_scale_off_the_ladder():
    with pytest.raises(RuleError, match="Tier must be between 0 and 5"):
        gang_scale(6)


@pytest.mark.parametrize(
    ("tier", "expert", "quality"), [(0, False, 0), (2, False, 2), (2, True, 3), (4, True, 5)]
)
def test_cohort_quality(tier, expert, quality):
    assert cohort_quality(tier, expert=expert) == quality


@pytest.mark.parametrize(("harm", "dice"), [(0, 3), (1, 3), (2, 2)])
def test_an_elite_cohort_rolls_a_die_more_its_quality_unchanged(harm, dice):
    """crew_upgrades.json: Elite Thugs "+1d to quality rolls for your Thugs cohorts", and
    so Elite Rooks, Elite Skulks, Elite Rovers and Elite Adepts: a die on the roll, not a
    level of quality (the quality still sets effect against a target's tier)."""
    assert cohort_dice(2, harm, elite=True) == dice


# --- Downtime ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("at_war", "war_dogs", "count"),
    [(False, False, 2), (True, False, 1), (True, True, 2), (False, True, 2)],
)
def test_downtime_activities(at_war, war_dogs, count):
    """001 §Faction status, War: "PCs get only one downtime action rather than two"; War
    Dogs (Bravos): "At war (status -3) the crew loses no hold and PCs keep both downtime
    activities"."""
    assert downtime_activities(at_war, war_dogs) == count


def test_downtime_activities_default():
    assert downtime_activities(True) == 1


@pytest.mark.parametrize(
    ("upgrades", "stress", "trauma"),
    [
        ({}, 9, 4),
        ({"steady": 2}, 9, 4),  # all three boxes are needed
        ({"steady": 3}, 10, 4),
        ({"composed": 3}, 10, 4),
        ({"hardened": 3}, 9, 5),
        ({"ordained": 3, "composed": 3}, 10, 5),
    ],
)
def test_crew_upgrades_that_give_an_extra_stress_or_trauma_box(upgrades, stress, trauma):
    """SRD_FACTS §6.3: Composed / Steady "+1 stress box", Hardened / Ordained "+1 trauma
    box" (three upgrade boxes each)."""
    from blades.rules.crew import stress_boxes, trauma_boxes

    assert (stress_boxes(upgrades), trauma_boxes(upgrades)) == (stress, trauma)


@pytest.mark.parametrize(("tier", "hardcase", "cost"), [(0, False, 8), (0, True, 6), (2, True, 22)])
def test_hardcase_makes_advancing_a_tier_cost_2_coin_less(tier, hardcase, cost):
    """003 Hardcase: "When your crew advances Tier, it costs 2 fewer coins than it normally
    would"."""
    assert tier_up_cost(tier, hardcase) == cost


@pytest.mark.parametrize(
    ("target", "held", "reachable"),
    [((0, 1), [(0, 0)], True), ((0, 0), [(1, 1)], False), ((1, 1), [(0, 1), (9, 9)], True)],
)
def test_claim_reachable_along_a_path_from_a_held_claim(target, held, reachable):
    """Issue 14 item 19: a claim is seized next to one the crew holds or its lair."""
    from blades.rules.crew import claim_reachable

    paths = [((0, 0), (0, 1)), ((0, 1), (1, 1))]
    assert claim_reachable(target, held, paths) is reachable


@pytest.mark.parametrize(("harm", "dice"), [(0, 2), (1, 2), (2, 1)])
def test_a_cohort_rolls_its_quality_less_a_die_when_impaired(harm, dice):
    """SRD_FACTS 6.4: "Cohort harm (4 levels): Weakened (reduced effect) → Impaired (−1d
    quality) → Broken (can't act until recovered) → Dead/destroyed"."""
    assert cohort_dice(2, harm) == dice


@pytest.mark.parametrize("harm", [3, 4])
def test_a_broken_or_dead_cohort_cannot_roll(harm):
    with pytest.raises(RuleError, match="can't act"):
        cohort_dice(2, harm)


@pytest.mark.parametrize(
    ("harm", "tended", "after"),
    [(0, False, 0), (1, False, 0), (3, False, 2), (3, True, 1), (2, True, 0), (4, True, 4)],
)
def test_cohorts_heal_a_level_each_downtime_two_when_tended(harm, tended, after):
    """SRD_FACTS 6.4: "Cohorts heal 1 level each downtime, or 2 if a PC spends an activity
    on them"."""
    assert heal_cohort(harm, tended) == after
