import pytest

from blades.rules.dice import Outcome, Roll
from blades.rules.rolls import (
    ASSIST_DICE,
    ASSIST_STRESS,
    BARGAIN_DICE,
    CONSEQUENCE_KINDS,
    INFORMATION_LABELS,
    OVERINDULGENCES,
    PUSH_DICE,
    PUSH_EFFECT,
    PUSH_STRESS,
    SENTENCES,
    ActionOutcome,
    Effect,
    GroupResult,
    IncarcerationResult,
    Position,
    RollKind,
    RuleError,
    ViceResult,
    action_outcome,
    action_pool,
    desperate_xp,
    downtime_ticks,
    effect_ticks,
    engagement_pool,
    engagement_position,
    entanglement_pool,
    entanglement_table,
    entanglements,
    fortune_pool,
    fortune_result,
    group_action,
    heat_column,
    incarceration_result,
    indulge_vice,
    information_detail,
    outcome_rank,
    push_stress,
    raise_effect,
    raise_outcome,
    reduce_effect,
    resistance_stress,
    summarize,
    tier_result,
)

C, S, P, B = Outcome.CRITICAL, Outcome.SUCCESS, Outcome.PARTIAL, Outcome.BAD
CONTROLLED, RISKY, DESPERATE = Position.CONTROLLED, Position.RISKY, Position.DESPERATE

# One die of each outcome, for the tables that only care about the outcome.
ROLL_OF = {C: Roll(2, (6, 6)), S: Roll(1, (6,)), P: Roll(1, (5,)), B: Roll(1, (2,))}


# --- Outcome ladder --------------------------------------------------------


@pytest.mark.parametrize(("outcome", "rank"), [(B, 0), (P, 1), (S, 2), (C, 3)])
def test_outcome_rank(outcome, rank):
    assert outcome_rank(outcome) == rank


@pytest.mark.parametrize(
    ("outcome", "levels", "raised"),
    [
        (B, 0, B),
        (B, 1, P),
        (B, 2, S),
        (B, 3, C),
        (B, 7, C),
        (P, 1, S),
        (P, 2, C),
        (S, 1, C),
        (S, 0, S),
        (C, 1, C),
    ],
)
def test_raise_outcome(outcome, levels, raised):
    assert raise_outcome(outcome, levels) is raised


def test_raise_outcome_refuses_negative_levels():
    with pytest.raises(ValueError):
        raise_outcome(S, -1)


# --- Position and effect ---------------------------------------------------


@pytest.mark.parametrize(
    ("position", "value", "label"),
    [
        (CONTROLLED, "controlled", "Controlled"),
        (RISKY, "risky", "Risky"),
        (DESPERATE, "desperate", "Desperate"),
    ],
)
def test_position_values_and_labels(position, value, label):
    assert position.value == value
    assert position.label == label


@pytest.mark.parametrize(
    ("effect", "value", "key", "label"),
    [
        (Effect.ZERO, 0, "zero", "Zero"),
        (Effect.LIMITED, 1, "limited", "Limited"),
        (Effect.STANDARD, 2, "standard", "Standard"),
        (Effect.GREAT, 3, "great", "Great"),
        (Effect.EXTREME, 4, "extreme", "Extreme"),
    ],
)
def test_effect_levels(effect, value, key, label):
    assert effect == value
    assert effect.key == key
    assert effect.label == label


@pytest.mark.parametrize(
    ("effect", "ticks", "critical_ticks"),
    [
        (Effect.ZERO, 0, 1),
        (Effect.LIMITED, 1, 2),
        (Effect.STANDARD, 2, 3),
        (Effect.GREAT, 3, 4),
        (Effect.EXTREME, 4, 4),
    ],
)
def test_effect_ticks(effect, ticks, critical_ticks):
    assert effect_ticks(effect) == ticks
    assert effect_ticks(effect, critical=False) == ticks
    assert effect_ticks(effect, critical=True) == critical_ticks


@pytest.mark.parametrize(
    ("effect", "levels", "raised"),
    [
        (Effect.ZERO, 1, Effect.LIMITED),
        (Effect.STANDARD, 1, Effect.GREAT),
        (Effect.STANDARD, 2, Effect.EXTREME),
        (Effect.GREAT, 5, Effect.EXTREME),
        (Effect.EXTREME, 1, Effect.EXTREME),
        (Effect.LIMITED, 0, Effect.LIMITED),
    ],
)
def test_raise_effect(effect, levels, raised):
    assert raise_effect(effect, levels) is raised


