"""Progress clocks: their sizes. Ticking is one clamped UPDATE in sessions.actions."""

from blades.rules.character import RuleError

CLOCK_MIN = 2
CLOCK_MAX = 12


def validate_clock_size(segments: int) -> int:
    if not CLOCK_MIN <= segments <= CLOCK_MAX:
        raise RuleError(f"A clock has {CLOCK_MIN} to {CLOCK_MAX} segments.")
    return segments
