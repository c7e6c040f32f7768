"""Random evenings played through the app's own steps, exported, restored into a new
table with the seats handed back: every audience reads the same table as before.

Hypothesis picks the evening (fortune, action, set-up and flashback rolls, harm taken,
resisted or protected against, a group action with a member at 0 dice, clocks of every
visibility, ticks, undo); the comparison is of each member's pages (PAGES) as they read
them, the text they see (ids, tokens and links aside)."""

import contextlib
import difflib
import random
import re
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule, run_state_machine_as_test

from backup.restore import read_document, restore_table
from backup.tables import dumps, export_table
from blades.rules.errors import RuleError
from blades.rules.flow import FLASHBACK_COSTS, SETUP_BENEFITS
from blades.rules.rolls import Effect, Position, RollKind
from rolls import actions as flow
from rolls import group as flow_group
from rolls import outcome, undo
from sessions import actions
from sessions.models import Clock
from tests.backup.full_table import hand_seats_back
from tests.factories import CharacterFactory, MembershipFactory, TableFactory
from tests.helpers import member, start

SEEDS = st.integers(0, 2**16)


class Visible(HTMLParser):
    """The text a reader sees: no markup, scripts or styles."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs) -> None:
        self.hidden += tag in ("script", "style", "template")

    def handle_endtag(self, tag) -> None:
        self.hidden -= tag in ("script", "style", "template")

    def handle_data(self, data) -> None:
        if not self.hidden:
            self.words += data.split()


# What each member reads of the table: its page, the journal, the dice statistics (each
# player's rolls their own: a seat handed back takes its rolls with it).
PAGES = ("table_detail", "journal", "dice_statistics")


def seen(client: Client, user, table, page_name: str) -> str:
    client.force_login(user)
    page = client.get(reverse(page_name, args=[table.pk]))
    assert page.status_code == 200
    reader = Visible()
    reader.feed(page.content.decode())
    return re.sub(r"\b\d{2,}\b", "#", " ".join(reader.words))


def difference(before: str, after: str) -> str:
    """Where two readings part, word by word, to read in a failure."""
    lines = difflib.unified_diff(before.split(" "), after.split(" "), lineterm="", n=12)
    return " ".join(lines)


class Evening(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.table = TableFactory(name="An evening")
        self.gm = member(self.table, self.table.gm)
        self.players = []
        for name, prowl in (("Ada", 2), ("Cy", 0)):  # Cy rolls 0 dice: two, the lower
            user = MembershipFactory(table=self.table).user
            character = CharacterFactory(table=self.table, owner=user, name=name, prowl=prowl)
            self.players.append((member(self.table, user), character))
        self.clocks: list[Clock] = []

    def finish(self, roll) -> None:
        outcome.finish(by=self.gm, roll=roll)

    @rule(who=st.integers(0, 1), pool=st.integers(0, 4), seed=SEEDS, secret=st.booleans())
    def fortune(self, who, pool, seed, secret):
        roller = self.players[who][0].user if who else self.table.gm
        actions.quick_roll(
            table=self.table, roller=roller, kind=RollKind.FORTUNE, pool=pool,
            secret=secret and not who, rng=random.Random(seed),
        )  # fmt: skip

    @rule(who=st.integers(0, 1), seed=SEEDS)
    def action(self, who, seed):
        by, character = self.players[who]
        try:
            roll = start(by, character)
            roll = flow.roll_dice(by=by, roll=roll, rng=random.Random(seed))
            self.finish(roll)
        except RuleError:
            pass  # the app refused (a character who cannot act): nothing changed

    @rule(seed=SEEDS)
    def group(self, seed):
        (ada_m, ada), (cy_m, _) = self.players
        try:
            roll = start(ada_m, ada, group=True)
            roll = flow_group.join_group(by=cy_m, roll=roll)
            roll = flow_group.roll_dice(by=cy_m, roll=roll, rng=random.Random(seed))
            roll = flow_group.roll_dice(by=ada_m, roll=roll, rng=random.Random(seed + 1))
            self.finish(roll)
        except RuleError:
            pass

    @rule(seed=SEEDS, benefit=st.sampled_from(sorted(SETUP_BENEFITS)))
    def set_up(self, seed, benefit):
        """Ada sets Cy up; Cy's next action roll carries it."""
        (ada_m, ada), (_, cy) = self.players
        with contextlib.suppress(RuleError):
            roll = start(ada_m, ada, setup_for=cy, setup_benefit=benefit)
            self.finish(flow.roll_dice(by=ada_m, roll=roll, rng=random.Random(seed)))

    @rule(who=st.integers(0, 1), seed=SEEDS, cost=st.sampled_from(FLASHBACK_COSTS))
    def flashback(self, who, seed, cost):
        by, character = self.players[who]
        with contextlib.suppress(RuleError):
            roll = start(by, character, flashback=True)
            roll = flow.set_terms(
                by=self.gm, roll=roll, position=Position.RISKY, effect=Effect.STANDARD,
                flashback_cost=cost,
            )  # fmt: skip
            self.finish(flow.roll_dice(by=by, roll=roll, rng=random.Random(seed)))

    @rule(who=st.integers(0, 1), seed=SEEDS, answer=st.sampled_from(["protect", "resist", "take"]))
    def harm(self, who, seed, answer):
        """A roll that leaves harm on the menu: the roller takes it, resists it, or the
        other player protects them."""
        by, character = self.players[who]
        other = self.players[1 - who][0]
        try:
            roll = flow.roll_dice(by=by, roll=start(by, character), rng=random.Random(seed))
        except RuleError:
            return  # a character who cannot act
        # A 6 leaves no harm on the menu (refused); the roll closes either way.
        with contextlib.suppress(RuleError):
            hurt = outcome.add_consequence(
                by=self.gm, roll=roll, kind="harm", level=1, description="Bruised",
                attribute="prowess", character=character,
            )  # fmt: skip
            if answer == "protect":
                outcome.protect(by=other, consequence=hurt)
            elif answer == "resist":
                hurt = outcome.resist(by=by, consequence=hurt, rng=random.Random(seed + 1))
                outcome.judge_resistance(by=self.gm, consequence=hurt, avoided=seed % 2 == 0)
        self.finish(roll)

    @rule()
    def take_back(self):
        with contextlib.suppress(RuleError):
            undo.undo_last(by=self.gm, table=self.table)

    @rule(
        visibility=st.sampled_from(list(Clock.Visibility)),
        segments=st.sampled_from([4, 6, 8]),
        who=st.integers(0, 1),
    )
    def clock(self, visibility, segments, who):
        owner = self.players[who][0].user if visibility == Clock.Visibility.OWNER else None
        self.clocks.append(
            actions.create_clock(
                table=self.table,
                name=f"Clock {len(self.clocks)}",
                segments=segments,
                kind=Clock.Kind.DANGER,
                visibility=visibility,
                owner=owner,
            )  # fmt: skip
        )

    @precondition(lambda self: self.clocks)
    @rule(which=st.integers(0, 7), by=st.sampled_from([-1, 1, 2, 3]))
    def tick(self, which, by):
        actions.tick_clock(clock=self.clocks[which % len(self.clocks)], by=by)

    def teardown(self):
        """The evening exported, restored, its seats handed back: each reads the same."""
        document = read_document(dumps(export_table(self.table.pk)))
        copy = restore_table(document, gm=self.table.gm).table
        hand_seats_back(copy, self.table)
        client = Client()
        for user in [self.table.gm, *(m.user for m, _ in self.players)]:
            for page in PAGES:
                before, after = seen(client, user, self.table, page), seen(client, user, copy, page)
                assert after == before, f"{page}: {difference(before, after)}"


# Fifty evenings on SQLite; PostgreSQL changes only how they are stored, which twenty
# reach (docs/architecture.md, "Which tests run twice").
EVENINGS = settings(
    max_examples=50 if connection.vendor == "sqlite" else 20,
    stateful_step_count=5,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.django_db
def test_every_evening_restores_as_it_was_played():
    run_state_machine_as_test(Evening, settings=EVENINGS)


@pytest.mark.django_db
def test_the_evening_that_once_failed():
    """Kept as found (shrunk by hand): after a group action the copy listed its
    participants in the export's order of keys, not the leader first."""
    evening = Evening()
    evening.action(seed=214, who=0)
    evening.take_back()
    evening.group(seed=7078)
    evening.clock(visibility=Clock.Visibility.KNOWN, segments=4, who=0)
    evening.tick(which=0, by=2)
    evening.teardown()