@pytest.mark.parametrize(
    ("effect", "levels", "reduced"),
    [
        (Effect.EXTREME, 1, Effect.GREAT),
        (Effect.STANDARD, 1, Effect.LIMITED),
        (Effect.STANDARD, 2, Effect.ZERO),
        (Effect.LIMITED, 4, Effect.ZERO),
        (Effect.ZERO, 1, Effect.ZERO),
    ],
)
def test_reduce_effect(effect, levels, reduced):
    assert reduce_effect(effect, levels) is reduced


def test_effect_steps_default_to_one_level():
    assert raise_effect(Effect.STANDARD) is Effect.GREAT
    assert reduce_effect(Effect.STANDARD) is Effect.LIMITED


@pytest.mark.parametrize(("position", "xp"), [(CONTROLLED, 0), (RISKY, 0), (DESPERATE, 1)])
def test_desperate_xp(position, xp):
    assert desperate_xp(position) == xp


# --- Action roll -----------------------------------------------------------

ACTION_TABLE = [
    (CONTROLLED, C, "You do it with increased effect.", (), None),
    (CONTROLLED, S, "You do it.", (), None),
    (
        CONTROLLED,
        P,
        "You hesitate: withdraw and try another way, or do it with a minor consequence.",
        ("complication", "reduced_effect", "harm", "worse_position"),
        "minor",
    ),
    (
        CONTROLLED,
        B,
        "You falter: press on from a risky position, or withdraw and try another way.",
        ("worse_position",),
        "standard",
    ),
    (RISKY, C, "You do it with increased effect.", (), None),
    (RISKY, S, "You do it.", (), None),
    (
        RISKY,
        P,
        "You do it, but there is a consequence.",
        ("harm", "complication", "reduced_effect", "worse_position"),
        "standard",
    ),
    (
        RISKY,
        B,
        "Things go badly.",
        ("harm", "complication", "worse_position", "lost_opportunity"),
        "standard",
    ),
    (DESPERATE, C, "You do it with increased effect.", (), None),
    (DESPERATE, S, "You do it.", (), None),
    (
        DESPERATE,
        P,
        "You do it, but there is a serious consequence.",
        ("harm", "complication", "reduced_effect"),
        "severe",
    ),
    (
        DESPERATE,
        B,
        "It's the worst outcome.",
        ("harm", "complication", "lost_opportunity"),
        "severe",
    ),
]


@pytest.mark.parametrize(("position", "outcome", "text", "consequences", "severity"), ACTION_TABLE)
def test_action_outcome_cell(position, outcome, text, consequences, severity):
    assert action_outcome(position, outcome) == ActionOutcome(
        outcome=outcome,
        position=position,
        text=text,
        consequences=consequences,
        severity=severity,
        succeeded=outcome is not B,
    )


def test_action_table_covers_every_cell():
    assert {(row[0], row[1]) for row in ACTION_TABLE} == {
        (position, outcome) for position in Position for outcome in Outcome
    }


@pytest.mark.parametrize(
    ("position", "outcome", "expected"), [(RISKY, B, False), (CONTROLLED, P, True)]
)
def test_action_succeeded(position, outcome, expected):
    assert action_outcome(position, outcome).succeeded is expected


def test_consequence_kinds():
    assert CONSEQUENCE_KINDS == {
        "harm": "Harm",
        "complication": "Complication",
        "reduced_effect": "Reduced effect",
        "worse_position": "Worse position",
        "lost_opportunity": "Lost opportunity",
    }
    offered = {kind for row in ACTION_TABLE for kind in row[3]}
    assert offered == set(CONSEQUENCE_KINDS)


@pytest.mark.parametrize(
    ("kwargs", "pool"),
    [
        ({"rating": 0}, 0),
        ({"rating": 2}, 2),
        ({"rating": 2, "assist": True}, 3),
        ({"rating": 2, "push": True}, 3),
        ({"rating": 2, "bargain": True}, 3),
        ({"rating": 3, "assist": True, "push": True}, 5),
        ({"rating": 3, "assist": True, "bargain": True}, 5),
        ({"rating": 1, "assist": True, "bargain": True, "extra_dice": 1}, 4),
        ({"rating": 1, "extra_dice": -1}, 0),
        ({"rating": 0, "extra_dice": -1}, 0),  # a zero pool: 2d, keep the lowest
    ],
)
def test_action_pool(kwargs, pool):
    assert action_pool(**kwargs) == pool


