import pytest

from blades.rules.character import RuleError
from blades.rules.clocks import CLOCK_MAX, CLOCK_MIN, validate_clock_size


def test_constants():
    assert (CLOCK_MIN, CLOCK_MAX) == (2, 12)


@pytest.mark.parametrize("segments", [2, 3, 4, 6, 8, 12])
def test_valid_sizes(segments):
    assert validate_clock_size(segments) == segments


@pytest.mark.parametrize("segments", [-4, 0, 1, 13])
def test_invalid_sizes(segments):
    with pytest.raises(RuleError, match="A clock has 2 to 12 segments"):
        validate_clock_size(segments)
