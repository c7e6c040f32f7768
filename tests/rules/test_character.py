import pytest

from blades.rules.character import (
    ACTIONS,
    ATTRIBUTE_XP,
    ATTRIBUTES,
    COIN_MAX,
    CREATION_DOTS,
    CREATION_MAX,
    HARM_PENALTIES,
    HARM_SLOTS,
    HEALING_SEGMENTS,
    LOAD_LEVELS,
    MULE_LOAD_LEVELS,
    PLAYBOOK_XP,
    STASH_MAX,
    STRESS_MAX,
    TRAUMA_CONDITIONS,
    TRAUMA_MAX,
    HarmPenalty,
    HarmResult,
    LoadState,
    RuleError,
    StressChange,
    XpChange,
    action_cap,
    add_coin,
    add_harm,
    add_stash,
    add_trauma,
    armor_boxes,
    attribute_of,
    attribute_rating,
    attribute_ratings,
    can_carry,
    check_can_act,
    check_fit_to_roll,
    check_load,
    clear_harm,
    creation_dots_left,
    custom_playbook_dots,
    empty_harm,
    end_of_session_xp,
    harm_dice_penalty,
    harm_penalties,
    harm_penalty,
    heal_one_level,
    ignored_vice_stress,
    lifestyle,
    load_bonus,
    load_limit,
    load_total,
    mark_stress,
    mark_track_xp,
    mark_xp,
    must_retire,
    remove_trauma,
    restore_armor,
    retirement_fate,
    set_action_rating,
    set_stress,
    split_session_xp,
    stash_coin,
    tick_healing,
    track_length,
    use_armor,
    validate_creation_dots,
    vice_dice,
    withdraw_stash,
)


def harm(**rows: tuple[str, ...]) -> dict[int, tuple[str, ...]]:
    """Build a full harm dict from keyword rows l1..l4."""
    full = empty_harm()
    for key, entries in rows.items():
        full[int(key[1])] = entries
    return full


# --- Actions and attributes -------------------------------------------------------------


def test_actions_in_sheet_order():
    assert ACTIONS == (
        "hunt",
        "study",
        "survey",
        "tinker",
        "finesse",
        "prowl",
        "skirmish",
        "wreck",
        "attune",
        "command",
        "consort",
        "sway",
    )
    assert list(ATTRIBUTES) == ["insight", "prowess", "resolve"]


@pytest.mark.parametrize(
    ("action", "attribute"),
    [
        ("hunt", "insight"),
        ("study", "insight"),
        ("survey", "insight"),
        ("tinker", "insight"),
        ("finesse", "prowess"),
        ("prowl", "prowess"),
        ("skirmish", "prowess"),
        ("wreck", "prowess"),
        ("attune", "resolve"),
        ("command", "resolve"),
        ("consort", "resolve"),
        ("sway", "resolve"),
    ],
)
def test_attribute_of(action, attribute):
    assert attribute_of(action) == attribute


def test_attribute_of_unknown_action():
    with pytest.raises(RuleError, match="not an action"):
        attribute_of("dance")


@pytest.mark.parametrize(
    ("ratings", "expected"),
    [
        ({}, {"insight": 0, "prowess": 0, "resolve": 0}),
        ({"hunt": 2, "survey": 1}, {"insight": 2, "prowess": 0, "resolve": 0}),
        # The dots in one action do not matter, only how many actions have any.
        ({"skirmish": 4}, {"insight": 0, "prowess": 1, "resolve": 0}),
        (
            {"finesse": 1, "prowl": 1, "skirmish": 2, "wreck": 3, "sway": 0},
            {"insight": 0, "prowess": 4, "resolve": 0},
        ),
        (dict.fromkeys(ACTIONS, 1), {"insight": 4, "prowess": 4, "resolve": 4}),
    ],
)
def test_attribute_ratings(ratings, expected):
    assert attribute_ratings(ratings) == expected
    for attribute, value in expected.items():
        assert attribute_rating(ratings, attribute) == value


def test_attribute_rating_unknown_attribute():
    with pytest.raises(RuleError, match="not an attribute"):
        attribute_rating({}, "charm")


@pytest.mark.parametrize(
    ("ratings", "dice"),
    [
        ({}, 0),
        ({"hunt": 1, "prowl": 1, "sway": 1}, 1),
        ({"hunt": 1, "study": 1, "prowl": 1, "sway": 1, "attune": 2}, 1),
        ({"hunt": 1, "study": 1, "prowl": 1, "wreck": 1, "sway": 1, "attune": 1}, 2),
        ({"hunt": 2, "study": 1}, 0),
    ],
)
def test_vice_dice_is_lowest_attribute(ratings, dice):
    assert vice_dice(ratings) == dice


# --- Creation ---------------------------------------------------------------------------


def test_creation_constants():
    assert (CREATION_DOTS, CREATION_MAX) == (4, 2)


@pytest.mark.parametrize(
    ("playbook", "added", "changed"),
    [
        # Cutter: Skirmish 2, Command 1; heritage, background and two free dots.
        (
            {"skirmish": 2, "command": 1},
            {"command": 1, "prowl": 1, "hunt": 1, "sway": 1},
            {"skirmish": 2, "command": 2, "prowl": 1, "hunt": 1, "sway": 1},
        ),
        # All four added dots stacked two by two.
        (
            {"attune": 2, "study": 1},
            {"study": 1, "tinker": 2, "sway": 1},
            {"attune": 2, "study": 2, "tinker": 2, "sway": 1},
        ),
        # A zero entry is harmless.
        (
            {"hunt": 2, "survey": 1},
            {"survey": 1, "finesse": 1, "wreck": 1, "consort": 1, "command": 0},
            {"hunt": 2, "survey": 2, "finesse": 1, "wreck": 1, "consort": 1},
        ),
    ],
)
def test_valid_creation(playbook, added, changed):
    ratings = validate_creation_dots(playbook, added)
    assert ratings == {action: changed.get(action, 0) for action in ACTIONS}
    assert list(ratings) == list(ACTIONS)
    assert sum(ratings.values()) == 7