def test_each_bonus_is_one_die_or_one_level():
    """001: an assist gives +1d; a push +1d or +1 effect; a devil's bargain +1d."""
    assert (ASSIST_DICE, PUSH_DICE, BARGAIN_DICE, PUSH_EFFECT) == (1, 1, 1, 1)


def test_action_pool_refuses_push_and_bargain_together():
    with pytest.raises(RuleError):
        action_pool(2, push=True, bargain=True)


def test_action_pool_refuses_negative_rating():
    with pytest.raises(RuleError):
        action_pool(-1)


@pytest.mark.parametrize(
    ("push_dice", "push_effect", "stress"),
    [(False, False, 0), (True, False, 2), (False, True, 2), (True, True, 4)],
)
def test_push_stress(push_dice, push_effect, stress):
    assert push_stress(push_dice, push_effect) == stress


def test_stress_constants():
    assert ASSIST_STRESS == 1
    assert PUSH_STRESS == 2


# --- Resistance ------------------------------------------------------------


@pytest.mark.parametrize(
    ("pool", "dice", "stress"),
    [
        (1, (1,), 5),
        (2, (2, 1), 4),
        (3, (3, 1, 2), 3),
        (2, (4, 4), 2),
        (1, (5,), 1),
        (3, (6, 2, 5), 0),
        (2, (6, 6), -1),
        (4, (6, 1, 6, 6), -1),
    ],
)
def test_resistance_stress(pool, dice, stress):
    assert resistance_stress(Roll(pool, dice)) == stress


@pytest.mark.parametrize(("dice", "stress"), [((6, 6), 0), ((6, 2), 4), ((5, 4), 2), ((1, 6), 5)])
def test_zero_pool_resistance_uses_lowest_die(dice, stress):
    assert resistance_stress(Roll(0, dice)) == stress


# --- Fortune, engagement, information --------------------------------------


@pytest.mark.parametrize(
    ("outcome", "result"),
    [(C, "great"), (S, "standard"), (P, "limited"), (B, "poor")],
)
def test_fortune_result(outcome, result):
    """000 §Fortune roll: critical great/extreme, 6 standard, 4-5 limited, 1-3 poor."""
    assert fortune_result(outcome) == result


@pytest.mark.parametrize(
    ("args", "pool"),
    [((2,), 2), ((0,), 0), ((1, 1), 2), ((3, 0, 1), 2), ((1, 0, 2), -1), ((2, 2, 1), 3)],
)
def test_fortune_pool(args, pool):
    assert fortune_pool(*args) == pool


@pytest.mark.parametrize("args", [(-1,), (1, -1), (1, 0, -1)])
def test_fortune_pool_refuses_negative_counts(args):
    with pytest.raises(ValueError):
        fortune_pool(*args)


@pytest.mark.parametrize(
    ("advantages", "disadvantages", "pool"),
    [(0, 0, 1), (1, 0, 2), (3, 0, 4), (0, 1, 0), (0, 2, -1), (2, 1, 2)],
)
def test_engagement_pool(advantages, disadvantages, pool):
    assert engagement_pool(advantages, disadvantages) == pool


def test_engagement_pool_refuses_negative_counts():
    with pytest.raises(ValueError):
        engagement_pool(-1, 0)


@pytest.mark.parametrize(
    ("outcome", "position", "past_first_obstacle"),
    [(C, CONTROLLED, True), (S, CONTROLLED, False), (P, RISKY, False), (B, DESPERATE, False)],
)
def test_engagement_position(outcome, position, past_first_obstacle):
    assert engagement_position(outcome) == (position, past_first_obstacle)


@pytest.mark.parametrize(
    ("outcome", "detail", "label"),
    [
        (C, "great", "Great detail"),
        (S, "standard", "Standard detail"),
        (P, "limited", "Limited detail"),
        (B, "poor", "Little detail"),
    ],
)
def test_information_detail(outcome, detail, label):
    assert information_detail(outcome) == detail
    assert INFORMATION_LABELS[detail] == label


# --- Group action ----------------------------------------------------------


