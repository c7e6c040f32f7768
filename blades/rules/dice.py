"""Rolling and reading a pool of six-sided dice (RULES.md "Dice")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Protocol

from blades.rules.errors import _

FACES = range(1, 7)
MAX_POOL = 10


class RandomSource(Protocol):
    """Anything with ``randint`` (``random.Random``, ``secrets.SystemRandom``)."""

    def randint(self, a: int, b: int) -> int: ...


class Outcome(StrEnum):
    CRITICAL = "critical"
    SUCCESS = "success"
    PARTIAL = "partial"
    BAD = "bad"

    @property
    def label(self) -> str:
        return _OUTCOME_LABELS[self]


# Kept outside the class: a dict attribute on an enum would become a member.
# Marked for the catalog: the Django layer reads them in the reader's language.
_OUTCOME_LABELS = {
    Outcome.CRITICAL: _("Critical"),
    Outcome.SUCCESS: _("Full success"),
    Outcome.PARTIAL: _("Partial success"),
    Outcome.BAD: _("Bad outcome"),
}


def takes_lowest(pool: int) -> bool:
    """A pool of zero or less rolls two dice and the lowest counts."""
    return pool <= 0


def dice_count(pool: int) -> int:
    """How many dice a pool rolls: a pool of zero or less still rolls two."""
    return 2 if takes_lowest(pool) else pool


@dataclass(frozen=True)
class Roll:
    pool: int
    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        # Stored rolls come back from JSON as lists; a tuple keeps the roll hashable.
        object.__setattr__(self, "dice", tuple(self.dice))
        if len(self.dice) != dice_count(self.pool):
            raise ValueError(
                f"a pool of {self.pool} rolls {dice_count(self.pool)} dice, got {len(self.dice)}"
            )
        if any(face not in FACES for face in self.dice):
            raise ValueError(f"dice faces must be 1-6, got {self.dice}")

    @property
    def zero_pool(self) -> bool:
        return self.pool <= 0

    @property
    def counting(self) -> int:
        return min(self.dice) if self.zero_pool else max(self.dice)

    @property
    def counting_index(self) -> int:
        return self.dice.index(self.counting)

    @property
    def outcome(self) -> Outcome:
        if self.counting == 6:
            if not self.zero_pool and self.dice.count(6) >= 2:
                return Outcome.CRITICAL
            return Outcome.SUCCESS
        if self.counting >= 4:
            return Outcome.PARTIAL
        return Outcome.BAD


def roll(pool: int, rng: RandomSource) -> Roll:
    return Roll(pool, tuple(rng.randint(1, 6) for _ in range(dice_count(pool))))


def read(dice: Sequence[int], pool: int) -> Outcome:
    return Roll(pool, tuple(dice)).outcome


def odds(pool: int) -> dict[Outcome, Fraction]:
    """Exact chance of each outcome for a pool, up to MAX_POOL.

    Every one of the 6^n rolls is counted, grouped by which faces came up (the
    order of the dice never changes the result), so even ten dice stay cheap.
    """
    if pool > MAX_POOL:
        raise ValueError(f"odds are only worked out for pools up to {MAX_POOL}")
    n = dice_count(pool)
    ways = Counter({outcome: 0 for outcome in Outcome})
    for faces in combinations_with_replacement(FACES, n):
        orderings = factorial(n) // prod(factorial(k) for k in Counter(faces).values())
        ways[read(faces, pool)] += orderings
    total = 6**n
    return {outcome: Fraction(ways[outcome], total) for outcome in Outcome}