@pytest.mark.parametrize(
    ("playbook", "added", "message"),
    [
        ({"skirmish": 2, "command": 1}, {"dance": 1, "hunt": 3}, "not an action"),
        ({"kicking": 2, "command": 1}, {"hunt": 2, "study": 2}, "not an action"),
        ({"skirmish": 2, "command": 1}, {"hunt": -1, "study": 2, "sway": 2, "tinker": 1}, "neg"),
        ({"skirmish": -1}, {"hunt": 2, "study": 2}, "negative"),
        ({"skirmish": 2, "command": 1}, {"hunt": 1, "study": 1, "sway": 1}, r"exactly 4.*added 3"),
        (
            {"skirmish": 2, "command": 1},
            {"hunt": 2, "study": 2, "sway": 1},
            r"exactly 4.*added 5",
        ),
        ({"skirmish": 2, "command": 1}, {}, r"added 0"),
        ({"skirmish": 2, "command": 1}, {"skirmish": 1, "hunt": 2, "sway": 1}, "Skirmish"),
        ({"skirmish": 2, "command": 1}, {"hunt": 3, "sway": 1}, "above 2"),
        ({"skirmish": 2, "command": 1}, {"command": 2, "hunt": 2}, "Command"),
    ],
)
def test_invalid_creation(playbook, added, message):
    with pytest.raises(RuleError, match=message):
        validate_creation_dots(playbook, added)


@pytest.mark.parametrize(
    ("added", "left"),
    [
        ({}, 4),
        ({"hunt": 1}, 3),
        ({"hunt": 2, "prowl": 2}, 0),
        ({"hunt": 2, "prowl": 2, "study": 1}, -1),
    ],
)
def test_dots_left_count_down_from_the_creation_dots(added, left):
    assert creation_dots_left(added) == left


def test_creation_with_a_custom_playbook():
    ratings = validate_creation_dots(
        custom_playbook_dots("wreck", "tinker"),
        {"tinker": 1, "hunt": 1, "consort": 2},
    )
    assert {a: v for a, v in ratings.items() if v} == {
        "wreck": 2,
        "tinker": 2,
        "hunt": 1,
        "consort": 2,
    }


def test_custom_playbook_dots():
    assert custom_playbook_dots("prowl", "finesse") == {"prowl": 2, "finesse": 1}


@pytest.mark.parametrize(
    ("primary", "secondary", "message"),
    [
        ("prowl", "prowl", "must differ"),
        ("sneak", "prowl", "not an action"),
        ("prowl", "sneak", "not an action"),
    ],
)
def test_custom_playbook_errors(primary, secondary, message):
    with pytest.raises(RuleError, match=message):
        custom_playbook_dots(primary, secondary)


@pytest.mark.parametrize(("mastery", "cap"), [(False, 3), (True, 4)])
def test_action_cap(mastery, cap):
    assert action_cap(mastery) == cap


@pytest.mark.parametrize(
    ("rating", "mastery"),
    [(0, False), (1, False), (3, False), (0, True), (3, True), (4, True)],
)
def test_set_action_rating_valid(rating, mastery):
    assert set_action_rating(rating, mastery) == rating


@pytest.mark.parametrize(
    ("rating", "mastery", "message"),
    [
        (4, False, "no higher than 3 until the crew has Mastery"),
        (5, True, r"no higher than 4\.$"),
        (-1, False, "negative"),
        (-1, True, "negative"),
    ],
)
def test_set_action_rating_invalid(rating, mastery, message):
    with pytest.raises(RuleError, match=message):
        set_action_rating(rating, mastery)


# --- Stress and trauma ----------------------------------------------------------------


def test_stress_and_trauma_constants():
    assert (STRESS_MAX, TRAUMA_MAX) == (9, 4)
    assert TRAUMA_CONDITIONS == (
        "cold",
        "haunted",
        "obsessed",
        "paranoid",
        "reckless",
        "soft",
        "unstable",
        "vicious",
    )


@pytest.mark.parametrize(
    ("stress", "amount", "expected"),
    [
        (0, 0, StressChange(0, False)),
        (0, 2, StressChange(2, False)),
        (5, 3, StressChange(8, False)),
        (5, 4, StressChange(0, True)),  # marking the last box is trauma
        (8, 1, StressChange(0, True)),
        (8, 2, StressChange(0, True)),  # stress past the last box is lost with it
        (3, 12, StressChange(0, True)),
        (0, 9, StressChange(0, True)),
        (9, 0, StressChange(9, False)),  # a sheet corrected to 9 by hand stays there
        (5, -2, StressChange(3, False)),
        (3, -5, StressChange(0, False)),  # clearing stops at zero
        (9, -9, StressChange(0, False)),
    ],
)
def test_mark_stress_when_a_pc_marks_their_last_stress_box_they_suffer_trauma(
    stress, amount, expected
):
    """001 §Trauma: "When a PC marks their last stress box, they suffer a level of
    trauma ... When you return, you have zero stress"."""
    assert mark_stress(stress, amount) == expected


