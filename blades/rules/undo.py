"""Taking back a finished roll's changes after the table has moved on.

Undo reverses what the roll itself did, not what the sheet looked like before it: a
counter goes back by the roll's own delta, stopping at the ends of its track; harm
loses exactly the entries the roll wrote and gets back the ones it took away. So a
stress box marked on the sheet after the roll survives the undo, and when nothing
else changed the result is exactly the state before the roll.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from blades.rules.character import HARM_SLOTS, Harm, harm_rows


@dataclass(frozen=True)
class Reversal:
    value: int
    clamped: bool  # the track's end stopped it: something else changed the counter since


def reverse_count(current: int, delta: int, low: int, high: int) -> Reversal:
    """Take `delta` back off a counter that runs from `low` to `high`."""
    wanted = current - delta
    value = max(low, min(wanted, high))
    return Reversal(value=value, clamped=value != wanted)


@dataclass(frozen=True)
class LadderReversal:
    low: int  # the track that rolls over: xp, heat
    high: int  # what it rolls into: advances, wanted level
    clamped: bool


def ladder_steps(delta_low: int, delta_high: int, size: int) -> int:
    """A change to a rolling track measured in boxes, each roll-over counting as a full
    track (heat 8 → wanted +1, heat 1 is 2 steps on a track of 9)."""
    return delta_high * size + delta_low


def reverse_ladder(
    low: int, high: int, steps: int, size: int, high_max: int | None = None
) -> LadderReversal:
    """Move `steps` boxes back along a track of `size` boxes that rolls over into a
    second counter (unbounded, or at most `high_max`, where the track then stops full);
    a negative number of steps moves forward. Unrolls through the second counter."""
    top = high_max * size + size - 1 if high_max is not None else None
    wanted = high * size + low - steps
    position = max(0, wanted if top is None else min(wanted, top))
    new_high, new_low = divmod(position, size)
    return LadderReversal(low=new_low, high=new_high, clamped=position != wanted)


@dataclass(frozen=True)
class HarmReversal:
    harm: Harm
    missing: tuple[str, ...]  # harm the roll wrote that someone already cleared
    unplaced: tuple[str, ...]  # harm the roll took away whose row is full again


def _entries(harm: Mapping[int, Sequence[str]]) -> Counter[tuple[int, str]]:
    rows = harm_rows(harm)
    return Counter((level, entry) for level, entries in rows.items() for entry in entries)


def reverse_harm(
    current: Mapping[int, Sequence[str]],
    before: Mapping[int, Sequence[str]],
    after: Mapping[int, Sequence[str]],
) -> HarmReversal:
    """Undo one harm change (`before` → `after`) on the harm the sheet holds now."""
    if harm_rows(current) == harm_rows(after):
        return HarmReversal(harm=harm_rows(before), missing=(), unplaced=())
    old, new = _entries(before), _entries(after)
    rows = harm_rows(current)
    missing, unplaced = [], []
    for (level, entry), count in (new - old).items():
        for _ in range(count):
            entries = list(rows[level])
            if entry not in entries:
                missing.append(entry)
                continue
            del entries[len(entries) - 1 - entries[::-1].index(entry)]
            rows[level] = tuple(entries)
    for (level, entry), count in (old - new).items():
        for _ in range(count):
            if len(rows[level]) < HARM_SLOTS[level]:
                rows[level] = (*rows[level], entry)
            else:
                unplaced.append(entry)
    return HarmReversal(harm=rows, missing=tuple(missing), unplaced=tuple(unplaced))
