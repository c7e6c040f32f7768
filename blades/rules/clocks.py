"""Progress clocks: sizes and ticking."""

from blades.rules.character import RuleError, check_range

CLOCK_SIZES = (4, 6, 8)  # complex, more complicated, daunting
CLOCK_MIN = 2
CLOCK_MAX = 12


def validate_clock_size(segments: int) -> int:
    if not CLOCK_MIN <= segments <= CLOCK_MAX:
        raise RuleError(f"A clock has {CLOCK_MIN} to {CLOCK_MAX} segments.")
    return segments


def tick_clock(filled: int, segments: int, by: int) -> int:
    """Tick forward (or back, for tug-of-war clocks); a clock never runs past full or
    below empty."""
    validate_clock_size(segments)
    check_range(filled, 0, segments, "Filled segments")
    return max(0, min(segments, filled + by))


def clock_full(filled: int, segments: int) -> bool:
    return filled >= validate_clock_size(segments)