@pytest.mark.parametrize(
    ("stress", "amount", "stress_max", "expected"),
    [
        (8, 1, 10, StressChange(9, False)),
        (9, 1, 10, StressChange(0, True)),
        (10, 1, 12, StressChange(11, False)),
        (11, 1, 12, StressChange(0, True)),
    ],
)
def test_mark_stress_longer_track(stress, amount, stress_max, expected):
    """An extra stress box moves the last box: trauma comes on marking it."""
    assert mark_stress(stress, amount, stress_max) == expected


@pytest.mark.parametrize("stress", [-1, 10])
def test_mark_stress_rejects_stress_off_the_track(stress):
    with pytest.raises(RuleError, match="Stress must be between 0 and 9"):
        mark_stress(stress, 1)


@pytest.mark.parametrize(
    ("traumas", "indulged", "satisfied", "stress"),
    [
        (0, False, False, 0),
        (2, False, False, 2),
        (3, True, False, 0),
        (3, False, True, 0),  # trauma since the last downtime satisfied the vice
        (3, True, True, 0),
    ],
)
def test_ignored_vice_stress_trauma_satisfies_the_vice_for_the_next_downtime(
    traumas, indulged, satisfied, stress
):
    """001 §Trauma: "When you return, you have zero stress and your vice has been
    satisfied for the next downtime"; otherwise stress equal to trauma (001 §Vice)."""
    assert ignored_vice_stress(traumas, indulged=indulged, satisfied_by_trauma=satisfied) == stress


def test_add_trauma():
    assert add_trauma((), "cold") == ("cold",)
    assert add_trauma(["cold", "soft"], "vicious") == ("cold", "soft", "vicious")


@pytest.mark.parametrize(
    ("traumas", "condition", "message"),
    [
        ((), "grumpy", "not a trauma condition"),
        (("cold",), "cold", "already cold"),
        (("cold", "soft", "vicious", "haunted"), "reckless", "already has 4 trauma"),
    ],
)
def test_add_trauma_errors(traumas, condition, message):
    with pytest.raises(RuleError, match=message):
        add_trauma(traumas, condition)


def test_add_trauma_with_an_extra_box():
    traumas = ("cold", "soft", "vicious", "haunted")
    assert add_trauma(traumas, "reckless", trauma_max=5) == (*traumas, "reckless")


@pytest.mark.parametrize(
    ("traumas", "retire"),
    [
        ((), False),
        (("cold",), False),
        (("cold", "soft", "vicious"), False),
        (("cold", "soft", "vicious", "haunted"), True),
    ],
)
def test_must_retire(traumas, retire):
    assert must_retire(traumas) is retire


def test_must_retire_with_an_extra_box():
    assert must_retire(("cold", "soft", "vicious", "haunted"), trauma_max=5) is False


# --- Harm -----------------------------------------------------------------------------


def test_harm_tables():
    assert HARM_SLOTS == {1: 2, 2: 2, 3: 1, 4: 1}
    assert HARM_PENALTIES == {1: "Reduced effect", 2: "−1d", 3: "Need help", 4: "Fatal"}
    assert empty_harm() == {1: (), 2: (), 3: (), 4: ()}


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_harm_lands_in_its_own_row(level):
    result = add_harm(empty_harm(), level, "Wound")
    assert result == HarmResult(
        harm={**empty_harm(), level: ("Wound",)}, level=level, catastrophic=False
    )


@pytest.mark.parametrize(
    ("before", "level", "landed", "after", "catastrophic"),
    [
        # Second slot of a two-slot row.
        (harm(l1=("Bruised",)), 1, 1, harm(l1=("Bruised", "New")), False),
        (harm(l2=("Cut",)), 2, 2, harm(l2=("Cut", "New")), False),
        # A full row pushes the harm up one row.
        (harm(l1=("A", "B")), 1, 2, harm(l1=("A", "B"), l2=("New",)), False),
        (harm(l2=("A", "B")), 2, 3, harm(l2=("A", "B"), l3=("New",)), False),
        # ...and up again through every full row.
        (
            harm(l1=("A", "B"), l2=("C", "D")),
            1,
            3,
            harm(l1=("A", "B"), l2=("C", "D"), l3=("New",)),
            False,
        ),
        # Level 3 full and more level-3 harm: catastrophic, it lands in level 4.
        (harm(l3=("Gut",)), 3, 4, harm(l3=("Gut",), l4=("New",)), True),
        (
            harm(l2=("C", "D"), l3=("Gut",)),
            2,
            4,
            harm(l2=("C", "D"), l3=("Gut",), l4=("New",)),
            True,
        ),
        (
            harm(l1=("A", "B"), l2=("C", "D"), l3=("Gut",)),
            1,
            4,
            harm(l1=("A", "B"), l2=("C", "D"), l3=("Gut",), l4=("New",)),
            True,
        ),
        # Lower rows being full does not matter to higher harm.
        (harm(l1=("A", "B")), 2, 2, harm(l1=("A", "B"), l2=("New",)), False),
        # Fatal harm dealt directly is fatal, not catastrophic, even over a full level 3.
        (harm(l3=("Gut",)), 4, 4, harm(l3=("Gut",), l4=("New",)), False),
    ],
)
def test_harm_placement(before, level, landed, after, catastrophic):
    result = add_harm(before, level, "New")
    assert result == HarmResult(harm=after, level=landed, catastrophic=catastrophic)