@pytest.mark.parametrize(
    ("rolls", "expected"),
    [
        ([Roll(1, (5,))], GroupResult(P, 0, 0)),
        ([Roll(1, (2,))], GroupResult(B, 1, 0)),
        ([Roll(2, (1, 3)), Roll(1, (4,)), Roll(3, (6, 2, 2))], GroupResult(S, 1, 2)),
        ([Roll(1, (2,)), Roll(1, (3,)), Roll(1, (1,))], GroupResult(B, 3, 0)),
        ([Roll(1, (3,)), Roll(2, (6, 6)), Roll(1, (6,)), Roll(0, (1, 2))], GroupResult(C, 2, 1)),
        ([Roll(1, (5,)), Roll(1, (4,))], GroupResult(P, 0, 0)),
        # A zero-pool double six is only a 6, and a zero pool with a low die is a 1-3.
        ([Roll(0, (6, 6)), Roll(1, (6,)), Roll(0, (6, 3))], GroupResult(S, 1, 0)),
    ],
)
def test_group_action(rolls, expected):
    assert group_action(rolls) == expected


def test_a_cohort_counts_for_the_groups_best_but_not_the_leaders_stress():
    """000 §Lead a group action: "The cohort rolls its quality level"; the leader takes
    "1 stress for each PC that rolled 1-3"."""
    pcs = [Roll(1, (2,)), Roll(2, (3, 1))]
    assert group_action(pcs, [Roll(2, (6, 4))]) == GroupResult(S, 2, 2)
    assert group_action(pcs, [Roll(1, (1,)), Roll(1, (5,))]) == GroupResult(P, 2, 3)


def test_group_action_needs_rolls():
    with pytest.raises(ValueError):
        group_action([])


# --- Indulge vice ----------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "stress_marked", "expected"),
    [
        (Roll(2, (3, 4)), 6, ViceResult(cleared=4, relief=4, overindulged=False)),
        (Roll(1, (5,)), 5, ViceResult(cleared=5, relief=5, overindulged=False)),
        (Roll(2, (6, 1)), 2, ViceResult(cleared=2, relief=6, overindulged=True)),
        (Roll(2, (6, 6)), 9, ViceResult(cleared=6, relief=6, overindulged=False)),
        (Roll(1, (1,)), 0, ViceResult(cleared=0, relief=1, overindulged=True)),
        (Roll(0, (5, 2)), 3, ViceResult(cleared=2, relief=2, overindulged=False)),
    ],
)
def test_indulge_vice(roll, stress_marked, expected):
    assert indulge_vice(roll, stress_marked) == expected


def test_indulge_vice_refuses_negative_stress():
    with pytest.raises(ValueError):
        indulge_vice(Roll(1, (3,)), -1)


def test_overindulgences():
    assert list(OVERINDULGENCES) == ["attract_trouble", "brag", "lost", "tapped"]
    assert [o.label for o in OVERINDULGENCES.values()] == [
        "Attract Trouble",
        "Brag",
        "Lost",
        "Tapped",
    ]
    assert "+2 heat" in OVERINDULGENCES["brag"].description
    assert "entanglement" in OVERINDULGENCES["attract_trouble"].description


# --- Downtime --------------------------------------------------------------


@pytest.mark.parametrize(("outcome", "ticks"), [(B, 1), (P, 2), (S, 3), (C, 5)])
def test_downtime_ticks(outcome, ticks):
    assert downtime_ticks(outcome) == ticks


@pytest.mark.parametrize(
    ("tier", "outcome", "quality"),
    [
        (2, B, 1),
        (2, P, 2),
        (2, S, 3),
        (2, C, 4),
        (0, B, 0),
        (0, P, 0),
        (0, S, 1),
        (0, C, 2),
        (1, B, 0),
        (4, C, 6),
    ],
)
def test_tier_result(tier, outcome, quality):
    assert tier_result(tier, outcome) == quality


# --- Entanglements ---------------------------------------------------------


@pytest.mark.parametrize(
    ("heat", "column"),
    [(0, "0-3"), (3, "0-3"), (4, "4-5"), (5, "4-5"), (6, "6+"), (8, "6+"), (9, "6+")],
)
def test_heat_column(heat, column):
    assert heat_column(heat) == column


def test_heat_column_refuses_negative_heat():
    with pytest.raises(ValueError):
        heat_column(-1)


@pytest.mark.parametrize(("wanted", "pool"), [(0, 0), (1, 1), (4, 4)])
def test_entanglement_pool(wanted, pool):
    assert entanglement_pool(wanted) == pool


@pytest.mark.parametrize("wanted", [-1, 5])
def test_entanglement_pool_refuses_impossible_wanted(wanted):
    with pytest.raises(ValueError):
        entanglement_pool(wanted)


