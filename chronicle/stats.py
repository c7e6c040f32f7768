"""The table's dice in numbers: each person's rolls by kind and pool, what came up, and
what the rules say should come up (blades.rules.dice.odds, the engine's own exact
enumeration of every roll).

Every roll is a line of the table's roll log (`Roll`), the shared action roll's dice and
its resistance rolls included. Shared rolls made before they wrote to the log (no `log`
link; a group action whose participants' entries name no line) are counted from
`ActionRoll` and its consequences, so a table's history keeps its old rolls. A
secret roll counts only on the GM's page. A constant number of queries, however many
rolls.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from django.apps import apps
from django.utils.translation import gettext

from blades.rules import dice
from blades.rules.dice import Outcome
from blades.rules.rolls import RollKind

from .terms import rules_word

OUTCOMES = tuple(Outcome)
CHART_WIDTH = 240  # a bar for every roll, in SVG units
LABEL_WIDTH = 100
ROW_HEIGHT = 18


@cache
def exact_odds(pool: int) -> dict[Outcome, Fraction] | None:
    return dice.odds(pool) if pool <= dice.MAX_POOL else None


@dataclass(frozen=True)
class Bar:
    outcome: Outcome
    count: int
    observed: float  # share of the rolls, 0-1
    expected: float | None  # exact chance, 0-1
    y: int

    @property
    def label(self) -> str:
        return rules_word(self.outcome.label)

    @property
    def width(self) -> float:
        return round(self.observed * CHART_WIDTH, 1)

    @property
    def expected_x(self) -> float | None:
        if self.expected is None:
            return None
        return round(LABEL_WIDTH + self.expected * CHART_WIDTH, 1)

    @property
    def observed_percent(self) -> str:
        return f"{self.observed:.0%}"

    @property
    def expected_percent(self) -> str:
        return "" if self.expected is None else f"{self.expected:.1%}"

    @property
    def text_y(self) -> int:
        return self.y + 13


@dataclass(frozen=True)
class Line:
    """One person's rolls of one kind at one pool."""

    kind: str
    pool: int
    total: int
    bars: tuple[Bar, ...]

    @property
    def chart_height(self) -> int:
        return ROW_HEIGHT * len(self.bars)

    chart_width = LABEL_WIDTH + CHART_WIDTH
    bar_x = LABEL_WIDTH


@dataclass(frozen=True)
class Person:
    name: str
    total: int
    lines: tuple[Line, ...]


def _possible(pool: int) -> tuple[Outcome, ...]:
    """No row for the impossible: one die, or a pool of zero, never rolls a critical."""
    odds = exact_odds(pool)
    return tuple(o for o in OUTCOMES if odds is None or odds[o] > 0)


def _line(kind: str, pool: int, outcomes: Counter) -> Line:
    total = sum(outcomes.values())
    odds = exact_odds(pool)
    bars = tuple(
        Bar(
            outcome=outcome,
            count=outcomes[outcome],
            observed=outcomes[outcome] / total,
            expected=float(odds[outcome]) if odds else None,
            y=index * ROW_HEIGHT,
        )
        for index, outcome in enumerate(_possible(pool))
    )
    return Line(kind=kind, pool=pool, total=total, bars=bars)


def table_statistics(table_id: int, *, gm: bool) -> list[Person]:
    Roll = apps.get_model("table_sessions", "Roll")
    ActionRoll = apps.get_model("rolls", "ActionRoll")
    Character = apps.get_model("characters", "Character")
    tally: dict[tuple[str, str, int], Counter] = defaultdict(Counter)

    def count(person: str | None, kind: str, pool: int, outcome: str) -> None:
        tally[(person or gettext("someone"), kind, pool)][Outcome(outcome)] += 1

    logged = Roll.objects.filter(table_id=table_id)
    shared = ActionRoll.objects.filter(table_id=table_id)
    if not gm:
        logged, shared = logged.filter(secret=False), shared.filter(secret=False)
    for row in logged.values_list("roller__username", "kind", "pool", "outcome"):
        # The rules engine knows no Django: its label is read in the reader's language here.
        count(row[0], gettext(RollKind(row[1]).label), row[2], row[3])

    # From before the shared roll wrote its dice to the log: those lines are missing.
    shared = shared.filter(log=None)
    single = shared.exclude(kind=ActionRoll.Kind.GROUP).exclude(dice=None)
    labels = dict(ActionRoll.Kind.choices)
    for owner, starter, kind, pool, outcome in single.values_list(
        "character__owner__username", "started_by__username", "kind", "pool", "outcome"
    ):
        count(owner or starter, labels[kind], pool, outcome)

    owners = dict(Character.objects.filter(table_id=table_id).values_list("pk", "owner__username"))
    groups = shared.filter(kind=ActionRoll.Kind.GROUP).values_list("group", "group_bonuses")
    for group, bonuses in groups:
        for character_id, rolled in group.items():
            if rolled and "log" not in bonuses.get(character_id, {}):
                pool, faces = rolled[0], rolled[1:]
                outcome = dice.read(faces, pool)
                count(
                    owners.get(int(character_id)), gettext("Group action (own dice)"), pool, outcome
                )

    Consequence = apps.get_model("rolls", "Consequence")
    resisted = Consequence.objects.filter(roll__table_id=table_id, roll__log=None)
    resisted = resisted.exclude(resist_dice=None)
    if not gm:
        resisted = resisted.filter(roll__secret=False)
    for owner, rolled in resisted.values_list("character__owner__username", "resist_dice"):
        pool, faces = rolled[0], rolled[1:]
        count(owner, gettext("Resistance (shared roll)"), pool, dice.read(faces, pool))

    people: dict[str, list[Line]] = defaultdict(list)
    for (person, kind, pool), outcomes in sorted(tally.items()):
        people[person].append(_line(kind, pool, outcomes))
    return [
        Person(name=name, total=sum(line.total for line in lines), lines=tuple(lines))
        for name, lines in sorted(people.items(), key=lambda item: item[0].casefold())
    ]