def test_add_harm_does_not_change_its_input():
    before = harm(l1=("A",))
    add_harm(before, 1, "B")
    assert before == harm(l1=("A",))


def test_add_harm_strips_description():
    assert add_harm({}, 2, "  Cut  ").harm[2] == ("Cut",)


def test_add_harm_accepts_json_keys_and_missing_rows():
    result = add_harm({"1": ["A", "B"]}, 1, "C")
    assert result.harm == harm(l1=("A", "B"), l2=("C",))


@pytest.mark.parametrize(
    ("before", "level", "description", "message"),
    [
        ({}, 0, "Cut", "Harm level must be between 1 and 4"),
        ({}, 5, "Cut", "Harm level must be between 1 and 4"),
        ({}, 1, "   ", "Describe the harm"),
        (harm(l4=("Dead",)), 4, "More", "already suffered fatal harm"),
        (harm(l3=("Gut",), l4=("Dead",)), 3, "More", "already suffered fatal harm"),
        ({5: ("X",)}, 1, "Cut", "level 5 does not exist"),
        ({3: ("X", "Y")}, 1, "Cut", "level 3 holds at most 1"),
    ],
)
def test_add_harm_errors(before, level, description, message):
    with pytest.raises(RuleError, match=message):
        add_harm(before, level, description)


@pytest.mark.parametrize(
    ("before", "level", "index", "after"),
    [
        (harm(l1=("A", "B")), 1, 0, harm(l1=("B",))),
        (harm(l1=("A", "B")), 1, 1, harm(l1=("A",))),
        (harm(l2=("C",), l3=("D",)), 3, 0, harm(l2=("C",))),
        (harm(l4=("E",)), 4, 0, empty_harm()),
    ],
)
def test_clear_harm(before, level, index, after):
    assert clear_harm(before, level, index) == after


@pytest.mark.parametrize(
    ("before", "level", "index", "message"),
    [
        (harm(l1=("A",)), 1, 1, "no such harm at level 1"),
        (harm(l1=("A",)), 2, 0, "no such harm at level 2"),
        (harm(l1=("A",)), 1, -1, "no such harm"),
        (harm(l1=("A",)), 7, 0, "between 1 and 4"),
    ],
)
def test_clear_harm_errors(before, level, index, message):
    with pytest.raises(RuleError, match=message):
        clear_harm(before, level, index)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (empty_harm(), empty_harm()),
        (harm(l1=("A", "B")), empty_harm()),
        (harm(l2=("C",)), harm(l1=("C",))),
        (harm(l1=("A",), l2=("C", "D")), harm(l1=("C", "D"))),
        (harm(l3=("E",)), harm(l2=("E",))),
        (
            harm(l1=("A", "B"), l2=("C", "D"), l3=("E",), l4=("F",)),
            harm(l1=("C", "D"), l2=("E",), l3=("F",)),
        ),
    ],
)
def test_heal_one_level(before, after):
    assert heal_one_level(before) == after


@pytest.mark.parametrize(
    ("marked", "ticks", "before", "expected"),
    [
        (0, 1, harm(l2=("C",)), (1, harm(l2=("C",)))),
        (0, 3, harm(l2=("C",)), (3, harm(l2=("C",)))),
        (3, 1, harm(l2=("C",)), (0, harm(l1=("C",)))),  # exactly fills
        (0, 5, harm(l2=("C",)), (1, harm(l1=("C",)))),  # critical: 1 rolls over
        (3, 2, harm(l1=("A",), l3=("E",)), (1, harm(l2=("E",)))),
        (3, 5, harm(l3=("E",)), (0, harm(l1=("E",)))),  # fills twice
        (2, 0, harm(l1=("A",)), (2, harm(l1=("A",)))),
        (3, 1, empty_harm(), (0, empty_harm())),
    ],
)
def test_tick_healing(marked, ticks, before, expected):
    assert tick_healing(marked, ticks, before) == expected


def test_four_fills_heal_everything_and_more_ticks_change_nothing():
    full = harm(l1=("A", "B"), l2=("C", "D"), l3=("E",), l4=("F",))
    assert tick_healing(0, 16, full) == (0, empty_harm())
    # A silly count (a fuzzer's) answers at once instead of healing forever.
    assert tick_healing(1, 10**18, full) == ((1 + 10**18) % 4, empty_harm())


def test_tick_healing_three_clock():
    assert tick_healing(2, 1, harm(l1=("A",)), segments=3) == (0, empty_harm())


@pytest.mark.parametrize(
    ("marked", "ticks", "message"),
    [
        (4, 1, "Healing ticks must be between 0 and 3"),
        (-1, 1, "between 0 and 3"),
        (0, -1, "cannot be negative"),
    ],
)
def test_tick_healing_errors(marked, ticks, message):
    with pytest.raises(RuleError, match=message):
        tick_healing(marked, ticks, {})


def test_healing_segments():
    assert HEALING_SEGMENTS == 4


@pytest.mark.parametrize(
    ("rows", "penalties", "dice"),
    [
        (empty_harm(), [], 0),
        (harm(l1=("A",)), ["Reduced effect"], 0),
        (harm(l2=("C",)), ["−1d"], -1),
        (harm(l2=("C", "D")), ["−1d"], -1),
        (harm(l3=("E",)), ["Need help"], 0),
        (harm(l4=("F",)), ["Fatal"], 0),
        (
            harm(l1=("A",), l2=("C",), l3=("E",), l4=("F",)),
            ["Reduced effect", "−1d", "Need help", "Fatal"],
            -1,
        ),
    ],
)
def test_harm_penalties(rows, penalties, dice):
    assert harm_penalties(rows) == penalties
    assert harm_dice_penalty(rows) == dice


