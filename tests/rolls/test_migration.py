"""A database from before the action roll had its own app keeps every roll.

The rows are written through the historical models of that time (the roll still in
`table_sessions`), then the database migrates forward the way an upgrade does.
"""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from rolls.models import ActionRoll, Consequence, RollEvent
from tests.factories import CharacterFactory, ClockFactory, MembershipFactory, TableFactory


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh graph, as the next `migrate` sees it


def write_rolls_as_before(apps, table, player, ada, bo, clock) -> None:
    """Open and finished rolls of every kind, with their consequences and events."""
    OldRoll = apps.get_model("table_sessions", "ActionRoll")
    OldConsequence = apps.get_model("table_sessions", "Consequence")
    OldEvent = apps.get_model("table_sessions", "RollEvent")
    now = timezone.now()
    finished = OldRoll.objects.create(
        table_id=table.pk,
        step="done",
        started_by_id=player.pk,
        character_id=ada.pk,
        goal="Climb the wall",
        action="prowl",
        position="desperate",
        effect=3,
        push_dice=True,
        assister_id=bo.pk,
        setup_for_id=bo.pk,
        setup_benefit="dice",
        pool=3,
        dice=[6, 3, 1],
        outcome="success",
        target_clock_id=clock.pk,
        finished=now,
    )
    OldRoll.objects.create(
        table_id=table.pk,
        started_by_id=player.pk,
        character_id=bo.pk,
        goal="Follow the setup",
        action="hunt",
        setup_from=finished,
    )
    rolled = OldRoll.objects.create(
        table_id=table.pk,
        kind="group",
        step="consequences",
        character_id=ada.pk,
        goal="Sneak in together",
        action="prowl",
        group={str(ada.pk): 2, str(bo.pk): None},
        group_bonuses={str(bo.pk): {"push": True, "bargain": "", "assister": None}},
        pool=2,
        dice=[4, 2],
        outcome="partial",
    )
    OldRoll.objects.create(
        table_id=table.pk,
        kind="fortune",
        step="done",
        goal="Do they notice?",
        secret=True,
        pool=1,
        dice=[5],
        outcome="partial",
        finished=now,
    )
    OldConsequence.objects.create(
        roll=finished,
        kind="harm",
        character_id=ada.pk,
        description="Sprained ankle",
        harm_level=2,
        harm_landed=2,
        resist_attribute="prowess",
        resisted="roll",
        resist_dice=[4, 2],
        result="reduced",
        protected_by_id=bo.pk,
    )
    OldConsequence.objects.create(roll=finished, kind="complication", heat=2)
    OldConsequence.objects.create(roll=rolled, kind="complication", clock_id=clock.pk, ticks=2)
    OldEvent.objects.create(roll=finished, actor_id=player.pk, text="Started the roll")
    OldEvent.objects.create(
        roll=finished,
        actor_id=table.gm_id,
        text="Rolled 6",
        changes=[{"clock": clock.pk, "field": "filled", "before": 3, "after": 5}],
    )
    OldEvent.objects.create(roll=rolled, actor=None, text="Ada rolled 4")


def rows(model) -> list[dict]:
    return list(model.objects.order_by("pk").values())


@pytest.mark.django_db(transaction=True)
def test_a_database_from_before_the_move_keeps_every_roll():
    table = TableFactory()
    player = MembershipFactory(table=table).user
    other = MembershipFactory(table=table).user
    ada = CharacterFactory(table=table, owner=player, name="Ada")
    bo = CharacterFactory(table=table, owner=other, name="Bo")
    clock = ClockFactory(table=table, name="Bluecoats close in", segments=6, filled=5)

    # Back to before the move: rolls unapplied, and with it what depends on it (the
    # table_sessions migration that gave the models away). Other apps stay as they are.
    executor = migrate([("rolls", None)])
    applied = executor.loader.applied_migrations
    assert ("table_sessions", "0004_group_bonuses_and_heat") in applied
    assert not any(app == "rolls" for app, _ in applied)
    old = executor.loader.project_state(list(applied)).apps
    write_rolls_as_before(old, table, player, ada, bo, clock)
    before = {
        name: rows(old.get_model("table_sessions", name))
        for name in ("ActionRoll", "Consequence", "RollEvent")
    }

    migrate(executor.loader.graph.leaf_nodes())
    after = {model.__name__: rows(model) for model in (ActionRoll, Consequence, RollEvent)}
    for row in after["ActionRoll"]:  # added since the move: the old rows take the defaults
        assert row.pop("trade_for") == "effect"
        assert (row.pop("called"), row.pop("push_act")) == (False, False)
        assert (row.pop("assist_foresight"), row.pop("push_special")) == (False, False)
        assert row.pop("cohorts") == {}
    for row in before["ActionRoll"]:  # dropped since: who drew on a set up is in setup_from
        row.pop("setup_used")
    # Columns added since the move (the roll's line in the log) are new and empty.
    assert all(row.pop("log_id") is None for row in after["ActionRoll"])
    assert all(row.pop("resist_log_id") is None for row in after["Consequence"])
    # Added since the move: an old consequence was no supernatural threat (Anointed).
    assert all(row.pop("supernatural") is False for row in after["Consequence"])
    assert after == before
    assert [len(after[name]) for name in ("ActionRoll", "Consequence", "RollEvent")] == [4, 3, 3]
    connection.check_constraints()

    # The moved rows work through the app's own models, and new rows get fresh ids.
    finished = ActionRoll.objects.get(goal="Climb the wall")
    assert [e.text for e in finished.events.all()] == ["Started the roll", "Rolled 6"]
    assert finished.consequences.get(kind="harm").protected_by == bo
    assert ActionRoll.objects.get(goal="Follow the setup").setup_from == finished
    assert table.action_rolls.filter(step__in=["setup", "consequences"]).count() == 2
    new = ActionRoll.objects.create(table=table, goal="After the upgrade")
    assert new.pk > max(row["id"] for row in before["ActionRoll"])