@pytest.mark.parametrize(
    ("heat", "outcome", "expected"),
    [
        (2, B, ("Gang Trouble", "The Usual Suspects")),
        (2, P, ("Rivals", "Unquiet Dead")),
        (2, S, ("Cooperation",)),
        (4, B, ("Gang Trouble", "Questioning")),
        (4, P, ("Reprisals", "Unquiet Dead")),
        (4, S, ("Show of Force",)),
        (7, B, ("Flipped", "Interrogation")),
        (7, P, ("Demonic Notice", "Show of Force")),
        (7, S, ("Arrest",)),
        (0, C, ("Cooperation",)),
        (5, C, ("Show of Force",)),
        (6, C, ("Arrest",)),
    ],
)
def test_entanglements(heat, outcome, expected):
    assert entanglements(heat, outcome) == expected


def lit(offered, outcome):
    table = entanglement_table(offered, outcome)
    return [(cell.result, cell.heat) for row in table for cell in row if cell.lit]


def test_the_entanglement_table_reads_as_the_book_with_the_rolled_cell_lit():
    table = entanglement_table([], None)
    assert [row[0].result for row in table] == [B, P, S]
    assert [cell.heat for cell in table[0]] == ["0-3", "4-5", "6+"]
    assert table[2][2].names == ("Arrest",) and not any(c.lit for row in table for c in row)
    assert lit(["Rivals", "Unquiet Dead"], P) == [(P, "0-3")]
    # A critical reads as a 6; Show of Force at 4/5 heat is not lit by 6+'s partial.
    assert lit(["Arrest"], C) == [(S, "6+")]
    assert lit(["Demonic Notice", "Show of Force"], P) == [(P, "6+")]


def test_slippery_lights_both_cells_its_two_rolls_read():
    assert lit(["Gang Trouble", "Questioning", "Show of Force"], B) == [(B, "4-5"), (S, "4-5")]


# --- Incarceration ---------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "rep", "claims", "status", "trauma"),
    [(C, 3, 1, 1, 0), (S, 0, 1, 1, 0), (P, 0, 0, 0, 0), (B, 0, 0, 0, 1)],
)
def test_incarceration_result(outcome, rep, claims, status, trauma):
    result = incarceration_result(outcome)
    assert isinstance(result, IncarcerationResult)
    assert (result.rep, result.prison_claims, result.status, result.trauma) == (
        rep,
        claims,
        status,
        trauma,
    )


def test_sentences():
    assert SENTENCES == {
        0: "a few weeks",
        1: "a month or two",
        2: "several months",
        3: "a year or two",
        4: "life imprisonment or execution",
    }


# --- Roll log --------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "value", "label"),
    [
        (RollKind.ACTION, "action", "Action"),
        (RollKind.RESISTANCE, "resistance", "Resistance"),
        (RollKind.FORTUNE, "fortune", "Fortune"),
        (RollKind.ENGAGEMENT, "engagement", "Engagement"),
        (RollKind.INFORMATION, "information", "Gather information"),
        (RollKind.VICE, "vice", "Indulge vice"),
        (RollKind.DOWNTIME, "downtime", "Downtime"),
        (RollKind.ENTANGLEMENT, "entanglement", "Entanglement"),
        (RollKind.INCARCERATION, "incarceration", "Incarceration"),
        (RollKind.GROUP, "group", "Group action"),
    ],
)
def test_roll_kind(kind, value, label):
    assert kind.value == value
    assert kind.label == label


def test_roll_kind_has_ten_members():
    assert len(RollKind) == 10