# --- Armor ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("armor", "heavy", "special", "boxes"),
    [
        (False, False, False, ()),  # nothing carried, no ability: no armor at all
        (True, False, False, ("armor",)),
        (True, True, False, ("armor", "heavy")),
        (False, False, True, ("special",)),
        (True, False, True, ("armor", "special")),
        (True, True, True, ("armor", "heavy", "special")),
    ],
)
def test_armor_boxes_only_for_armor_carried_or_an_ability(armor, heavy, special, boxes):
    """001 §Armor: armor is an item carried on the score; "If you don't have any special
    abilities that use special armor, then you can't use that armor box at all" (000)."""
    assert armor_boxes(armor=armor, heavy=heavy, special=special) == boxes


@pytest.mark.parametrize(
    ("used", "box", "heavy", "special", "after"),
    [
        (set(), "armor", False, False, {"armor"}),
        ({"armor"}, "heavy", True, False, {"armor", "heavy"}),
        (frozenset(), "special", False, True, {"special"}),
        ({"armor", "heavy"}, "special", True, True, {"armor", "heavy", "special"}),
    ],
)
def test_use_armor(used, box, heavy, special, after):
    result = use_armor(used, box, armor=True, heavy=heavy, special=special)
    assert result == frozenset(after)
    assert isinstance(result, frozenset)


@pytest.mark.parametrize(
    ("used", "box", "armor", "heavy", "special", "message"),
    [
        (set(), "shield", True, True, True, "not an armor box"),
        (set(), "armor", False, False, True, "No armor is carried"),
        ({"armor"}, "heavy", True, False, False, "Only heavy armor"),
        (set(), "special", True, True, False, "needs an ability"),
        ({"armor"}, "armor", True, False, False, "already marked"),
        ({"armor", "heavy"}, "heavy", True, True, False, "already marked"),
        (set(), "heavy", True, True, False, "armor box before the heavy"),
    ],
)
def test_use_armor_errors(used, box, armor, heavy, special, message):
    with pytest.raises(RuleError, match=message):
        use_armor(used, box, armor=armor, heavy=heavy, special=special)


@pytest.mark.parametrize(
    ("used", "downtime", "after"),
    [
        ({"armor", "heavy", "special"}, False, set()),
        ({"armor", "heavy", "special"}, True, {"armor", "heavy"}),
        ({"armor"}, True, {"armor"}),
    ],
)
def test_restore_armor(used, downtime, after):
    assert restore_armor(used, downtime=downtime) == frozenset(after)


# --- Load -----------------------------------------------------------------------------


def test_load_tables():
    assert LOAD_LEVELS == {"light": 3, "normal": 5, "heavy": 6}
    assert MULE_LOAD_LEVELS == {"light": 5, "normal": 7, "heavy": 8}


@pytest.mark.parametrize(
    ("level", "mule", "limit"),
    [
        ("light", False, 3),
        ("normal", False, 5),
        ("heavy", False, 6),
        ("light", True, 5),
        ("normal", True, 7),
        ("heavy", True, 8),
    ],
)
def test_load_limit(level, mule, limit):
    """000 §Load: "1-3 load: Light", "4/5 load: Normal", "6 load: Heavy"; Mule (000):
    "Your load limits are higher. Light: 5. Normal: 7. Heavy: 8"."""
    assert load_limit(level, mule) == limit


def test_load_limit_unknown_level():
    with pytest.raises(RuleError, match="not a load"):
        load_limit("crushing", False)


@pytest.mark.parametrize(
    ("items", "coin", "total"),
    [
        ([], 0, 0),
        ([1, 1, 0], 0, 2),
        ([2], 0, 2),  # armor
        ([2, 3], 0, 5),  # heavy armor on top of armor
        ([1, 2, 3], 2, 8),
        (iter([1, 1]), 1, 3),
    ],
)
def test_load_total(items, coin, total):
    assert load_total(items, coin) == total


@pytest.mark.parametrize(("items", "coin"), [([1, -1], 0), ([1], -1)])
def test_load_total_negative(items, coin):
    with pytest.raises(RuleError, match="negative"):
        load_total(items, coin)


@pytest.mark.parametrize(
    ("level", "mule", "total", "expected"),
    [
        ("light", False, 3, LoadState(3, 3, encumbered=False, over=False)),
        ("light", False, 4, LoadState(3, 4, encumbered=False, over=True)),
        ("normal", False, 5, LoadState(5, 5, encumbered=False, over=False)),
        ("heavy", False, 6, LoadState(6, 6, encumbered=False, over=False)),
        ("heavy", False, 7, LoadState(6, 7, encumbered=True, over=True)),
        ("light", False, 7, LoadState(3, 7, encumbered=True, over=True)),
        ("light", True, 5, LoadState(5, 5, encumbered=False, over=False)),
        ("normal", True, 7, LoadState(7, 7, encumbered=False, over=False)),
        ("heavy", True, 8, LoadState(8, 8, encumbered=False, over=False)),
        ("heavy", True, 9, LoadState(8, 9, encumbered=True, over=True)),
        ("light", False, 0, LoadState(3, 0, encumbered=False, over=False)),
    ],
)
def test_check_load(level, mule, total, expected):
    assert check_load(level, mule, total) == expected


def test_check_load_negative():
    with pytest.raises(RuleError, match="negative"):
        check_load("light", False, -1)


