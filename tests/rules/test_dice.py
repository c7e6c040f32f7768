import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from blades.rules.dice import MAX_POOL, Outcome, Roll, dice_count, odds, read, roll

C, S, P, B = Outcome.CRITICAL, Outcome.SUCCESS, Outcome.PARTIAL, Outcome.BAD


class FakeRng:
    """Hands out preset faces and records every call."""

    def __init__(self, faces):
        self.faces = list(faces)
        self.calls = []

    def randint(self, a, b):
        self.calls.append((a, b))
        return self.faces.pop(0)


def enumerated_odds(pool):
    """Chance of each outcome, counting every ordered roll of the pool's dice."""
    rolls = list(product(range(1, 7), repeat=dice_count(pool)))
    counts = Counter(read(dice, pool) for dice in rolls)
    return {outcome: Fraction(counts[outcome], len(rolls)) for outcome in Outcome}


def formula_odds(pool):
    """RULES.md's closed forms."""
    if pool <= 0:
        return {C: Fraction(0), S: Fraction(1, 36), P: Fraction(8, 36), B: Fraction(27, 36)}
    n = pool
    six_or_crit = 1 - Fraction(5, 6) ** n
    crit = 1 - Fraction(5, 6) ** n - n * Fraction(1, 6) * Fraction(5, 6) ** (n - 1)
    bad = Fraction(1, 2) ** n
    return {C: crit, S: six_or_crit - crit, P: 1 - six_or_crit - bad, B: bad}


@pytest.mark.parametrize(
    ("label", "outcome"),
    [
        ("Critical", C),
        ("Full success", S),
        ("Partial success", P),
        ("Bad outcome", B),
    ],
)
def test_outcome_labels(label, outcome):
    assert outcome.label == label


def test_outcome_values():
    assert [o.value for o in Outcome] == ["critical", "success", "partial", "bad"]


@pytest.mark.parametrize(
    ("pool", "count"), [(-3, 2), (-1, 2), (0, 2), (1, 1), (2, 2), (3, 3), (10, 10)]
)
def test_dice_count(pool, count):
    assert dice_count(pool) == count


@pytest.mark.parametrize(
    ("dice", "pool", "outcome"),
    [
        ((6, 6), 2, C),
        ((1, 6, 3, 6), 4, C),
        ((6, 6, 6), 3, C),
        ((6,), 1, S),
        ((5, 6, 2), 3, S),
        ((5,), 1, P),
        ((4, 1), 2, P),
        ((3, 5, 4), 3, P),
        ((3,), 1, B),
        ((1, 2, 3), 3, B),
        ((1,), 1, B),
    ],
)
def test_read_uses_highest_die(dice, pool, outcome):
    assert read(dice, pool) is outcome


@pytest.mark.parametrize(
    ("dice", "outcome"),
    [
        ((6, 6), S),
        ((6, 5), P),
        ((4, 6), P),
        ((6, 3), B),
        ((1, 6), B),
        ((5, 5), P),
        ((2, 3), B),
    ],
)
@pytest.mark.parametrize("pool", [0, -2])
def test_zero_pool_reads_lowest_and_never_crits(dice, outcome, pool):
    assert read(dice, pool) is outcome


@pytest.mark.parametrize(
    ("pool", "dice", "counting", "index"),
    [
        (3, (2, 5, 5), 5, 1),
        (1, (4,), 4, 0),
        (4, (1, 6, 3, 6), 6, 1),
        (0, (5, 2), 2, 1),
        (0, (3, 3), 3, 0),
        (-1, (6, 4), 4, 1),
    ],
)
def test_counting_die(pool, dice, counting, index):
    r = Roll(pool, dice)
    assert r.counting == counting
    assert r.counting_index == index


@pytest.mark.parametrize(("pool", "zero"), [(-1, True), (0, True), (1, False), (4, False)])
def test_zero_pool_flag(pool, zero):
    assert Roll(pool, (1,) * dice_count(pool)).zero_pool is zero


@pytest.mark.parametrize(
    ("pool", "dice"),
    [
        (3, (1, 2)),
        (1, ()),
        (0, (4,)),
        (0, (4, 4, 4)),
        (2, (0, 3)),
        (2, (3, 7)),
        (1, (-6,)),
    ],
)
def test_roll_validation(pool, dice):
    with pytest.raises(ValueError):
        Roll(pool, dice)


def test_roll_accepts_a_list_and_stores_a_tuple():
    r = Roll(2, [3, 5])
    assert r.dice == (3, 5)
    assert hash(r) == hash(Roll(2, (3, 5)))


def test_roll_is_frozen():
    r = Roll(1, (4,))
    with pytest.raises(AttributeError):
        r.pool = 2


def test_roll_with_fake_rng():
    rng = FakeRng([4, 6, 6])
    r = roll(3, rng)
    assert r == Roll(3, (4, 6, 6))
    assert r.outcome is C
    assert rng.calls == [(1, 6)] * 3


@pytest.mark.parametrize("pool", [0, -2])
def test_zero_pool_roll_draws_two_dice(pool):
    rng = FakeRng([6, 6])
    r = roll(pool, rng)
    assert r.dice == (6, 6)
    assert r.outcome is S
    assert rng.calls == [(1, 6), (1, 6)]


def test_roll_with_seeded_random_is_repeatable():
    first = [roll(4, random.Random(1234)) for _ in range(3)]
    again = [roll(4, random.Random(1234)) for _ in range(3)]
    assert first == again
    expected = random.Random(1234)
    assert first[0].dice == tuple(expected.randint(1, 6) for _ in range(4))


@pytest.mark.parametrize("pool", range(-1, MAX_POOL + 1))
def test_roll_count_and_faces(pool):
    rng = random.Random(pool)
    for _ in range(200):
        r = roll(pool, rng)
        assert len(r.dice) == dice_count(pool)
        assert set(r.dice) <= {1, 2, 3, 4, 5, 6}


def test_roll_with_seeded_random_reaches_every_face():
    rng = random.Random(7)
    faces = {face for _ in range(200) for face in roll(3, rng).dice}
    assert faces == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("pool", range(0, 7))
def test_enumerated_odds_match_rules_formulas(pool):
    assert enumerated_odds(pool) == formula_odds(pool)


@pytest.mark.parametrize("pool", range(0, 7))
def test_odds_match_full_enumeration(pool):
    assert odds(pool) == enumerated_odds(pool)


@pytest.mark.parametrize("pool", range(-2, MAX_POOL + 1))
def test_odds_match_rules_formulas(pool):
    result = odds(pool)
    assert result == formula_odds(pool)
    assert sum(result.values()) == 1


@pytest.mark.parametrize(
    ("pool", "expected"),
    [
        (0, {C: Fraction(0), S: Fraction(1, 36), P: Fraction(2, 9), B: Fraction(3, 4)}),
        (1, {C: Fraction(0), S: Fraction(1, 6), P: Fraction(1, 3), B: Fraction(1, 2)}),
        (2, {C: Fraction(1, 36), S: Fraction(10, 36), P: Fraction(16, 36), B: Fraction(9, 36)}),
    ],
)
def test_odds_small_pools_by_hand(pool, expected):
    assert odds(pool) == expected


def test_zero_pool_odds_have_no_critical():
    assert odds(0)[C] == 0
    assert odds(-3)[C] == 0


def test_odds_refuse_pools_above_max():
    with pytest.raises(ValueError):
        odds(MAX_POOL + 1)


def test_max_pool():
    assert MAX_POOL == 10