@pytest.mark.parametrize(
    ("kind", "roll", "kwargs", "line"),
    [
        (RollKind.ACTION, ROLL_OF[P], {}, "Partial success"),
        (RollKind.ACTION, ROLL_OF[C], {"position": CONTROLLED}, "Critical"),
        (RollKind.ACTION, ROLL_OF[B], {"position": DESPERATE}, "Bad outcome, mark 1 xp"),
        (RollKind.GROUP, ROLL_OF[S], {}, "Full success"),
        (RollKind.GROUP, ROLL_OF[P], {"position": DESPERATE}, "Partial success, mark 1 xp"),
        (RollKind.RESISTANCE, Roll(2, (4, 1)), {}, "Take 2 stress"),
        (RollKind.RESISTANCE, Roll(1, (5,)), {}, "Take 1 stress"),
        (RollKind.RESISTANCE, Roll(1, (6,)), {}, "Take no stress"),
        (RollKind.RESISTANCE, Roll(2, (6, 6)), {}, "Clear 1 stress"),
        (RollKind.RESISTANCE, Roll(0, (6, 6)), {}, "Take no stress"),
        (RollKind.FORTUNE, ROLL_OF[C], {}, "Great effect"),
        (RollKind.FORTUNE, ROLL_OF[S], {}, "Standard effect"),
        (RollKind.FORTUNE, ROLL_OF[P], {}, "Limited effect"),
        (RollKind.FORTUNE, ROLL_OF[B], {}, "Poor effect"),
        (RollKind.ENGAGEMENT, ROLL_OF[C], {}, "Controlled, past the first obstacle"),
        (RollKind.ENGAGEMENT, ROLL_OF[S], {}, "Controlled position"),
        (RollKind.ENGAGEMENT, ROLL_OF[P], {}, "Risky position"),
        (RollKind.ENGAGEMENT, ROLL_OF[B], {}, "Desperate position"),
        (RollKind.INFORMATION, ROLL_OF[S], {}, "Standard detail"),
        (RollKind.INFORMATION, ROLL_OF[B], {}, "Little detail"),
        (RollKind.VICE, Roll(2, (4, 1)), {}, "Relief 4"),
        (RollKind.VICE, Roll(0, (4, 1)), {}, "Relief 1"),
        (RollKind.DOWNTIME, ROLL_OF[B], {}, "1 tick"),
        (RollKind.DOWNTIME, ROLL_OF[S], {}, "3 ticks"),
        (RollKind.DOWNTIME, ROLL_OF[C], {}, "5 ticks"),
        (RollKind.ENTANGLEMENT, ROLL_OF[B], {}, "Gang Trouble or The Usual Suspects"),
        (RollKind.ENTANGLEMENT, ROLL_OF[C], {"heat": 6}, "Arrest"),
        (RollKind.ENTANGLEMENT, Roll(0, (5, 6)), {"heat": 4}, "Reprisals or Unquiet Dead"),
        (RollKind.INCARCERATION, ROLL_OF[C], {}, "+3 rep, a prison claim and +1 status"),
        (RollKind.INCARCERATION, ROLL_OF[S], {}, "A prison claim and +1 status"),
        (RollKind.INCARCERATION, ROLL_OF[P], {}, "Nothing happens"),
        (RollKind.INCARCERATION, ROLL_OF[B], {}, "The prisoner takes 1 trauma"),
    ],
)
def test_summarize(kind, roll, kwargs, line):
    assert str(summarize(kind, roll, **kwargs)) == line


def test_summarize_accepts_plain_kind_value():
    assert str(summarize("downtime", ROLL_OF[P])) == "2 ticks"


def test_a_summary_is_read_in_its_readers_language(spanish):
    # The same stored line, read where another catalog is installed: each rule word too.
    assert str(summarize(RollKind.ENTANGLEMENT, ROLL_OF[B])) == "Gang Trouble o The Usual Suspects"


def test_summarize_refuses_unknown_kind():
    with pytest.raises(ValueError):
        summarize("healing", ROLL_OF[P])


def test_every_roll_kind_summarizes():
    for kind in RollKind:
        for outcome_roll in ROLL_OF.values():
            assert summarize(kind, outcome_roll)


# --- Incarceration and the prison claims (003) ---------------------------------------


def test_cell_block_control_means_no_trauma_from_incarceration():
    """003 Cell block control: "You never take trauma from incarceration"."""
    from blades.rules.rolls import incarceration_result

    assert incarceration_result(Outcome.BAD).trauma == 1
    assert incarceration_result(Outcome.BAD, cell_block_control=True).trauma == 0
    assert incarceration_result(Outcome.SUCCESS, cell_block_control=True).prison_claims == 1


@pytest.mark.parametrize(("tier", "guard", "pool"), [(0, False, 0), (0, True, 1), (2, True, 3)])
def test_guard_payoff_adds_1d_to_the_incarceration_roll(tier, guard, pool):
    """003 Guard payoff: "Take +1d to your Tier roll when a member of your crew is
    incarcerated"."""
    from blades.rules.rolls import incarceration_pool

    assert incarceration_pool(tier, guard_payoff=guard) == pool


@pytest.mark.parametrize(
    ("wanted", "parole", "text"),
    [(3, False, "a year or two"), (3, True, "several months"), (0, True, "a few weeks")],
)
def test_parole_influence_serves_as_if_wanted_were_1_lower(wanted, parole, text):
    """003 Parole influence: "as if your wanted level was 1 lower. So, if your wanted level
    was 3 when you went in, you'd spend only several months behind bars"."""
    from blades.rules.rolls import sentence

    assert sentence(wanted, parole_influence=parole).startswith(text)