@pytest.mark.parametrize(
    ("level", "mule", "total", "allowed"),
    [
        ("light", False, 3, True),
        ("light", False, 4, False),
        ("normal", False, 5, True),
        ("normal", False, 6, False),
        ("heavy", False, 6, True),
        ("heavy", False, 7, False),
        ("light", True, 5, True),
        ("light", True, 6, False),
        ("heavy", True, 8, True),
        ("heavy", True, 9, False),
    ],
)
def test_can_carry(level, mule, total, allowed):
    assert can_carry(level, mule, total) is allowed


def test_heavy_armor_fits_a_normal_load_exactly():
    assert can_carry("normal", False, load_total([2, 3])) is True
    assert can_carry("normal", False, load_total([2, 3, 1])) is False


# --- Coin and stash -------------------------------------------------------------------


def test_coin_constants():
    assert (COIN_MAX, STASH_MAX) == (4, 40)


@pytest.mark.parametrize(
    ("coin", "amount", "after"), [(0, 4, 4), (2, 2, 4), (3, -3, 0), (4, 0, 4), (1, 1, 2)]
)
def test_add_coin(coin, amount, after):
    assert add_coin(coin, amount) == after


@pytest.mark.parametrize(
    ("coin", "amount", "message"),
    [
        (4, 1, "A scoundrel carries at most 4 coin; stash the rest."),
        (0, 5, "at most 4 coin"),
        (2, -3, "Not enough coin: the character has 2."),
        (5, 0, "Coin must be between 0 and 4"),
    ],
)
def test_add_coin_errors(coin, amount, message):
    with pytest.raises(RuleError, match=message):
        add_coin(coin, amount)


@pytest.mark.parametrize(
    ("coin", "stash", "amount", "after"),
    [(4, 0, 4, (0, 4)), (3, 10, 1, (2, 11)), (2, 38, 2, (0, 40))],
)
def test_stash_coin(coin, stash, amount, after):
    assert stash_coin(coin, stash, amount) == after


@pytest.mark.parametrize(
    ("coin", "stash", "amount", "message"),
    [
        (2, 0, 3, "Not enough coin"),
        (2, 39, 2, "at most 40"),
        (2, 0, 0, "at least 1"),
        (2, 0, -1, "at least 1"),
    ],
)
def test_stash_coin_errors(coin, stash, amount, message):
    with pytest.raises(RuleError, match=message):
        stash_coin(coin, stash, amount)


@pytest.mark.parametrize(
    ("coin", "stash", "wanted", "after"),
    [(0, 2, 1, (1, 0)), (0, 10, 4, (4, 2)), (3, 40, 1, (4, 38)), (1, 7, 3, (4, 1))],
)
def test_withdraw_stash(coin, stash, wanted, after):
    assert withdraw_stash(coin, stash, wanted) == after


@pytest.mark.parametrize(
    ("coin", "stash", "wanted", "message"),
    [
        (0, 1, 1, "1 coin costs 2 stash; the character has only 1."),
        (0, 5, 3, "costs 6 stash"),
        (3, 40, 2, "at most 4 coin"),
        (0, 10, 0, "at least 1"),
    ],
)
def test_withdraw_stash_errors(coin, stash, wanted, message):
    with pytest.raises(RuleError, match=message):
        withdraw_stash(coin, stash, wanted)


@pytest.mark.parametrize(("stash", "amount", "after"), [(0, 2, 2), (10, 6, 16), (38, 5, 40)])
def test_add_stash(stash, amount, after):
    assert add_stash(stash, amount) == after


def test_add_stash_refuses_negative():
    with pytest.raises(RuleError, match="withdraw"):
        add_stash(10, -1)


@pytest.mark.parametrize(
    ("stash", "quality"),
    [(0, 0), (9, 0), (10, 1), (19, 1), (20, 2), (29, 2), (30, 3), (39, 3), (40, 4)],
)
def test_lifestyle(stash, quality):
    assert lifestyle(stash) == quality


@pytest.mark.parametrize(
    ("stash", "fate"),
    [
        (0, "poor soul"),
        (10, "poor soul"),
        (11, "meager"),
        (20, "meager"),
        (21, "modest"),
        (39, "modest"),
        (40, "fine"),
    ],
)
def test_retirement_fate(stash, fate):
    assert retirement_fate(stash) == fate


@pytest.mark.parametrize("stash", [-1, 41])
def test_stash_off_the_track(stash):
    with pytest.raises(RuleError, match="Stash must be between 0 and 40"):
        lifestyle(stash)
    with pytest.raises(RuleError, match="Stash must be between 0 and 40"):
        retirement_fate(stash)


# --- Experience -----------------------------------------------------------------------


def test_xp_constants():
    assert (PLAYBOOK_XP, ATTRIBUTE_XP) == (8, 6)


@pytest.mark.parametrize(
    ("track", "length"),
    [("playbook", 8), ("insight", 6), ("prowess", 6), ("resolve", 6)],
)
def test_track_length(track, length):
    assert track_length(track) == length


def test_track_length_unknown():
    with pytest.raises(RuleError, match="not an xp track"):
        track_length("hunt")


