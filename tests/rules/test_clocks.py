import pytest

from blades.rules.character import RuleError
from blades.rules.clocks import (
    CLOCK_MAX,
    CLOCK_MIN,
    CLOCK_SIZES,
    clock_full,
    tick_clock,
    validate_clock_size,
)


def test_constants():
    assert CLOCK_SIZES == (4, 6, 8)
    assert (CLOCK_MIN, CLOCK_MAX) == (2, 12)


@pytest.mark.parametrize("segments", [2, 3, 4, 6, 8, 12])
def test_valid_sizes(segments):
    assert validate_clock_size(segments) == segments


@pytest.mark.parametrize("segments", [-4, 0, 1, 13])
def test_invalid_sizes(segments):
    with pytest.raises(RuleError, match="A clock has 2 to 12 segments"):
        validate_clock_size(segments)


@pytest.mark.parametrize(
    ("filled", "segments", "by", "after"),
    [
        (0, 4, 1, 1),
        (0, 6, 2, 2),
        (2, 6, 3, 5),
        (5, 6, 1, 6),
        (5, 6, 3, 6),  # clamped at full
        (6, 6, 1, 6),
        (0, 8, 5, 5),
        (3, 4, -1, 2),  # tug-of-war: ticking back
        (1, 4, -3, 0),  # clamped at empty
        (0, 12, 0, 0),
    ],
)
def test_tick_clock(filled, segments, by, after):
    assert tick_clock(filled, segments, by) == after


@pytest.mark.parametrize(
    ("filled", "segments", "message"),
    [
        (7, 6, "Filled segments must be between 0 and 6"),
        (-1, 6, "Filled segments must be between"),
        (0, 1, "2 to 12 segments"),
    ],
)
def test_tick_clock_errors(filled, segments, message):
    with pytest.raises(RuleError, match=message):
        tick_clock(filled, segments, 1)


@pytest.mark.parametrize(
    ("filled", "segments", "full"), [(0, 4, False), (3, 4, False), (4, 4, True), (8, 8, True)]
)
def test_clock_full(filled, segments, full):
    assert clock_full(filled, segments) is full
