"""Progress clocks: their sizes, and what each kind lets a tick do (001 §Progress clocks).

The tick itself is one clamped UPDATE in sessions.actions; what is asked here first is
whether the move is allowed at all.

- A linked clock unlocks another once it is filled: the other is locked while any clock
  that unlocks it is not full. Locking is read from the clocks as they are, never stored:
  a tug-of-war clock that empties again locks its next clock again, which keeps its ticks
  and goes on from them when the first fills once more.
- A tug-of-war clock is filled and emptied by events: ticking it down is part of play.
  Any other clock only fills; taking a tick off one is its keeper's correction (the GM,
  or the player whose own clock it is).
- A racing clock races a rival clock (each names the other), and only a racing clock
  has a rival.
- A faction clock is ticked by the GM in downtime, so players never tick it.
"""

from collections.abc import Iterable, Mapping

from blades.rules.errors import RuleError, _

CLOCK_MIN = 2
CLOCK_MAX = 12

# The kinds as stored (sessions.models.Clock.Kind uses the same values).
TUG_OF_WAR = "tug"
RACING = "racing"
FACTION = "faction"


def validate_clock_size(segments: int) -> int:
    if not CLOCK_MIN <= segments <= CLOCK_MAX:
        raise RuleError(_("A clock has %(min)s to %(max)s segments."), min=CLOCK_MIN, max=CLOCK_MAX)
    return segments


def is_full(filled: int, segments: int) -> bool:
    return filled >= segments


def is_locked(unlocked_by: Iterable[tuple[int, int]]) -> bool:
    """`unlocked_by`: (filled, segments) of each clock that unlocks this one."""
    return any(not is_full(filled, segments) for filled, segments in unlocked_by)


def check_tick(*, kind: str, by: int, locked_until: str | None, keeper: bool) -> None:
    """Refuse a tick the clock's kind (or its lock) does not allow. `locked_until` names
    the clock still to fill when this one is locked (None when it is open). `keeper`: the
    GM, or the player whose own clock it is, who may correct it as well as play it."""
    if by == 0:
        raise RuleError(_("A tick moves the clock by at least one segment."))
    # Its keeper may still take ticks off a locked clock: a correction, or undoing a roll.
    if locked_until is not None and (by > 0 or not keeper):
        raise RuleError(_("This clock is locked until “%(clock)s” fills."), clock=locked_until)
    if keeper:
        return
    if kind == FACTION:
        raise RuleError(_("A faction clock is ticked by the GM in downtime."))
    if by < 0 and kind != TUG_OF_WAR:
        raise RuleError(_("Only a tug-of-war clock can be ticked down."))


def check_setup(*, kind: str, hidden: bool, players_tick: bool, has_rival: bool) -> None:
    """Refuse a clock whose settings contradict its kind."""
    if players_tick and hidden:
        raise RuleError(_("Players cannot tick a clock they cannot see."))
    if players_tick and kind == FACTION:
        raise RuleError(_("A faction clock is ticked by the GM in downtime."))
    if has_rival and kind != RACING:
        raise RuleError(_("Only a racing clock races a rival."))


def check_links(links: Mapping[int, int | None]) -> None:
    """`links`: each clock of a table and the clock it unlocks. A chain that comes back
    on itself would lock its clocks for good."""
    for start in links:
        seen = {start}
        step = links.get(start)
        while step is not None:
            if step in seen:
                raise RuleError(_("A clock cannot unlock itself, even through other clocks."))
            seen.add(step)
            step = links.get(step)