@pytest.mark.parametrize(
    ("xp", "amount", "track", "expected"),
    [
        (0, 1, "insight", XpChange(1, 0)),
        (4, 1, "insight", XpChange(5, 0)),
        (5, 1, "insight", XpChange(0, 1)),  # fills the track
        (2, 4, "prowess", XpChange(0, 1)),
        (4, 4, "resolve", XpChange(2, 1)),  # extra xp carries over
        (5, 13, "resolve", XpChange(0, 3)),
        (7, 1, "playbook", XpChange(0, 1)),
        (6, 1, "playbook", XpChange(7, 0)),
        (6, 6, "playbook", XpChange(4, 1)),
        (3, -2, "playbook", XpChange(1, 0)),
        (0, 0, "playbook", XpChange(0, 0)),
    ],
)
def test_mark_xp(xp, amount, track, expected):
    assert mark_xp(xp, amount, track) == expected


@pytest.mark.parametrize(
    ("xp", "amount", "track", "message"),
    [
        (1, -2, "playbook", "Only 1 xp is marked"),
        (6, 1, "insight", "Xp must be between 0 and 5"),
        (8, 1, "playbook", "between 0 and 7"),
        (-1, 1, "playbook", "between 0 and 7"),
    ],
)
def test_mark_xp_errors(xp, amount, track, message):
    with pytest.raises(RuleError, match=message):
        mark_xp(xp, amount, track)


def test_mark_track_xp_any_length():
    assert mark_track_xp(9, 3, 10) == XpChange(2, 1)


@pytest.mark.parametrize(
    ("triggers", "xp"),
    [
        ({}, 0),
        ({"playbook": 0, "beliefs": 0, "vice": 0}, 0),
        ({"playbook": 1, "beliefs": 0, "vice": 0}, 1),
        ({"playbook": 2, "beliefs": 2, "vice": 0}, 4),
        ({"playbook": 2, "beliefs": 2, "vice": 2}, 6),
    ],
)
def test_end_of_session_xp(triggers, xp):
    assert end_of_session_xp(triggers) == xp


@pytest.mark.parametrize("value", [3, -1])
def test_end_of_session_xp_errors(value):
    with pytest.raises(RuleError, match="“beliefs” gives 0, 1 or 2 xp"):
        end_of_session_xp({"playbook": 1, "beliefs": value})


def test_roll_warnings_name_each_harmed_row_and_encumbrance():
    from blades.rules.character import ENCUMBERED_WARNING, roll_warnings

    harm = {1: ("Battered",), 2: (), 3: ("Broken Leg",), 4: ()}
    assert roll_warnings(harm, encumbered=False) == [
        "Level 1 harm (Battered): reduced effect.",
        "Level 3 harm (Broken Leg): need help.",
    ]
    assert roll_warnings({}, encumbered=True) == [ENCUMBERED_WARNING]
    assert roll_warnings({"2": ["Cut"]}, encumbered=False) == ["Level 2 harm (Cut): −1d."]


def test_harm_rows_reads_stored_json_keys_and_fills_missing_rows():
    from blades.rules.character import harm_rows

    assert harm_rows({"2": ["Cut"]}) == {1: (), 2: ("Cut",), 3: (), 4: ()}


@pytest.mark.parametrize(
    ("xp", "tracks", "placed"),
    [
        (0, {}, {}),
        (4, {"insight": 4}, {"insight": 4}),
        (
            4,
            {"playbook": 1, "insight": 2, "prowess": 1, "resolve": 0},
            {"playbook": 1, "insight": 2, "prowess": 1},
        ),
        (6, {"playbook": 3, "resolve": 3}, {"playbook": 3, "resolve": 3}),
    ],
)
def test_split_session_xp_on_any_xp_tracks_you_want(xp, tracks, placed):
    """001 §PC Advancement: "You may mark end-of-session xp on any xp tracks you want (any
    attribute or your playbook xp track)"."""
    assert split_session_xp(xp, tracks) == placed


@pytest.mark.parametrize(
    ("xp", "tracks", "message"),
    [
        (3, {"insight": 2}, "Place it all"),
        (2, {"insight": 3}, "Place it all"),
        (2, {"hunt": 2}, "not an xp track"),
        (2, {"insight": 3, "prowess": -1}, "negative"),
    ],
)
def test_split_session_xp_errors(xp, tracks, message):
    with pytest.raises(RuleError, match=message):
        split_session_xp(xp, tracks)


@pytest.mark.parametrize(
    ("harm", "penalty"),
    [
        ({}, HarmPenalty(dice=0, effect=0, incapacitated=False, dead=False)),
        ({1: ["Battered"]}, HarmPenalty(dice=0, effect=-1, incapacitated=False, dead=False)),
        ({"2": ["Cut"]}, HarmPenalty(dice=-1, effect=0, incapacitated=False, dead=False)),
        ({1: ["A"], 2: ["B"], 3: ["C"]}, HarmPenalty(-1, -1, True, False)),
        ({4: ["Dead"]}, HarmPenalty(0, 0, False, True)),
    ],
)
def test_harm_penalty_lesser_reduced_effect_moderate_minus_1d_severe_incapacitated(harm, penalty):
    """001 §Harm: lesser harm "reduced effect", moderate "−1d", severe "incapacitated and
    can't do anything unless you have help from someone else or push yourself"."""
    assert harm_penalty(harm) == penalty


@pytest.mark.parametrize(
    ("helped", "pushed", "acts"), [(False, False, False), (True, False, True), (False, True, True)]
)
def test_severe_harm_acts_only_with_help_or_a_push(helped, pushed, acts):
    """001 §Harm: "can't do anything unless you have help from someone else or push
    yourself to perform the action"."""
    if acts:
        check_can_act({3: ["Punctured lung"]}, helped=helped, pushed=pushed)
    else:
        with pytest.raises(RuleError, match="incapacitated"):
            check_can_act({3: ["Punctured lung"]}, helped=helped, pushed=pushed)
    check_can_act({2: ["Cut"]}, helped=False, pushed=False)
    with pytest.raises(RuleError, match="fatal"):
        check_can_act({4: ["Dead"]}, helped=True, pushed=True)


def test_heavy_alone_gives_no_armor_box():
    """SRD_FACTS 4.1/4.2: "Armor = 2; +Heavy = 3 more (5 in total for heavy armor)": +Heavy
    is worn on top of Armor, so checked alone it is no armor at all."""
    assert armor_boxes(armor=False, heavy=True, special=False) == ()
    with pytest.raises(RuleError, match="No armor is carried"):
        use_armor(set(), "armor", armor=False, heavy=True, special=False)


@pytest.mark.parametrize(
    ("stress", "value", "stress_max", "after", "trauma"),
    [
        (3, 9, 9, 0, True),  # tapping the last box marks it
        (8, 9, 9, 0, True),
        (3, 10, 10, 0, True),  # a longer track: its own last box
        (3, 9, 10, 9, False),
        (5, 2, 9, 2, False),  # a correction down
        (9, 9, 9, 9, False),  # already full (kept from before): nothing newly marked
        (0, 0, 9, 0, False),
    ],
)
def test_stress_set_by_hand_to_the_last_box_is_trauma(stress, value, stress_max, after, trauma):
    """001 §Trauma: "When a PC marks their last stress box, they suffer a level of trauma"
    ... "When you return, you have zero stress": however the box was marked."""
    assert set_stress(stress, value, stress_max) == StressChange(after, trauma)


def test_stress_set_by_hand_stays_on_the_track():
    with pytest.raises(RuleError, match="between 0 and 9"):
        set_stress(0, 10)


def test_the_gm_clears_a_trauma_condition():
    assert remove_trauma(("cold", "soft"), "cold") == ("soft",)
    with pytest.raises(RuleError, match="not haunted"):
        remove_trauma(("cold",), "haunted")


def test_the_fourth_trauma_retires_from_every_roll():
    """001 §Trauma: "When you mark your fourth trauma condition, your character cannot
    continue as a daring scoundrel. You must retire them"."""
    check_fit_to_roll("Ada", ("cold", "soft", "vicious"))
    with pytest.raises(RuleError, match="Ada has 4 trauma and must retire"):
        check_fit_to_roll("Ada", ("cold", "soft", "vicious", "reckless"))
    # Hardened: a fifth box, so the fourth trauma is not yet the last.
    check_fit_to_roll("Ada", ("cold", "soft", "vicious", "reckless"), trauma_max=5)


def test_an_action_too_high_at_creation_is_named_capitalised():
    with pytest.raises(RuleError, match=r"\(Hunt would\)"):
        validate_creation_dots({"hunt": 2}, {"hunt": 1, "study": 1, "survey": 1, "tinker": 1})


@pytest.mark.parametrize(
    ("upgrades", "bonus"),
    [
        ({}, 0),
        ({"thief_rigging": 1}, 2),
        ({"assassin_rigging": 1}, 2),
        ({"bravos_rigging": 1}, 2),
        ({"cult_rigging": 1}, 2),
        ({"thief_rigging": 0}, 0),
        ({"smugglers_rigging": 1}, 0),  # concealment, not load
        ({"hawkers_rigging": 1}, 0),  # nothing carried, nothing hidden
    ],
)
def test_load_bonus_counts_the_rigging_upgrades(upgrades, bonus):
    """SRD_FACTS 4.1: "Rigging crew upgrades (Assassins, Bravos, Cult, Shadows) give 2
    free load in certain item categories": Assassin Rigging "weapons or gear", Bravos
    Rigging "weapons or armor", Cult Rigging "documents or implements", Thief Rigging
    "tools or gear" (SRD_FACTS 5); Smuggler's Rigging conceals, it frees no load."""
    assert load_bonus(upgrades) == bonus


@pytest.mark.parametrize(
    ("upgrades", "carried", "bonus"),
    [
        ({"hawkers_rigging": 1}, [1, 2, 1], 2),
        ({"hawkers_rigging": 1}, [1], 1),
        ({"hawkers_rigging": 0}, [2], 0),
        ({}, [3], 0),
    ],
)
def test_hawkers_rigging_carries_one_item_with_no_load(upgrades, carried, bonus):
    """crew_upgrades.json, Hawker's Rigging: "1 carried item is concealed and has no load"
    (SRD_FACTS 5: "1 carried item concealed and 0 load"): the heaviest one, the player's
    best choice."""
    assert load_bonus(upgrades, carried) == bonus
    assert can_carry("light", False, load_total(carried), bonus) is (sum(carried) - bonus <= 3)


def test_load_bonus_raises_every_level_and_mule_too():
    assert load_limit("light", False, load_bonus({"thief_rigging": 1})) == 5
    assert load_limit("heavy", True, 2) == 10
    assert can_carry("light", False, 5, 2) and not can_carry("light", False, 6, 2)
    assert check_load("heavy", False, 8, 2) == LoadState(8, 8, False, False)


def test_armor_left_is_the_boxes_there_are_still_to_mark():
    """001 §Armor: "mark an armor box"; heavy armor a second; special armor through its
    ability. A marked box is not offered again."""
    from blades.rules.character import armor_left

    assert armor_left(set(), armor=False, heavy=False, special=False) == ()
    assert armor_left({"armor"}, armor=True, heavy=True, special=True) == ("heavy", "special")
    assert armor_left({"special"}, armor=True, heavy=False, special=True) == ("armor",)
